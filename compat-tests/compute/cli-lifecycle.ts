/**
 * The `ironic-compute` CLI through an instance's whole life on one hardware type, as a suite the
 * fake-hardware, ipmi and redfish test files run: resources, boot, list, show, a refused second
 * boot, power off/on, reboot soft/hard, rebuild, rescue/unrescue (or its refusal), VIF
 * attach/detach, console (or its absence), delete; each step checks the node through the API.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, startIronicTs, Target } from '../support/target';
import { IronicClient, IronicNode } from '../../src/compute/client';
import { decodeConfigDrive } from '../../src/images/configdrive';

const CLI = path.resolve(__dirname, '..', '..', 'src', 'cmd', 'ironic-compute.js');
export const INSTANCE = '0f0e0d0c-1111-4222-8333-444455556666';
export const VIF1 = 'aa000000-0000-4000-8000-000000000001';
export const VIF2 = 'aa000000-0000-4000-8000-000000000002';
const MAC1 = '52:54:00:c0:00:01';
const MAC2 = '52:54:00:c0:00:02';

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface Backend {
  label: string;
  /** [DEFAULT] lines (and further groups) appended to the reference-like ironic.conf. */
  extraConf: string;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** The POST /v1/nodes body: driver, driver_info and interfaces. */
  nodeBody(): Record<string, unknown>;
  /** The BMC's own view of the power, checked behind Ironic's back. */
  bmcPower?(): Promise<'on' | 'off'>;
  rescue: boolean;
  console: boolean;
}

export function cli(url: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, '--url', url, '--interval', '0.1', '--timeout', '60', ...args], { timeout: 120000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ stdout: String(stdout), stderr: String(stderr), code });
    });
  });
}

export async function waitNode(client: IronicClient, node: string, pred: (n: IronicNode) => boolean, what: string): Promise<IronicNode> {
  let n = await client.getNode(node);
  for (let i = 0; i < 600 && !pred(n); i++) {
    await new Promise((r) => setTimeout(r, 50));
    n = await client.getNode(node);
  }
  if (!pred(n)) throw new Error(`node ${node} never reached ${what}: ${JSON.stringify(n).slice(0, 500)}`);
  return n;
}

/** enroll -> manageable -> available, powered off, with two ports for VIFs. */
export async function availableNode(client: IronicClient, body: Record<string, unknown>): Promise<IronicNode> {
  const node = await client.request<IronicNode>('POST', '/v1/nodes', {
    resource_class: 'baremetal', network_interface: 'flat', deploy_interface: 'fake',
    properties: { cpus: 4, memory_mb: 8192, local_gb: 40, cpu_arch: 'x86_64' }, ...body,
  });
  for (const mac of [MAC1, MAC2]) await client.request('POST', '/v1/ports', { node_uuid: node.uuid, address: mac });
  for (const [target, state] of [['manage', 'manageable'], ['provide', 'available']]) {
    await client.setProvisionState(node.uuid, { target });
    await waitNode(client, node.uuid, (n) => n.provision_state === state && n.target_provision_state === null, state);
  }
  await client.setPowerState(node.uuid, 'power off');
  return waitNode(client, node.uuid, (n) => n.power_state === 'power off' && n.target_power_state === null, 'power off');
}

/** The configdrive as stored (the API masks it), read from the server's SQLite file. */
export function storedConfigDrive(target: Target, node: string): Buffer | null {
  const code = 'import json,sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute("SELECT instance_info FROM nodes WHERE uuid=?", (sys.argv[2],)).fetchone(); print((json.loads(r[0] or "{}") if r else {}).get("configdrive") or "")';
  const out = execFileSync('/usr/bin/python3', ['-c', code, path.join(target.dir, 'ironic.sqlite'), node], { encoding: 'utf8' }).trim();
  return out ? decodeConfigDrive(out) : null;
}

export function isoFile(iso: Buffer, inside: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-cli-iso-'));
  try {
    fs.writeFileSync(path.join(dir, 'cd.iso'), iso);
    return execFileSync('isoinfo', ['-i', path.join(dir, 'cd.iso'), '-R', '-x', inside], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function computeCliLifecycle(backend: Backend): void {
  describe(`ironic-compute CLI lifecycle on ${backend.label}`, { timeout: 600000 }, () => {
    let target: Target;
    let client: IronicClient;
    let dir: string;
    let node: string;
    const run = (...args: string[]): Promise<CliResult> => cli(target.url, ...args);
    const ok = async (...args: string[]): Promise<CliResult> => {
      const r = await run(...args);
      assert.equal(r.code, 0, `ironic-compute ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r;
    };
    const checkBmc = async (expected: 'on' | 'off'): Promise<void> => {
      if (backend.bmcPower) assert.equal(await backend.bmcPower(), expected, 'the BMC agrees');
    };

    before(async () => {
      await backend.start?.();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-cli-'));
      target = await startIronicTs(fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compute-cli-')), await freePort(), backend.extraConf);
      client = new IronicClient({ url: target.url });
      node = (await availableNode(client, { name: 'cli-node', ...backend.nodeBody() })).uuid;
    });
    after(async () => {
      await target?.stop();
      await backend.stop?.();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('resources: the node is schedulable, one unit of its class, reported as Nova reports it', async () => {
      const table = await ok('resources');
      assert.match(table.stdout, new RegExp(`^${node}\\tbaremetal\\tCUSTOM_BAREMETAL=1\\(reserved 0\\)\\tyes\\tx86_64$`, 'm'));
      const one = JSON.parse((await ok('resources', '--node', node)).stdout) as { resource: Record<string, unknown>; inventory: Record<string, unknown> };
      assert.equal(one.resource.hypervisor_type, 'ironic');
      assert.equal(one.resource.hypervisor_hostname, node);
      assert.deepEqual(one.resource.supported_instances, [['x86_64', 'baremetal', 'hvm']]);
      assert.deepEqual(one.inventory, { CUSTOM_BAREMETAL: { total: 1, reserved: 0, min_unit: 1, max_unit: 1, step_size: 1, allocation_ratio: 1 } });
    });

    it('boot: active with the instance, Nova\'s instance_info, the VIF and the config drive', async () => {
      fs.writeFileSync(path.join(dir, 'id.pub'), 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKey cli@test\n');
      fs.writeFileSync(path.join(dir, 'user-data'), '#cloud-config\n');
      fs.writeFileSync(path.join(dir, 'motd'), 'welcome\n');
      const r = await ok('boot', '--node', 'cli-node', '--image', 'http://127.0.0.1:1/img.qcow2', '--name', 'vm-1',
        '--instance-uuid', INSTANCE, '--ssh-key', path.join(dir, 'id.pub'), '--user-data', path.join(dir, 'user-data'),
        '--admin-pass', 'Adm1n', '--file', `/etc/motd=${path.join(dir, 'motd')}`, '--property', 'role=lab', '--host', 'compute-1',
        '--network', `vif=${VIF1},ip=192.0.2.10/24,gateway=192.0.2.1,dns=192.0.2.2,mtu=1500,net=lab`);
      assert.match(r.stdout, new RegExp(`^boot: instance ${INSTANCE} \\(vm-1\\) on node ${node}$`, 'm'));
      assert.match(r.stdout, new RegExp(`^reserved: node ${node} for instance ${INSTANCE}$`, 'm'));
      assert.match(r.stdout, new RegExp(`^vif: node ${node} attached ${VIF1}$`, 'm'));
      assert.match(r.stdout, /^deploying: node \S+ provision_state=\S+ target=\S+ power_state=/m);
      assert.match(r.stdout, new RegExp(`^active: node ${node} instance ${INSTANCE}$`, 'm'));
      const n = await client.getNode(node);
      assert.equal(n.provision_state, 'active');
      assert.equal(n.target_provision_state, null);
      assert.equal(n.instance_uuid, INSTANCE);
      assert.equal(n.last_error, null);
      const expected = { image_source: 'http://127.0.0.1:1/img.qcow2', root_gb: '40', swap_mb: '0', display_name: 'vm-1', vcpus: '4', nova_host_id: 'compute-1', memory_mb: '8192', local_gb: '40' };
      for (const [key, value] of Object.entries(expected)) assert.equal(n.instance_info[key], value, `instance_info.${key}`);
      assert.equal(n.instance_info.capabilities, undefined, 'no capabilities asked for, none sent');
      assert.equal(n.instance_info.configdrive, '******', 'the API masks the configdrive');
      assert.deepEqual(await client.listVifs(node), [VIF1]);
      const iso = storedConfigDrive(target, node);
      assert.ok(iso, 'a configdrive is stored');
      const meta = JSON.parse(isoFile(iso, '/openstack/latest/meta_data.json')) as Record<string, unknown>;
      assert.equal(meta.uuid, INSTANCE);
      assert.equal(meta.name, 'vm-1');
      assert.equal(meta.hostname, 'vm-1.novalocal');
      assert.equal(meta.admin_pass, 'Adm1n');
      assert.deepEqual(meta.meta, { role: 'lab' });
      assert.deepEqual(meta.public_keys, { id: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKey cli@test' });
      assert.equal(isoFile(iso, '/openstack/content/0000'), 'welcome\n');
      const net = JSON.parse(isoFile(iso, '/openstack/latest/network_data.json')) as { links: Array<Record<string, unknown>> };
      assert.equal(net.links[0].vif_id, VIF1);
      assert.equal(net.links[0].ethernet_mac_address, MAC1, 'the port that took the VIF gives the MAC');
    });

    it('list and show: the instance, its node and its power state as Nova maps it', async () => {
      assert.match((await ok('list')).stdout, new RegExp(`^${node}\\tcli-node\\t${INSTANCE}\\tactive\\t`, 'm'));
      const n = await client.getNode(node);
      const expected = n.power_state === 'power on' ? 'RUNNING \\(1\\)' : 'SHUTDOWN \\(4\\)';
      const shown = await ok('show', '--instance', INSTANCE);
      assert.match(shown.stdout, new RegExp(`^instance ${INSTANCE} state=${expected}$`, 'm'));
      assert.match(shown.stdout, new RegExp(`^vifs: ${VIF1}$`, 'm'));
      assert.match(shown.stdout, /^last_error: None$/m);
      const gone = await run('show', '--instance', 'aaaaaaaa-0000-4000-8000-000000000000');
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /^error: InstanceNotFound: Instance aaaaaaaa-0000-4000-8000-000000000000 could not be found\.$/m);
    });

    it('a second boot on the node is refused as Nova refuses it, and the node keeps its instance', async () => {
      const r = await run('boot', '--node', node, '--image', 'http://127.0.0.1:1/other.qcow2');
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`^error: ComputeResourcesUnavailable: Insufficient compute resources: Chosen ironic node ${node} is not available\\.$`, 'm'));
      const n = await client.getNode(node);
      assert.equal(n.instance_uuid, INSTANCE);
      assert.equal(n.provision_state, 'active');
      assert.equal(n.instance_info.image_source, 'http://127.0.0.1:1/img.qcow2');
    });

    it('power-on, power-off (clean shutdown first), power-on, hard power-off', async () => {
      assert.match((await ok('power-on', '--instance', INSTANCE)).stdout, /^powered on: .* power_state=power on$/m);
      await checkBmc('on');
      const off = await ok('power-off', '--instance', INSTANCE, '--shutdown-timeout', '5');
      assert.match(off.stdout, /^powered off \((soft|hard)\): .* power_state=power off$/m);
      assert.equal((await client.getNode(node)).power_state, 'power off');
      await checkBmc('off');
      assert.match((await ok('show', '--instance', INSTANCE)).stdout, /state=SHUTDOWN \(4\)/);
      const on = await ok('power-on', '--instance', INSTANCE);
      assert.match(on.stdout, /^powered on: .* power_state=power on$/m);
      assert.equal((await client.getNode(node)).power_state, 'power on');
      await checkBmc('on');
      const hardOff = await ok('power-off', '--instance', INSTANCE, '--shutdown-timeout', '0');
      assert.match(hardOff.stdout, /^powered off \(hard\): /m);
      await checkBmc('off');
      await ok('power-on', '--instance', INSTANCE);
      await checkBmc('on');
      const n = await client.getNode(node);
      assert.equal(n.target_power_state, null);
      assert.equal(n.last_error, null);
      assert.equal(n.instance_uuid, INSTANCE);
    });

    it('reboot (soft, then --hard) of the running instance ends powered on', async () => {
      const soft = await ok('reboot', '--node', node);
      assert.match(soft.stdout, /^rebooted \((SOFT|HARD)\): node \S+ instance \S+ provision_state=active power_state=power on$/m);
      const hard = await ok('reboot', '--instance', INSTANCE, '--hard');
      assert.match(hard.stdout, /^rebooted \(HARD\): .* power_state=power on$/m);
      const n = await client.getNode(node);
      assert.equal(n.power_state, 'power on');
      assert.equal(n.target_power_state, null);
      assert.equal(n.last_error, null);
      await checkBmc('on');
    });

    it('rebuild: a new image and config drive, back to active', async () => {
      const r = await ok('rebuild', '--instance', INSTANCE, '--image', 'http://127.0.0.1:1/v2.qcow2', '--name', 'vm-1b',
        '--preserve-ephemeral', '--network', `vif=${VIF1},ip=192.0.2.10/24`);
      assert.match(r.stdout, new RegExp(`^rebuild: instance ${INSTANCE} on node ${node} image http://127.0.0.1:1/v2.qcow2$`, 'm'));
      assert.match(r.stdout, new RegExp(`^active: node ${node} instance ${INSTANCE}$`, 'm'));
      const n = await client.getNode(node);
      assert.equal(n.provision_state, 'active');
      assert.equal(n.instance_uuid, INSTANCE);
      assert.equal(n.instance_info.image_source, 'http://127.0.0.1:1/v2.qcow2');
      assert.equal(n.instance_info.display_name, 'vm-1b');
      assert.equal(n.instance_info.preserve_ephemeral, 'True');
      assert.equal(n.last_error, null);
      assert.deepEqual(await client.listVifs(node), [VIF1], 'a rebuild keeps the VIFs');
      const iso = storedConfigDrive(target, node);
      assert.ok(iso);
      assert.equal((JSON.parse(isoFile(iso, '/openstack/latest/meta_data.json')) as { name: string }).name, 'vm-1b');
    });

    if (backend.rescue) {
      it('rescue with a password, then unrescue back to active', async () => {
        const r = await ok('rescue', '--instance', INSTANCE, '--password', 'R3scue');
        assert.match(r.stdout, /^rescued: .* provision_state=rescue /m);
        assert.equal((await client.getNode(node)).provision_state, 'rescue');
        const u = await ok('unrescue', '--instance', INSTANCE);
        assert.match(u.stdout, /^unrescued: .* provision_state=active /m);
        const n = await client.getNode(node);
        assert.equal(n.provision_state, 'active');
        assert.equal(n.instance_uuid, INSTANCE);
        assert.equal(n.last_error, null);
      });
    } else {
      it('rescue on a node without a rescue interface fails as Nova reports it; the node stays active', async () => {
        const r = await run('rescue', '--instance', INSTANCE, '--password', 'R3scue');
        assert.equal(r.code, 1);
        assert.match(r.stderr, /^error: InstanceRescueFailure: Failed to move instance to rescue mode: .+/m);
        const n = await client.getNode(node);
        assert.equal(n.provision_state, 'active');
        assert.equal(n.instance_uuid, INSTANCE);
      });
    }

    it('attach-interface and detach-interface change the node\'s VIFs', async () => {
      const a = await ok('attach-interface', '--instance', INSTANCE, '--vif', VIF2);
      assert.match(a.stdout, new RegExp(`^attached: vif ${VIF2}; node vifs: `, 'm'));
      assert.deepEqual((await client.listVifs(node)).sort(), [VIF1, VIF2].sort());
      const d = await ok('detach-interface', '--node', node, '--vif', VIF2);
      assert.match(d.stdout, new RegExp(`^detached: vif ${VIF2}; node vifs: ${VIF1}$`, 'm'));
      assert.deepEqual(await client.listVifs(node), [VIF1]);
    });

    if (backend.console) {
      it('console: unavailable while disabled, then enabled, then reset and handed out again', async () => {
        const disabled = await run('console', '--instance', INSTANCE);
        assert.equal(disabled.code, 1);
        assert.match(disabled.stderr, /^error: ConsoleNotAvailable: Guest does not have a console available\.$/m);
        assert.match((await ok('console', '--instance', INSTANCE, '--enable')).stdout, new RegExp(`^console: node ${node} type=`, 'm'));
        assert.equal((await client.getConsole(node)).console_enabled, true);
        assert.match((await ok('console', '--instance', INSTANCE)).stdout, new RegExp(`^console: node ${node} type=`, 'm'));
        assert.equal((await client.getConsole(node)).console_enabled, true);
        await client.setConsoleMode(node, false);
        await waitNode(client, node, (n) => n.console_enabled === false, 'console disabled');
      });
    } else {
      it('console: a node without a console interface has none, as Nova reports it', async () => {
        const r = await run('console', '--instance', INSTANCE, '--enable');
        assert.equal(r.code, 1);
        assert.match(r.stderr, /^error: ConsoleNotAvailable: Guest does not have a console available\./m);
      });
    }

    it('delete: available again, instance, instance_info and VIFs cleared', async () => {
      const r = await ok('delete', '--node', 'cli-node');
      assert.match(r.stdout, new RegExp(`^deleting: node ${node} unprovision requested from active$`, 'm'));
      assert.match(r.stdout, new RegExp(`^deleted: node ${node} provision_state=available$`, 'm'));
      const n = await client.getNode(node);
      assert.equal(n.provision_state, 'available');
      assert.equal(n.instance_uuid, null);
      assert.deepEqual(n.instance_info, {});
      assert.equal(n.last_error, null);
      assert.deepEqual(await client.listVifs(node), []);
      assert.match((await ok('resources')).stdout, new RegExp(`^${node}\\tbaremetal\\tCUSTOM_BAREMETAL=1\\(reserved 0\\)\\tyes\\t`, 'm'));
    });
  });
}
