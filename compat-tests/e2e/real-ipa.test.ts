/**
 * A real (virtual) machine end to end: a QEMU VM behind ipmi_sim on a lab network of its own,
 * ironic-ts in lab mode (dnsmasq, TFTP, HTTP, API and conductor in the namespace) and the real
 * ironic-python-agent 10.2 in the deploy ramdisk built by scripts/ironic-ramdisk.sh, driven with
 * Debian's `baremetal` CLI. TCG boots are slow on 2 cores: the waits are generous, never targets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha512Crypt } from '../../src/common/sha-crypt';
import { bmOk as labBmOk, labConf, startLabIronic, waitState as labWaitState, type LabIronic, type LabRamdisk } from '../support/lab/ironic';
import { buildMarkerImage, INJECTED_FILE } from '../support/lab/marker-image';
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
let ramdisk: LabRamdisk;
let image: { path: string; sha256: string };

// Test-only settings on top of the README's lab example: fast track (the agent that inspected the
// machine cleans it and deploys it without booting again, as Ironic 29.0.5 does with
// [deploy]fast_track), IPA's full-disk shred is far too slow
// under TCG (metadata erasure still runs), heartbeats come sooner than the 300 s default, IPMI
// commands are spaced by 1 s instead of 5 and retried for 15 s instead of 60 (a dead BMC is
// found sooner), the power sync runs every 20 s, and inspection also fills memory_mb and local_gb
// (Ironic 2025.1's default hooks set only cpu_arch).
const TEST_CONF = `
[deploy]
erase_devices_priority = 0
fast_track = true

[api]
ramdisk_heartbeat_timeout = 60

[ipmi]
min_command_interval = 1
command_retry_timeout = 15

[inspector]
hooks = $default_hooks,memory,root-device

[conductor]
sync_power_state_interval = 20

[agent]
deploy_logs_local_path = \${DIR}/deploy-logs
`;

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);
/** How many times the deploy ramdisk started on the VM so far (its init prints this line). */
const ramdiskBoots = async (): Promise<number> => ((await vm!.console()).match(/ironic-ts ramdisk: starting ironic-python-agent/g) ?? []).length;

/** Waits for a heartbeat of the running agent later than `since` (an ISO time); its driver_internal_info. */
async function heartbeatAfter(since: string, timeoutMs: number): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    const info = node.driver_internal_info as Row;
    if (info.agent_url && typeof info.agent_last_heartbeat === 'string' && `${info.agent_last_heartbeat}Z` > since) return info;
    if (Date.now() > deadline) throw new Error(`no heartbeat after ${since}: ${JSON.stringify(info)}`);
    await new Promise((r) => setTimeout(r, 3000));
  }
}
const waitState = (want: string, timeoutMs: number): Promise<Row> => labWaitState(ironic!, uuid, want, timeoutMs, () => vm!.console());

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-e2e-'));
  await fsp.chmod(dir, 0o755); // dnsmasq reads its host and option files as nobody
  ramdisk = await ensureRamdisk();
  net = await createLabNetwork({ name: 'its-e2e' });
  vm = await startLabVm({ net, dir });
  ironic = await startLabIronic({ net, dir, conf: labConf({ net, dir, ramdisk }) + TEST_CONF.replace('${DIR}', dir) });
});

after(async () => {
  await ironic?.stop();
  await vm?.stop();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

test('enroll an ipmi node with ipxe boot and the direct deploy, and manage it (power read over IPMI)', { skip: skip ?? false }, async () => {
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'lab-vm',
    '--boot-interface', 'ipxe', '--deploy-interface', 'direct', '--rescue-interface', 'agent',
    '--property', 'capabilities=boot_mode:bios',
    ...Object.entries(vm!.driverInfo()).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]), '-f', 'json'])) as Row;
  uuid = created.uuid;
  await bmOk(['port', 'create', vm!.mac, '--node', uuid]);
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
  assert.equal(node.provision_state, 'manageable');
  assert.equal(node.power_state, 'power off');
});

test('inspect in band: the agent posts its inventory, stored with properties and the port', { skip: skip ?? false }, async () => {
  await bmOk(['node', 'inspect', uuid]);
  const node = await waitState('manageable', 1_800_000);
  assert.equal(node.last_error, null);
  const inventory = await ironic!.get<Row>(`/v1/nodes/${uuid}/inventory`);
  const macs = (inventory.inventory.interfaces as Row[]).map((i) => String(i.mac_address).toLowerCase());
  assert.ok(macs.includes(vm!.mac), `inventory interfaces ${macs.join(', ')}`);
  assert.equal(inventory.inventory.disks.some((d: Row) => d.name === '/dev/vda'), true);
  assert.equal(node.properties.cpu_arch, 'x86_64');
  assert.equal(Number(node.properties.memory_mb) > 1500, true, JSON.stringify(node.properties));
  assert.equal(Number(node.properties.local_gb) >= 4, true, JSON.stringify(node.properties));
  const ports = await ironic!.get<{ ports: Row[] }>(`/v1/ports?node=${uuid}`);
  assert.deepEqual(ports.ports.map((p) => p.address), [vm!.mac]);
  // Fast track: the machine stays on and its agent goes on heartbeating to the manageable node.
  assert.equal(node.power_state, 'power on');
  await heartbeatAfter(String(node.inspection_finished_at).replace(/\+00:00$/, 'Z'), 600_000);
});

test('provide on fast track: the agent that inspected the VM cleans it without a reboot, and stays up', { skip: skip ?? false }, async () => {
  const started = Date.now();
  const boots = await ramdiskBoots();
  const chassis = await vm!.chassisLog();
  await bmOk(['node', 'provide', uuid]);
  const node = await waitState('available', 2_400_000);
  assert.equal(node.power_state, 'power on');
  assert.equal(node.last_error, null);
  assert.equal(await ramdiskBoots(), boots, 'no new boot of the ramdisk');
  assert.doesNotMatch((await vm!.chassisLog()).slice(chassis.length), /set (power|reset)/, 'no power action on the VM');
  // IPA's own log on the serial console: it looked up its node and heartbeated to ironic-ts.
  const console = await vm!.console();
  assert.match(console, new RegExp(`Picked root device /dev/vda for node ${uuid}`));
  assert.match(console, /heartbeat successful/);
  assert.match(await fsp.readFile(ironic!.logFile, 'utf8'), /Agent on node \S+ returned clean command success/);
  process.stdout.write(`# provide with IPA cleaning took ${Math.round((Date.now() - started) / 1000)} s\n`);
});

test('deploy on fast track a whole-disk image with a configdrive and extra_data: the running agent writes it, the VM boots its disk and shows them', { skip: skip ?? false }, async () => {
  image = await buildMarkerImage(dir, ramdisk);
  const boots = await ramdiskBoots();
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${image.path}`,
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${image.sha256}`]);
  const token = `e2e-injected-${Math.random().toString(36).slice(2, 10)}`;
  const password = 'e2e-Secret-1';
  const from = (await vm!.console()).length;
  const status = await ironic!.put(`/v1/nodes/${uuid}/states/provision`, {
    target: 'active',
    configdrive: { meta_data: { hostname: 'e2e-vm' } },
    extra_data: { admin_pass: password, files: [{ path: INJECTED_FILE, contents: Buffer.from(`${token}\n`).toString('base64') }] },
  });
  assert.equal(status, 202);
  const node = await waitState('active', 2_400_000);
  assert.equal(node.last_error, null);
  const text = await vm!.waitConsole(/E2E-MARKER .*/, 900_000, from);
  const marker = /E2E-MARKER uuid=(\S*) file=(\S*) hash=(\S*)/.exec(text);
  assert.ok(marker, text.slice(-2000));
  assert.equal(marker[1], uuid, 'the config drive\'s meta_data.json names the node');
  assert.equal(marker[2], token, 'the injected file is on the root file system');
  const salt = marker[3]!.split('$')[2]!;
  assert.equal(marker[3], sha512Crypt(password, salt), 'root\'s password hash is the admin password\'s');
  assert.equal(await ramdiskBoots(), boots, 'the agent that cleaned the VM deployed it: no new boot of the ramdisk');
  assert.match(await fsp.readFile(ironic!.logFile, 'utf8'), new RegExp(`Performing a fast track deployment for ${uuid}`));
});

test('rescue through IPA with a rescue password, then unrescue: the VM boots its disk again', { skip: skip ?? false }, async () => {
  await bmOk(['node', 'rescue', uuid, '--rescue-password', 'e2e-Rescue-1']);
  const rescued = await waitState('rescue', 1_800_000);
  assert.equal(rescued.last_error, null);
  assert.match(await vm!.console(), /finalize_rescue/);
  const from = (await vm!.console()).length;
  await bmOk(['node', 'unrescue', uuid]);
  const node = await waitState('active', 1_800_000);
  assert.equal(node.last_error, null);
  const text = await vm!.waitConsole(/E2E-MARKER .*/, 900_000, from);
  assert.match(text, new RegExp(`E2E-MARKER uuid=${uuid} `));
});

test('undeploy boots the ramdisk and cleans through IPA, and the node is available again', { skip: skip ?? false }, async () => {
  const boots = await ramdiskBoots();
  await bmOk(['node', 'undeploy', uuid]);
  const node = await waitState('available', 2_400_000);
  assert.equal(node.last_error, null);
  assert.equal(await ramdiskBoots(), boots + 1, 'the instance was running: the agent is booted');
  assert.equal(node.power_state, 'power on', 'fast track keeps the agent running');
});

test('an http image: the running agent refuses a wrong checksum and its logs are kept; a URL answering 404 fails the HEAD check; cleaned back to available', { skip: skip ?? false }, async () => {
  // Served by the conductor's own HTTP server; image_download_source=http: IPA downloads it itself.
  const httpRoot = path.join(dir, 'state', 'lab', 'httpboot');
  await fsp.copyFile(image.path, path.join(httpRoot, 'e2e-image.raw'));
  const url = `http://${net!.address}:8080/e2e-image.raw`;
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=${url}`, '--instance-info', 'image_download_source=http',
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${'0'.repeat(64)}`]);
  const boots = await ramdiskBoots();
  await bmOk(['node', 'deploy', uuid]);
  let failed = await waitState('deploy failed', 1_800_000);
  assert.match(String(failed.last_error), /^Deploy step deploy\.write_image failed on node .*checksum/is);
  assert.equal(await ramdiskBoots(), boots, 'fast track: the agent left by the cleaning got the image');
  // [agent]deploy_logs_collect=on_failure: IPA's log.collect_system_logs, kept as Ironic names it.
  const logsDir = path.join(dir, 'deploy-logs');
  const logs = (await fsp.readdir(logsDir)).filter((f) => f.startsWith(`${uuid}_lab-vm_`) && f.endsWith('.tar.gz'));
  assert.equal(logs.length, 1, JSON.stringify(logs));
  const listing = await new Promise<string>((resolve, reject) => execFile('tar', ['-tzf', path.join(logsDir, logs[0]!)],
    (err, stdout) => (err ? reject(err) : resolve(stdout))));
  assert.match(listing, /journal|dmesg/, listing);

  // The HEAD check refuses a URL that does not answer 200 before the agent is involved.
  const missing = `http://${net!.address}:8080/no-such-image.raw`;
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=${missing}`]);
  await bmOk(['node', 'deploy', uuid]);
  failed = await waitState('deploy failed', 600_000);
  assert.equal(failed.last_error, `Failed to prepare to deploy: Validation of image href ${missing} failed, reason: ` +
    'Got HTTP code 404 instead of 200 in response to HEAD request.');

  await bmOk(['node', 'undeploy', uuid]);
  const node = await waitState('available', 2_400_000);
  assert.equal(node.last_error, null);
  assert.ok(await ramdiskBoots() > boots, 'the failed node was cleaned by a new boot of the ramdisk');
});

test('the BMC stops answering: the power sync puts the node in maintenance', { skip: skip ?? false }, async () => {
  await vm!.stopBmc();
  const deadline = Date.now() + 900_000;
  let node: Row = {};
  while (Date.now() < deadline) {
    node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    if (node.maintenance) break;
    await new Promise((r) => setTimeout(r, 5000));
  }
  assert.equal(node.maintenance, true, JSON.stringify(node).slice(0, 500));
  assert.equal(node.fault, 'power failure');
  assert.match(String(node.maintenance_reason), /power/i);
  await vm!.startBmc();
});
