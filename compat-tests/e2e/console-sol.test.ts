/**
 * The ipmitool-socat console on a real (virtual) machine: a QEMU VM behind ipmi_sim, its serial
 * port ipmi_sim's Serial over LAN line (vm-bmc.ts). ironic-ts in lab mode enables the console
 * (socat on a TCP port running `ipmitool ... sol activate`), a socat client connects to the port
 * console_info names, the node is powered on over IPMI, and the client reads what the VM writes to
 * its serial port: SeaBIOS's banner and the Debian kernel's command line, which carries a token
 * this test chose. The kernel comes from the iscsi ramdisk (built in seconds, then cached).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bmOk as labBmOk, labConf, startLabIronic, type LabIronic } from '../support/lab/ironic';
import { buildKernelDisk } from '../support/lab/kernel-disk';
import { createLabNetwork, labUnavailable, sh, type LabNetwork } from '../support/lab/network';
import { ensureIscsiRamdisk } from '../support/lab/ramdisk';
import { startLabVm, type LabVm } from '../support/lab/vm-bmc';

type Row = Record<string, any>;

const skip = labUnavailable();
let dir: string;
let net: LabNetwork | undefined;
let vm: LabVm | undefined;
let ironic: LabIronic | undefined;
let client: ChildProcess | undefined;
let uuid: string;
const token = `sol-${randomBytes(6).toString('hex')}`;
// The console's TCP port inside the lab's namespace, which has nothing else on it.
const TERMINAL_PORT = 8023;

const SOL_CONF = `
[DEFAULT]
enabled_console_interfaces = ipmitool-socat,no-console

[ipmi]
min_command_interval = 1
`;

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-sol-e2e-'));
  await fsp.chmod(dir, 0o755); // dnsmasq reads its host and option files as nobody
  const ramdisk = await ensureIscsiRamdisk();
  net = await createLabNetwork({ name: 'its-sol' });
  vm = await startLabVm({ net, dir, memoryMiB: 256, diskGiB: 1 });
  const disk = await buildKernelDisk(dir, ramdisk.kernel, `console=ttyS0,115200n8 ${token}`);
  await sh('dd', [`if=${disk}`, `of=${vm.disk}`, 'bs=1M', 'conv=notrunc', 'status=none']);
  ironic = await startLabIronic({ net, dir, conf: labConf({ net, dir, ramdisk }) + SOL_CONF });
});

after(async () => {
  client?.kill('SIGKILL');
  await ironic?.stop();
  await vm?.stop();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

async function consoleState(): Promise<Row> {
  return ironic!.get<Row>(`/v1/nodes/${uuid}/states/console`);
}

async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test('ipmitool-socat: a client on the console port reads the VM\'s serial output through ipmi_sim\'s SOL', { skip: skip ?? false }, async () => {
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'sol-vm', '--console-interface', 'ipmitool-socat',
    ...Object.entries({ ...vm!.driverInfo(), ipmi_terminal_port: TERMINAL_PORT }).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]),
    '-f', 'json'])) as Row;
  uuid = created.uuid;
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  assert.equal((await ironic!.get<Row>(`/v1/nodes/${uuid}`)).power_state, 'power off');

  assert.equal(await ironic!.put(`/v1/nodes/${uuid}/states/console`, { enabled: true }), 202);
  const info = await waitFor('the console to be enabled', 60_000, async () => {
    const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    assert.equal(node.last_error, null);
    const state = await consoleState();
    return state.console_enabled === true ? state.console_info as Row : undefined;
  });
  assert.equal(info.type, 'socat');
  const url = /^tcp:\/\/([^:]+):(\d+)$/.exec(String(info.url));
  assert.ok(url, String(info.url));
  assert.equal(url[1], net!.address, 'socat listens on [console]socat_address, my_ip in lab mode');
  assert.equal(Number(url[2]), TERMINAL_PORT);

  // A socat client inside the namespace: its stdout is what the console's user sees.
  let seen = '';
  const [file, args] = net!.inside('socat', ['-', `TCP:${url[1]}:${url[2]}`]);
  client = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  client.stdout!.on('data', (d: Buffer) => { seen += d.toString('latin1'); });
  const shown = (pattern: RegExp, timeoutMs: number): Promise<true> =>
    waitFor(`${pattern} on the console (it showed: ${JSON.stringify(seen.slice(-2000))})`, timeoutMs,
      async () => (pattern.test(seen) ? true : undefined));
  await shown(/SOL Session operational/, 60_000);

  const started = Date.now();
  await bmOk(['node', 'power', 'on', uuid]);
  await shown(/SeaBIOS \(version/, 120_000);
  await shown(new RegExp(`Command line: .*console=ttyS0,115200n8 ${token}`), 120_000);
  process.stdout.write(`# power on to the kernel's command line on the SOL console: ${Math.round((Date.now() - started) / 1000)} s\n`);
  // The lab's console log gets the same bytes, for the tests that read it.
  await vm!.waitConsole(new RegExp(`Command line: .*${token}`), 10_000);

  assert.equal(await ironic!.put(`/v1/nodes/${uuid}/states/console`, { enabled: false }), 202);
  await waitFor('the console to be disabled', 60_000, async () => ((await consoleState()).console_enabled === false ? true : undefined));
  // The listener is gone. (A client already connected keeps socat's forked child, as under Ironic,
  // which stops only the listening socat; this one hangs up now.)
  const [f2, a2] = net!.inside('socat', ['-u', `TCP:${url[1]}:${url[2]},connect-timeout=5`, '-']);
  await assert.rejects(sh(f2, a2, 20_000), /Connection refused/);
  client.kill('SIGTERM');
  await bmOk(['node', 'power', 'off', uuid]);
  await waitFor('the node to power off', 60_000, async () => ((await ironic!.get<Row>(`/v1/nodes/${uuid}`)).power_state === 'power off' ? true : undefined));
  assert.equal(await vm!.qemuRunning(), false);
});
