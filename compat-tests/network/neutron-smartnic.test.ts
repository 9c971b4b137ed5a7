/**
 * Smart NIC ports against a real Neutron 26 (the Keystone + Neutron + ironic-ts lab, driven with
 * Debian 13's `baremetal` CLI): a node whose port is a Smart NIC (is_smartnic, local_link_connection
 * port_id + hostname) is deployed with the neutron network interface; its provisioning port and
 * its tenant VIF are bound with binding:host_id = the NIC's hostname and vnic_type smart-nic, by
 * ML2's own openvswitch mechanism driver, and go ACTIVE. A node whose NIC has no live agent fails
 * its deploy with 29.0.5's "Agent on host ... failed to reach state up".
 *
 * Why the agent is a script: a Smart NIC's agent is neutron-openvswitch-agent running on the NIC,
 * which needs Open vSwitch and the NIC's representor ports. What Ironic and neutron-server see of
 * it is its RPC traffic, so smartnic_agent.py (beside support/neutron.ts) runs in the Debian 13
 * root with Neutron's own agent RPC classes over a RabbitMQ vhost of this test's (127.0.0.1:5672,
 * created and deleted here), on which neutron-server runs its RPC and state report workers: its
 * state reports make Neutron's agent list show an alive 'Open vSwitch agent' with
 * baremetal_smartnic on that host (so the openvswitch driver binds there), and update_device_up
 * makes the bound ports ACTIVE. The node's BMC is the project's Redfish emulator (fake and noop
 * management refuse the BIOS boot device that power_on_node_if_needed sets); the script watches it
 * and, as a NIC powered by its host, restarts (no reports for a few seconds) whenever the host
 * powers on, which is the "agent down" Ironic waits for after powering a node on.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startRedfishEmulator, type RedfishEmulator } from '../../src/emulators/redfish';
import { createVhost } from '../../test/rpc/broker';
import { inDebian13 } from '../support/debian13-root';
import { killGroup } from '../support/process-group';
import { DEBIAN13_CLIENTS, parseJson } from '../support/python';
import { API, startNeutronLab, type NeutronLab } from './neutron-lab';

const HOST = 'smartnic-1.example.org';
const GHOST = 'smartnic-ghost.example.org';
const USER = 'admin';
const PASSWORD = 'bmc-password';
const AGENT = path.join(__dirname, '..', '..', '..', 'compat-tests', 'support', 'neutron', 'smartnic_agent.py');
/** The physical networks of the lab's networks, all on the NIC's OVS bridges. */
const BRIDGES = { physnet1: 'br-tenant', physnet2: 'br-prov', physnet3: 'br-clean', physnet4: 'br-rescue' };

let vhost: ReturnType<typeof createVhost>;
let bmc: RedfishEmulator;
let lab: NeutronLab;
let agentPid = 0;

before(async () => {
  vhost = createVhost('ironic-ts-smartnic');
  bmc = await startRedfishEmulator({ systems: ['1', '2'], auth: { username: USER, password: PASSWORD } });
  lab = await startNeutronLab('neutron-smartnic', {
    neutron: { transportUrl: vhost.url, agentDownTime: 2, extraMechanismDrivers: ['openvswitch'] },
    ironic: {
      DEFAULT: { enabled_power_interfaces: 'fake,redfish', enabled_management_interfaces: 'fake,noop,redfish' },
      agent: { neutron_agent_max_attempts: '20', neutron_agent_status_retry_interval: '1', neutron_agent_poll_interval: '1' },
    },
  });
  const out = fs.openSync(path.join(lab.dir, 'smartnic-agent.log'), 'a');
  const [cmd, argv] = inDebian13([path.dirname(AGENT)], '/usr/bin/python3',
    [AGENT, vhost.url, HOST, JSON.stringify(BRIDGES), `${bmc.url}/redfish/v1/Systems/1`, USER, PASSWORD, '4']);
  const child = spawn(cmd, argv, { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' }, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  agentPid = child.pid ?? 0;
  await waitAgent(HOST, true);
}, { timeout: 20 * 60_000 });

after(async () => {
  if (agentPid) await killGroup(agentPid);
  await lab?.stop();
  await bmc?.stop();
  vhost?.remove();
});

/** Neutron's agent list for the host, as Ironic reads it. */
async function agentsOn(host: string): Promise<Record<string, unknown>[]> {
  return (await lab.neutron.api<{ agents: Record<string, unknown>[] }>('GET', `/agents?host=${encodeURIComponent(host)}`)).agents;
}

async function waitAgent(host: string, alive: boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if ((await agentsOn(host)).some((a) => a.alive === alive)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  const log = fs.readFileSync(path.join(lab.dir, 'smartnic-agent.log'), 'utf8');
  assert.fail(`no ${alive ? 'alive' : 'dead'} agent on ${host}:\n${log.slice(-3000)}`);
}

async function enrollSmartnic(name: string, system: string, mac: string, hostname: string): Promise<string> {
  const created = parseJson<{ uuid: string }>(await DEBIAN13_CLIENTS.baremetal(lab.target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name,
    '--deploy-interface', 'direct', '--boot-interface', 'ipxe', '--network-interface', 'neutron',
    '--management-interface', 'redfish', '--power-interface', 'redfish',
    '--driver-info', `redfish_address=${bmc.url}`, '--driver-info', `redfish_username=${USER}`,
    '--driver-info', `redfish_password=${PASSWORD}`, '--driver-info', `redfish_system_id=/redfish/v1/Systems/${system}`,
    '--driver-info', `deploy_kernel=file://${lab.dir}/deploy.kernel`, '--driver-info', `deploy_ramdisk=file://${lab.dir}/deploy.initramfs`,
    '-f', 'json'], API));
  await lab.setImage(created.uuid);
  await lab.bm(['port', 'create', mac, '--node', created.uuid, '--pxe-enabled', 'true', '--is-smartnic',
    '--local-link-connection', 'port_id=pf0vf0', '--local-link-connection', `hostname=${hostname}`]);
  await lab.bm(['node', 'manage', created.uuid, '--wait', '60']);
  await lab.provide(created.uuid);
  return created.uuid;
}

function assertSmartnicBound(port: Record<string, unknown> | null | undefined, what: string): void {
  assert.ok(port, `${what}: no such port`);
  assert.equal(port['binding:host_id'], HOST, `${what}: bound to the Smart NIC's host`);
  assert.equal(port['binding:vnic_type'], 'smart-nic', what);
  assert.equal(port['binding:vif_type'], 'ovs', `${what}: bound by the openvswitch driver to the NIC's agent`);
  assert.equal(port.status, 'ACTIVE', `${what}: the agent brought it up`);
  assert.deepEqual((port['binding:profile'] as { local_link_information?: unknown }).local_link_information,
    [{ port_id: 'pf0vf0', hostname: HOST }], what);
}

test('a Smart NIC node deploys with its provisioning port and tenant VIF bound to the NIC host, once its agent is alive', async () => {
  const mac = '52:54:00:5c:00:01';
  const uuid = await enrollSmartnic('snic-1', '1', mac, HOST);
  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'snic-vif' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);

  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back', 180_000);
  const provisioning = await lab.portsOn(lab.provisioningNet, mac);
  assert.equal(provisioning.length, 1, 'one provisioning port');
  assertSmartnicBound(provisioning[0], 'provisioning port');
  const log = fs.readFileSync(path.join(lab.dir, 'smartnic-agent.log'), 'utf8');
  assert.match(log, /host powered on: NIC restarting/, 'the node was powered on for the network change');

  await lab.withAgent(mac, path.join(lab.dir, 'snic.disk'), () => lab.waitState(uuid, 'active', 240_000));
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'provisioning port removed');
  assertSmartnicBound(await lab.neutron.showPort(vif), 'tenant VIF once active');
  assert.equal((await agentsOn(HOST))[0].agent_type, 'Open vSwitch agent');
});

test('a Smart NIC without a live agent: the deploy fails with 29.0.5\'s error and no port is made', async () => {
  const mac = '52:54:00:5c:00:02';
  assert.deepEqual(await agentsOn(GHOST), [], 'Neutron knows no agent on that host');
  const uuid = await enrollSmartnic('snic-ghost', '2', mac, GHOST);
  await lab.bm(['node', 'deploy', uuid]);
  const failed = await lab.waitState(uuid, 'deploy failed', 180_000);
  assert.match(String(failed.last_error), new RegExp(`Agent on host ${GHOST.replace(/\./g, '\\.')} failed to reach state up`));
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'no provisioning port');
});
