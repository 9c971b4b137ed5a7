/**
 * The faults of a real deploy that only a deploy callback timeout ends (a lab of its own, see
 * real-ipa.test.ts): the machine never boots the ramdisk (its port has the wrong MAC), and QEMU is
 * killed while the agent writes the image. Both end in `deploy failed` with Ironic's timeout
 * message after [conductor]deploy_callback_timeout (shortened here), and the node is usable after.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bmOk as labBmOk, labConf, startLabIronic, waitState as labWaitState, type LabIronic, type LabRamdisk } from '../support/lab/ironic';
import { buildMarkerImage } from '../support/lab/marker-image';
import { createLabNetwork, labUnavailable, type LabNetwork } from '../support/lab/network';
import { ensureRamdisk } from '../support/lab/ramdisk';
import { startStallingImageServer } from '../support/lab/stalling-image-server';
import { startLabVm, type LabVm } from '../support/lab/vm-bmc';

type Row = Record<string, any>;

const skip = labUnavailable();
const WRONG_MAC = '52:54:00:00:0e:99';
let dir: string;
let net: LabNetwork | undefined;
let vm: LabVm | undefined;
let ironic: LabIronic | undefined;
let uuid: string;
let portUuid: string;
let image: { path: string; sha256: string };
let ramdisk: LabRamdisk;

/** instance_info's image (undeploy clears it). */
async function setImage(): Promise<void> {
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${image.path}`, '--instance-info', 'image_os_hash_algo=sha256',
    '--instance-info', `image_os_hash_value=${image.sha256}`]);
}

// No cleaning (these tests are about deploys), the callback timeout checked often. The timeout
// is short where nothing has to boot first, and long enough for the ramdisk to boot under load
// while a deploy is on its way.
const testConf = (callbackTimeout: number): string => `
[conductor]
automated_clean = false
deploy_callback_timeout = ${callbackTimeout}
check_provision_state_interval = 10

[ipmi]
min_command_interval = 1
`;
const SHORT_TIMEOUT = 60;
const LONG_TIMEOUT = 300;

/** ironic-ts again with another callback timeout (same database, same lab). */
async function restartIronic(callbackTimeout: number): Promise<void> {
  await ironic?.stop();
  ironic = await startLabIronic({ net: net!, dir, conf: labConf({ net: net!, dir, ramdisk }) + testConf(callbackTimeout) });
}

/** Until the conductor has handed write_image to the agent and waits for its heartbeats. */
async function waitWriting(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    if (node.provision_state === 'wait call-back' && node.deploy_step?.step === 'write_image') return;
    if (Date.now() > deadline) throw new Error(`the deploy never waited in write_image: ${JSON.stringify(node.deploy_step)} ${node.provision_state}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);
const waitState = (want: string, timeoutMs: number): Promise<Row> => labWaitState(ironic!, uuid, want, timeoutMs);

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-e2e-faults-'));
  await fsp.chmod(dir, 0o755);
  ramdisk = await ensureRamdisk();
  net = await createLabNetwork({ name: 'its-e2f' });
  vm = await startLabVm({ net, dir, mac: '52:54:00:6c:61:63' });
  await restartIronic(SHORT_TIMEOUT);
  image = await buildMarkerImage(dir, ramdisk);
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'lab-vm-faults',
    '--boot-interface', 'ipxe', '--deploy-interface', 'direct', '--property', 'capabilities=boot_mode:bios',
    ...Object.entries(vm.driverInfo()).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]), '-f', 'json'])) as Row;
  uuid = created.uuid;
  portUuid = (JSON.parse(await bmOk(['port', 'create', WRONG_MAC, '--node', uuid, '-f', 'json'])) as Row).uuid;
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  await bmOk(['node', 'provide', uuid, '--wait', '120']);
});

after(async () => {
  await ironic?.stop();
  await vm?.stop();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

test('the machine never boots the ramdisk (wrong MAC): the deploy times out to deploy failed', { skip: skip ?? false }, async () => {
  await setImage();
  await bmOk(['node', 'deploy', uuid]);
  const node = await waitState('deploy failed', 900_000);
  assert.match(String(node.last_error), /Timeout reached while waiting for callback for node/);
  assert.doesNotMatch(await vm!.console(), /starting ironic-python-agent/);
  // Fix the port, and the node can be deployed again after its clean-up.
  await bmOk(['port', 'set', portUuid, '--address', vm!.mac]);
  await bmOk(['node', 'undeploy', uuid]);
  const available = await waitState('available', 600_000);
  assert.equal(available.last_error, null);
});

test('QEMU killed while IPA writes the image: the deploy times out to deploy failed', { skip: skip ?? false }, async () => {
  // The image comes from a server that never finishes sending it, so the agent is still inside
  // write_image when QEMU dies, whatever the machine's speed.
  const server = await startStallingImageServer(net!, image.path, 8089);
  try {
    await bmOk(['node', 'set', uuid, '--instance-info', `image_source=${server.url}`, '--instance-info', 'image_os_hash_algo=sha256',
      '--instance-info', `image_os_hash_value=${image.sha256}`]);
    await restartIronic(LONG_TIMEOUT);
    await bmOk(['node', 'deploy', uuid]);
    await server.downloadStarted;
    await waitWriting(600_000);
    await vm!.killQemu();
  } finally {
    server.stop();
  }
  // Nothing will call back now: a conductor started with the short timeout fails the deploy
  // (the node waits in `wait call-back` across the restart, as in Ironic).
  await restartIronic(SHORT_TIMEOUT);
  const node = await waitState('deploy failed', 900_000);
  assert.match(String(node.last_error), /Timeout reached while waiting for callback for node/);
  await bmOk(['node', 'undeploy', uuid]);
  const available = await waitState('available', 600_000);
  assert.equal(available.last_error, null);
});
