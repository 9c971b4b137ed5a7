/**
 * Nova 31's ironic driver (Debian 13's python3-nova, unmodified; nova_neutron.py) with a real
 * Neutron: the instance's VIF is a port made on the tenant network, and the network_info the
 * driver gets carries that port. A node with the `neutron` network interface, then one with `flat` (neutron-lab.ts:
 * Keystone, Neutron 26, ironic-ts, the IPA emulator). At each stage Neutron's API shows what
 * Ironic leaves: while the spawn waits in `wait call-back`, a provisioning port bound to the node
 * (flat: the tenant port itself bound); once spawned, no provisioning port and the tenant port bound (host the node's uuid, vnic baremetal,
 * the node port's local link information); after destroy, the tenant port unbound and the VIF
 * detached, the cleaning port gone once the node is available.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { prepareNova, pythonCommand, SCRIPT_DIR, scriptEnv } from '../nova/run-lifecycle';
import { assertBound, LLC, startNeutronLab, type NeutronLab } from './neutron-lab';

const SCRIPT = path.join(SCRIPT_DIR, 'nova_neutron.py');

let lab: NeutronLab;

before(async () => {
  await prepareNova('nova-31');
  lab = await startNeutronLab('neutron-nova');
}, { timeout: 20 * 60_000 });

after(async () => {
  await lab?.stop();
});

type Phase = Record<string, any>;

/** nova_neutron.py running: its phases as they are printed, and its stdin to let it go on. */
interface NovaRun {
  child: ChildProcess;
  next(): Promise<Phase>;
  proceed(): void;
  exited: Promise<{ code: number | null; stderr: string }>;
}

function startNova(work: string, env: Record<string, string>): NovaRun {
  const [file, args] = pythonCommand('nova-31', [work, SCRIPT_DIR], SCRIPT);
  const novaDir = path.join(work, 'nova');
  fs.mkdirSync(novaDir);
  const child = spawn(file, args, { env: scriptEnv(work, { NOVA_WORKDIR: novaDir, ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-8000); });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child, exited,
    async next() {
      for (;;) {
        const line = await Promise.race([lines.next(), exited.then((e) => ({ done: true as const, value: e }))]);
        if (line.done) return assert.fail(`nova_neutron.py ended early (${(await exited).code}):\n${(await exited).stderr}`);
        if (String(line.value).startsWith('{')) return JSON.parse(String(line.value)) as Phase;
      }
    },
    proceed: () => child.stdin!.write('go\n'),
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, run: NovaRun, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void run.exited.then(() => { ended = true; });
  while (Date.now() < deadline && !ended) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  return assert.fail(`${what}: not reached${ended ? `; nova_neutron.py ended:\n${(await run.exited).stderr}` : ''}`);
}

/** What each interface leaves on the tenant port while provisioning and once spawned. */
const EXPECT = {
  /** A provisioning port of its own is bound; the tenant port waits unbound, its MAC reset (reset_mac). */
  async neutron(uuid: string, mac: string, llc: Record<string, string>, vif: string): Promise<void> {
    const provisioning = await lab.portsOn(lab.provisioningNet, mac);
    assert.equal(provisioning.length, 1, 'one provisioning port while Nova\'s spawn waits');
    assertBound(provisioning[0], uuid, llc, 'provisioning port');
    const during = await lab.neutron.showPort(vif);
    assert.equal(during?.['binding:host_id'], '', 'tenant port unbound while provisioning');
    assert.notEqual(during?.mac_address, mac, 'tenant port MAC reset while provisioning');
  },
  /** No provisioning port: the tenant port itself is bound to the node for the ramdisk. */
  async flat(uuid: string, mac: string, _llc: Record<string, string>, vif: string): Promise<void> {
    assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'flat makes no provisioning port');
    const during = await lab.neutron.showPort(vif);
    assert.equal(during?.['binding:host_id'], uuid, 'tenant port bound to the node while provisioning');
    assert.equal(during?.['binding:vnic_type'], 'baremetal');
    assert.equal(during?.mac_address, mac);
  },
};

/** The spawned tenant port: neutron binds it with the switch port, flat with the node alone. */
function assertSpawnedPort(iface: Iface, bound: Phase | null, uuid: string, llc: Record<string, string>): void {
  if (iface === 'neutron') assertBound(bound, uuid, llc, 'tenant port once spawned');
  assert.equal(bound?.['binding:host_id'], uuid, 'tenant port bound to the node once spawned');
  assert.equal(bound?.['binding:vnic_type'], 'baremetal');
}

type Iface = keyof typeof EXPECT;

for (const [iface, n] of [['neutron', 21], ['flat', 22]] as const) {
  test(`Nova 31 spawns and destroys with a real Neutron port as the VIF, ${iface} network interface`, { timeout: 15 * 60_000 }, () => novaLifecycle(iface, n));
}

async function novaLifecycle(iface: Iface, n: number): Promise<void> {
  const mac = `52:54:00:6e:00:${n}`;
  const llc = LLC(n);
  const disk = path.join(lab.dir, `nova-${iface}.disk`);
  const uuid = await lab.enroll(`nn-nova-${iface}`, iface, mac, llc);
  await lab.provide(uuid);
  // Nova schedules nothing to a node whose power state is unknown.
  await lab.bm(['node', 'power', 'off', uuid]);
  const vif = await lab.neutron.createPort(lab.tenantNet, { name: `nova-vif-${iface}` });
  const subnet = (await lab.neutron.api<{ subnet: Record<string, unknown> }>('GET', `/subnets/${(vif.fixed_ips as { subnet_id: string }[])[0].subnet_id}`)).subnet;
  assert.equal(vif['binding:vnic_type'], 'normal', 'a port as a user makes it');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-neutron-'));
  const run = startNova(work, {
    IRONIC_URL: lab.target.url, IRONIC_DB: path.join(lab.dir, 'ironic.sqlite'), NODE_ID: uuid,
    IMAGE_REF: `file://${lab.image}`, VIF: JSON.stringify(vif), SUBNET: JSON.stringify(subnet),
  });
  try {
    // The spawn waits for the agent: the node sits in wait call-back on its provisioning network.
    await waitFor('wait call-back', async () => {
      const shown = await fetch(`${lab.target.url}/v1/nodes/${uuid}`, { headers: { 'X-OpenStack-Ironic-API-Version': '1.96' } }).then((r) => r.json()) as Phase;
      return shown.provision_state === 'wait call-back' ? shown : null;
    }, run);
    await EXPECT[iface](uuid, mac, llc, String(vif.id));

    await lab.withAgent(mac, disk, async () => {
      const spawned = await run.next();
      assert.equal(spawned.phase, 'spawned');
      assert.equal(spawned.node.provision_state, 'active');
      assert.equal(spawned.node.instance_uuid, spawned.instance);
      assert.deepEqual(spawned.vifs, [vif.id], 'Nova attached the Neutron port as the VIF');
      assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'provisioning port gone once active');
      const bound = await lab.neutron.showPort(String(vif.id));
      assertSpawnedPort(iface, bound, uuid, llc);
      assert.equal(bound?.mac_address, mac, 'the tenant port has the node port\'s MAC');

      run.proceed();
      const destroyed = await run.next();
      assert.equal(destroyed.phase, 'destroyed');
      // Nova 31 leaves that to Ironic's tear down (remove_vifs_from_node) for a node it unprovisions.
      assert.deepEqual(destroyed.vifs, [], 'the VIF detached by destroy');
      assert.equal(destroyed.node.instance_uuid, null);
      const { code, stderr } = await run.exited;
      assert.equal(code, 0, stderr);
      const after = await lab.neutron.showPort(String(vif.id));
      assert.equal(after?.['binding:host_id'], '', 'tenant port unbound after destroy');
      assert.deepEqual((after?.['binding:profile'] ?? {}), {}, 'no binding profile left');
      await lab.waitState(uuid, 'available', 120_000);
    });
    assert.deepEqual(await lab.portsOn(lab.cleaningNet, mac), [], 'cleaning port gone once available');
    assert.deepEqual(await lab.neutron.listPorts({ 'binding:host_id': uuid }), [], 'no port bound to the node');
  } finally {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  }
}
