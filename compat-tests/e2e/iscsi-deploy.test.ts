/**
 * The design's iSCSI deploy on a real (virtual) machine: a QEMU VM behind ipmi_sim on a lab network
 * of its own, ironic-ts in lab mode with the `pxe` boot interface and the `iscsi` deploy, and the
 * iscsi ramdisk (scripts/iscsi-ramdisk.sh: Debian kernel, busybox, tgt). The VM PXE-boots the
 * `deploy` entry, exports its disk, calls back; ironic-ts writes the partitions over iSCSI, switches
 * the config to `boot` and says done; the VM reboots into the instance kernel with root=UUID=, whose
 * initrd prints the marker proving the configdrive, the injected file, the password hash and swap.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha512Crypt } from '../../src/common/sha-crypt';
import { bmOk as labBmOk, labConf, startLabIronic, waitState as labWaitState, type LabIronic, type LabRamdisk } from '../support/lab/ironic';
import { buildIscsiInstance, placePxelinux } from '../support/lab/iscsi-instance';
import { INJECTED_FILE } from '../support/lab/marker-image';
import { createLabNetwork, labUnavailable, type LabNetwork } from '../support/lab/network';
import { ensureIscsiRamdisk } from '../support/lab/ramdisk';
import { startLabVm, type LabVm } from '../support/lab/vm-bmc';

type Row = Record<string, any>;

const skip = labUnavailable();
let dir: string;
let net: LabNetwork | undefined;
let vm: LabVm | undefined;
let ironic: LabIronic | undefined;
let ramdisk: LabRamdisk;
let uuid: string;

// On top of the README's lab example: the iscsi deploy enabled, BIOS boot (pxelinux), IPMI commands
// spaced by 1 s.
const ISCSI_CONF = `
[DEFAULT]
enabled_deploy_interfaces = direct,ramdisk,iscsi

[deploy]
default_boot_mode = bios

[ipmi]
min_command_interval = 1
`;

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);
const waitState = (want: string, timeoutMs: number): Promise<Row> => labWaitState(ironic!, uuid, want, timeoutMs, () => vm!.console());

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-iscsi-e2e-'));
  await fsp.chmod(dir, 0o755); // dnsmasq reads its host and option files as nobody
  ramdisk = await ensureIscsiRamdisk();
  net = await createLabNetwork({ name: 'its-iscsi' });
  vm = await startLabVm({ net, dir, memoryMiB: 512, diskGiB: 2 });
  await placePxelinux(path.join(dir, 'state', 'lab', 'tftpboot'));
  ironic = await startLabIronic({ net, dir, conf: labConf({ net, dir, ramdisk }) + ISCSI_CONF });
});

after(async () => {
  await ironic?.stop();
  await vm?.stop();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

test('enroll an ipmi node with pxe boot and the iscsi deploy, manage and provide it', { skip: skip ?? false }, async () => {
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'iscsi-vm',
    '--boot-interface', 'pxe', '--deploy-interface', 'iscsi', '--property', 'capabilities=boot_mode:bios',
    ...Object.entries(vm!.driverInfo()).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]), '-f', 'json'])) as Row;
  uuid = created.uuid;
  await bmOk(['port', 'create', vm!.mac, '--node', uuid]);
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  await bmOk(['node', 'provide', uuid, '--wait', '300']);
  const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
  assert.equal(node.provision_state, 'available');
  assert.equal(node.power_state, 'power off');
});

test('deploy over iSCSI: the ramdisk exports the disk, the partitions are written, the VM boots the instance', { skip: skip ?? false }, async () => {
  const instance = await buildIscsiInstance(dir, ramdisk);
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${instance.image}`,
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${instance.sha256}`,
    '--instance-info', `kernel=${instance.kernel}`, '--instance-info', `ramdisk=${instance.initrd}`,
    '--instance-info', 'root_gb=1', '--instance-info', 'swap_mb=64']);
  const token = `e2e-injected-${Math.random().toString(36).slice(2, 10)}`;
  const password = 'iscsi-Secret-1';
  const from = (await vm!.console()).length;
  const started = Date.now();
  const status = await ironic!.put(`/v1/nodes/${uuid}/states/provision`, {
    target: 'active',
    configdrive: { meta_data: { hostname: 'iscsi-vm' } },
    extra_data: { admin_pass: password, files: [{ path: INJECTED_FILE, contents: Buffer.from(`${token}\n`).toString('base64') }] },
  });
  assert.equal(status, 202);
  await vm!.waitConsole(/ironic-ts iscsi ramdisk: callback accepted/, 900_000, from);
  const node = await waitState('active', 900_000);
  assert.equal(node.last_error, null);
  const text = await vm!.waitConsole(/ISCSI-MARKER .*/, 900_000, from);
  const marker = /ISCSI-MARKER root=(\S*) rootdev=(\S*) uuid=(\S*) file=(\S*) hash=(\S*) swap=(\S*)/.exec(text);
  assert.ok(marker, text.slice(-3000));
  assert.equal(marker[1], `UUID=${String(node.driver_internal_info.root_uuid_or_disk_id)}`, 'the boot entry names the root UUID');
  assert.equal(marker[2], '/dev/vda3', 'root is the last partition, after swap and the configdrive');
  assert.equal(marker[3], uuid, 'the configdrive\'s meta_data.json names the node');
  assert.equal(marker[4], token, 'the injected file is on the root file system');
  const salt = marker[5]!.split('$')[2]!;
  assert.equal(marker[5], sha512Crypt(password, salt), 'root\'s password hash is the admin password\'s');
  assert.equal(marker[6], '/dev/vda1', 'swap is made');
  assert.match(text, /ironic-ts iscsi ramdisk: conductor says: done/);
  process.stdout.write(`# iSCSI deploy to the booted instance took ${Math.round((Date.now() - started) / 1000)} s\n`);
});

test('undeploy: the node is available again and its PXE config is gone', { skip: skip ?? false }, async () => {
  await bmOk(['node', 'undeploy', uuid]);
  const node = await waitState('available', 600_000);
  assert.equal(node.last_error, null);
  assert.equal(node.power_state, 'power off');
  await assert.rejects(fsp.stat(path.join(dir, 'state', 'lab', 'tftpboot', uuid)));
});
