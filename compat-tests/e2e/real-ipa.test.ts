/**
 * A real (virtual) machine end to end: a QEMU VM behind ipmi_sim on a lab network of its own,
 * ironic-ts in lab mode (dnsmasq, TFTP, HTTP, API and conductor in the namespace) and the real
 * ironic-python-agent 10.2 in the deploy ramdisk built by scripts/ironic-ramdisk.sh, driven with
 * Debian's `baremetal` CLI. TCG boots are slow on 2 cores: the waits are generous, never targets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { labConf, startLabIronic, type LabIronic } from '../support/lab/ironic';
import { createLabNetwork, labUnavailable, type LabNetwork } from '../support/lab/network';
import { ensureRamdisk } from '../support/lab/ramdisk';
import { startLabVm, type LabVm } from '../support/lab/vm-bmc';

type Row = Record<string, any>;

const skip = labUnavailable();
let dir: string;
let net: LabNetwork | undefined;
let vm: LabVm | undefined;
let ironic: LabIronic | undefined;
let uuid: string;

// Test-only settings on top of the README's lab example: IPA's full-disk shred is far too slow
// under TCG (metadata erasure still runs), and heartbeats come sooner than the 300 s default.
const TEST_CONF = `
[deploy]
erase_devices_priority = 0

[api]
ramdisk_heartbeat_timeout = 60

[ipmi]
min_command_interval = 1
`;

async function bmOk(args: string[], timeoutMs?: number): Promise<string> {
  const r = await ironic!.baremetal(args, timeoutMs);
  assert.equal(r.code, 0, `baremetal ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function waitState(want: string, timeoutMs: number): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  let node: Row = {};
  while (Date.now() < deadline) {
    node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    if (node.provision_state === want && node.target_provision_state === null && node.reservation === null) return node;
    if (/failed$/.test(String(node.provision_state)) && !want.endsWith('failed')) break;
    await new Promise((r) => setTimeout(r, 5000));
  }
  throw new Error(`node never reached ${want}: ${node.provision_state} (last_error ${node.last_error})\n` +
    `console end:\n${(await vm!.console()).slice(-4000)}`);
}

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-e2e-'));
  await fsp.chmod(dir, 0o755); // dnsmasq reads its host and option files as nobody
  const ramdisk = await ensureRamdisk();
  net = await createLabNetwork({ name: 'its-e2e' });
  vm = await startLabVm({ net, dir });
  ironic = await startLabIronic({ net, dir, conf: labConf({ net, dir, ramdisk }) + TEST_CONF });
});

after(async () => {
  await ironic?.stop();
  await vm?.stop();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

test('enroll an ipmi node with ipxe boot and the direct deploy, and manage it (power read over IPMI)', { skip: skip ?? false }, async () => {
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'lab-vm',
    '--boot-interface', 'ipxe', '--deploy-interface', 'direct',
    ...Object.entries(vm!.driverInfo()).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]), '-f', 'json'])) as Row;
  uuid = created.uuid;
  await bmOk(['port', 'create', vm!.mac, '--node', uuid]);
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
  assert.equal(node.provision_state, 'manageable');
  assert.equal(node.power_state, 'power off');
});

test('provide: the VM network-boots the ramdisk, IPA looks up, heartbeats and cleans, and the node is available', { skip: skip ?? false }, async () => {
  const started = Date.now();
  await bmOk(['node', 'provide', uuid]);
  await vm!.waitConsole(/ironic-ts ramdisk: starting ironic-python-agent/, 1_200_000);
  const node = await waitState('available', 2_400_000);
  assert.equal(node.power_state, 'power off');
  assert.equal(node.last_error, null);
  // IPA's own log on the serial console: it looked up its node and heartbeated to ironic-ts.
  const console = await vm!.console();
  assert.match(console, new RegExp(`Picked root device /dev/vda for node ${uuid}`));
  assert.match(console, /heartbeat successful/);
  assert.match(await fsp.readFile(ironic!.logFile, 'utf8'), /Agent on node \S+ returned clean command success/);
  process.stdout.write(`# provide with IPA cleaning took ${Math.round((Date.now() - started) / 1000)} s\n`);
});
