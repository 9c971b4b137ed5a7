/**
 * The ssh hardware type end to end: the real `baremetal` CLI drives an ironic-ts server whose
 * conductor powers and boots a libvirt domain (QEMU under TCG) over SSH through OpenSSH's sshd,
 * as Ironic's old ssh driver did; the domain's state and boot device are read back from libvirt
 * behind both their backs. Wrong credentials and host keys end in clear last_errors.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startSshHypervisor, type SshHypervisor } from '../support/ssh-hypervisor';
import { startTarget, type Target } from '../support/target';
import { cliNodeClient, type Row } from '../support/cli-node';

let hv: SshHypervisor;
let target: Target;
let knownHostsDir: string;
const cli = cliNodeClient(() => target.url);

const VM = 'ssh-node-1';
const MAC = '52:54:00:5e:00:21';

function extraConf(knownHosts: string): string {
  return `enabled_hardware_types = fake-hardware,ssh
enabled_management_interfaces = fake,ssh
enabled_power_interfaces = fake,ssh
enabled_boot_interfaces = fake,pxe
enabled_deploy_interfaces = fake,direct
default_deploy_interface = direct
[ssh]
known_hosts_file = ${knownHosts}
get_vm_name_attempts = 2
get_vm_name_retry_interval = 0
[conductor]
sync_power_state_interval = 600
`;
}

before(async () => {
  hv = await startSshHypervisor();
  await hv.defineVm(VM, MAC);
  knownHostsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ssh-known-'));
  const knownHosts = path.join(knownHostsDir, 'known_hosts');
  fs.writeFileSync(knownHosts, hv.knownHosts);
  target = await startTarget({ kind: 'ironic-ts', extraConf: extraConf(knownHosts) });
});

after(async () => {
  await target?.stop();
  await hv?.stop();
  if (knownHostsDir) fs.rmSync(knownHostsDir, { recursive: true, force: true });
});

function sshInfo(overrides: Record<string, string> = {}): Record<string, string> {
  return { ssh_address: '127.0.0.1', ssh_port: String(hv.port), ssh_username: 'root', ssh_virt_type: 'virsh',
    ssh_key_contents: hv.clientKey, ...overrides };
}

async function createNode(info: Record<string, string>, mac = MAC): Promise<string> {
  const args = ['node', 'create', '--driver', 'ssh', ...Object.entries(info).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`])];
  const created = await cli.bmJson(args);
  assert.equal(created.power_interface, 'ssh');
  assert.equal(created.management_interface, 'ssh');
  const uuid = String(created.uuid);
  await cli.bmOk(['port', 'create', mac, '--node', uuid]);
  return uuid;
}

async function domainPower(): Promise<'on' | 'off'> {
  const state = (await hv.virsh('domstate', VM)).trim();
  assert.match(state, /^(running|shut off)$/, `libvirt says ${state}`);
  return state === 'running' ? 'on' : 'off';
}

async function domainBootDevice(): Promise<string> {
  // The persistent definition: what the next boot uses (a running domain's live XML keeps its old one).
  const xml = await hv.virsh('dumpxml', '--inactive', VM);
  const devices = [...xml.matchAll(/<boot dev='([a-z]+)'\/>/g)].map((m) => m[1]);
  assert.equal(devices.length, 1, `one boot device in ${xml}`);
  return devices[0];
}

/**
 * What a failing connection shows: `power on` refused at once with the power interface's
 * validation (HTTP 400, as Ironic validates before acting), and manage's verification leaving the
 * node in enroll with the same reason in last_error.
 */
async function failureShown(uuid: string): Promise<string> {
  const refused = await cli.bm(['node', 'power', 'on', uuid]);
  assert.notEqual(refused.code, 0);
  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'manage' });
  const node = await cli.waitNode(uuid, (n: Row) => n.provision_state === 'enroll' && typeof n.last_error === 'string',
    'verification failure', 60_000);
  const lastError = String(node.last_error);
  assert.ok(refused.stderr.includes(lastError.replace(/^.*?: (SSH connection)/, '$1')), `${refused.stderr} vs ${lastError}`);
  return lastError;
}

test('virsh over SSH: validate, manage, power on/off/reboot and boot device, read back from libvirt', async () => {
  const uuid = await createNode(sshInfo());
  const validation = await cli.validate(uuid);
  assert.deepEqual(validation.power, { Interface: 'power', Result: true, Reason: '' });
  assert.deepEqual(validation.management, { Interface: 'management', Result: true, Reason: '' });

  const shown = await cli.bmJson(['node', 'show', uuid, '--fields', 'driver_info']);
  assert.equal((shown.driver_info as Row).ssh_key_contents, '******', 'the private key never leaves the API');

  assert.equal((await cli.manage(uuid)).power_state, 'power off');
  await cli.cyclePower(uuid, domainPower);

  await cli.bmOk(['node', 'boot', 'device', 'set', uuid, 'disk']);
  assert.equal(await domainBootDevice(), 'hd');
  assert.deepEqual(await cli.bmJson(['node', 'boot', 'device', 'show', uuid]), { boot_device: 'disk', persistent: null });
  await cli.bmOk(['node', 'boot', 'device', 'set', uuid, 'pxe']);
  assert.equal(await domainBootDevice(), 'network');
  assert.deepEqual(await cli.bmJson(['node', 'boot', 'device', 'show', uuid, '--supported']),
    { supported_boot_devices: 'disk, pxe, cdrom' });

  // Someone stops the domain behind the conductor's back; the node's power state follows on a read.
  await hv.virsh('destroy', VM);
  await cli.bmOk(['node', 'power', 'off', uuid]);
  await cli.waitNode(uuid, (n) => n.power_state === 'power off' && n.last_error === null, 'power off after virsh destroy');
  await cli.bmOk(['node', 'delete', uuid]);
});

test('a key sshd does not accept: validate says why, power on leaves a clear last_error', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ssh-key-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'k')]);
    const uuid = await createNode(sshInfo({ ssh_key_contents: fs.readFileSync(path.join(dir, 'k'), 'utf8') }), '52:54:00:5e:00:31');
    const validation = await cli.validate(uuid);
    assert.equal(validation.power.Result, false);
    assert.match(String(validation.power.Reason),
      /^SSH connection cannot be established: Failed to establish SSH connection to host 127\.0\.0\.1: All configured authentication methods failed$/);
    const lastError = await failureShown(uuid);
    assert.match(lastError, /Failed to establish SSH connection to host 127\.0\.0\.1: All configured authentication methods failed/);
    assert.equal(await domainPower(), 'off');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('host keys: an unknown host and a pinned fingerprint that does not match are refused before logging in', async () => {
  // "localhost" is not what known_hosts lists ([127.0.0.1]:port), so its key is unknown.
  const unknown = await createNode(sshInfo({ ssh_address: 'localhost' }), '52:54:00:5e:00:41');
  assert.match(await failureShown(unknown),
    /Failed to establish SSH connection to host localhost: host key SHA256:[A-Za-z0-9+/]{43} is not known \(checked against \[ssh\]known_hosts_file\)/);

  const pinned = await createNode(sshInfo({ ssh_host_key_fingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), '52:54:00:5e:00:51');
  assert.match(await failureShown(pinned),
    /host key SHA256:[A-Za-z0-9+/]{43} does not match ssh_host_key_fingerprint/);
  assert.equal(await domainPower(), 'off');

  // The right pin is accepted even where known_hosts does not list the name.
  const keyLine = hv.knownHosts.trim().split(' ');
  const fingerprint = execFileSync('ssh-keygen', ['-lf', '-'], { input: `${keyLine[1]} ${keyLine[2]}\n` }).toString().split(' ')[1];
  const right = await createNode(sshInfo({ ssh_address: 'localhost', ssh_host_key_fingerprint: fingerprint }));
  assert.equal((await cli.manage(right)).power_state, 'power off');
  await cli.bmOk(['node', 'delete', right]);
});

test('no VM with the node\'s MAC: NodeNotFound in last_error after [ssh]get_vm_name_attempts', async () => {
  const uuid = await createNode(sshInfo(), '52:54:00:5e:00:71');
  await cli.bmOk(['node', 'power', 'on', uuid]);
  const node = await cli.waitNode(uuid, (n: Row) => typeof n.last_error === 'string' && n.target_power_state === null,
    'last_error after power on', 60_000);
  assert.match(String(node.last_error),
    /SSH driver was not able to find a VM with any of the specified MACs: \['52:54:00:5e:00:71'\] for node /);
});
