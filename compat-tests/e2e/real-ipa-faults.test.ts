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
import { bmOk as labBmOk, labConf, startLabIronic, waitState as labWaitState, type LabIronic } from '../support/lab/ironic';
import { buildMarkerImage } from '../support/lab/marker-image';
import { createLabNetwork, labUnavailable, type LabNetwork } from '../support/lab/network';
import { ensureRamdisk } from '../support/lab/ramdisk';
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

/** instance_info's image (undeploy clears it). */
async function setImage(): Promise<void> {
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${image.path}`, '--instance-info', 'image_os_hash_algo=sha256',
    '--instance-info', `image_os_hash_value=${image.sha256}`]);
}

// No cleaning (these tests are about deploys), a short callback timeout checked often.
const TEST_CONF = `
[conductor]
automated_clean = false
deploy_callback_timeout = 240
check_provision_state_interval = 15

[ipmi]
min_command_interval = 1
`;

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);
const waitState = (want: string, timeoutMs: number): Promise<Row> => labWaitState(ironic!, uuid, want, timeoutMs);

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-e2e-faults-'));
  await fsp.chmod(dir, 0o755);
  const ramdisk = await ensureRamdisk();
  net = await createLabNetwork({ name: 'its-e2f' });
  vm = await startLabVm({ net, dir, mac: '52:54:00:6c:61:63' });
  ironic = await startLabIronic({ net, dir, conf: labConf({ net, dir, ramdisk }) + TEST_CONF });
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
  const from = (await vm!.console()).length;
  await setImage();
  await bmOk(['node', 'deploy', uuid]);
  await vm!.waitConsole(/write_image|Downloading image|execute_deploy_step/, 900_000, from);
  await vm!.killQemu();
  const node = await waitState('deploy failed', 900_000);
  assert.match(String(node.last_error), /Timeout reached while waiting for callback for node/);
  await bmOk(['node', 'undeploy', uuid]);
  const available = await waitState('available', 600_000);
  assert.equal(available.last_error, null);
});
