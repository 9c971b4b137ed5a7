/**
 * A machine for the lab: a QEMU VM (software emulation only: `-accel tcg`, KVM hangs guests on
 * these machines) behind OpenIPMI's ipmi_sim, whose chassis_control program (chassis-qemu.sh)
 * starts QEMU on power on, stops it on power off, and boots it from the network when the boot
 * device is pxe, from its disk otherwise. The VM's serial port is ipmi_sim's Serial over LAN line:
 * QEMU serves it on a TCP port of the namespace's loopback, ipmi_sim's `sol "tcp:..."` connects to
 * it (ipmi_lan(5)), and QEMU copies every byte the guest writes to a log file the test reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { LabNetwork } from './network';
import { sh } from './network';

const CHASSIS_SCRIPT = path.resolve(__dirname, '..', '..', '..', '..', 'compat-tests', 'support', 'lab', 'chassis-qemu.sh');

export const BMC_USER = 'admin';
export const BMC_PASSWORD = 'password';

export interface LabVm {
  mac: string;
  disk: string;
  /** Serial console log, appended across boots. */
  consoleLog: string;
  /** The TCP port (namespace loopback) where QEMU serves the serial line ipmi_sim's SOL reads. */
  serialPort: number;
  /** ipmi_sim's address and port inside the namespace. */
  bmcAddress: string;
  bmcPort: number;
  /** The driver_info of an `ipmi` node for this VM. */
  driverInfo(): Record<string, string | number>;
  console(): Promise<string>;
  /** chassis-qemu.sh's log of what the BMC was told (`set power 1`, `set reset 1`...), one line each. */
  chassisLog(): Promise<string>;
  /** Waits until the console shows `pattern` (after `from` characters), returning the text. */
  waitConsole(pattern: RegExp, timeoutMs: number, from?: number): Promise<string>;
  qemuRunning(): Promise<boolean>;
  /** Kills QEMU behind the BMC's back (a crash, or a cable pulled). */
  killQemu(): Promise<void>;
  /** Stops ipmi_sim (the BMC stops answering) or starts it again. */
  stopBmc(): Promise<void>;
  startBmc(): Promise<void>;
  stop(): Promise<void>;
}

export interface LabVmOptions {
  net: LabNetwork;
  dir: string;
  mac?: string;
  diskGiB?: number;
  memoryMiB?: number;
  bmcPort?: number;
  serialPort?: number;
}

function qemuArgs(o: { net: LabNetwork; mac: string; disk: string; consoleLog: string; memoryMiB: number; sercon: string;
  serialPort: number }): string[] {
  return [
    // SeaBIOS mirrors its screen (and iPXE's) to the serial port named here, so the log shows the
    // whole boot, not only the kernel's.
    '-fw_cfg', `name=etc/sercon-port,file=${o.sercon}`,
    '-name', 'ironic-ts-lab-vm', '-machine', 'pc', '-accel', 'tcg', '-m', String(o.memoryMiB), '-smp', '1',
    '-display', 'none', '-monitor', 'none', '-parallel', 'none',
    '-netdev', `tap,id=n0,ifname=${o.net.tap},script=no,downscript=no`,
    '-device', `virtio-net-pci,netdev=n0,mac=${o.mac}`,
    '-drive', `file=${o.disk},format=raw,if=virtio,cache=unsafe`,
    // The guest starts once ipmi_sim (which retries its SOL connection every 10 s) is connected, so
    // SOL sees the whole boot, as a real BMC's would. ipmi_sim reads the line all the time, dropping
    // what no SOL session takes; QEMU logs every byte the guest writes, connected or not.
    '-chardev', `socket,id=console,host=127.0.0.1,port=${o.serialPort},server=on,wait=on,logfile=${o.consoleLog},logappend=on`,
    '-serial', 'chardev:console',
  ];
}

function lanConf(chassisDir: string, port: number, serialPort: number): string {
  return [
    'name "ironic-ts-lab"',
    'set_working_mc 0x20',
    '  startlan 1',
    `    addr 127.0.0.1 ${port}`,
    '    priv_limit admin',
    '    allowed_auths_callback none md2 md5 straight',
    '    allowed_auths_user none md2 md5 straight',
    '    allowed_auths_operator none md2 md5 straight',
    '    allowed_auths_admin none md2 md5 straight',
    '    guid a123456789abcdefa123456789abcdef',
    '  endlan',
    `  chassis_control "${CHASSIS_SCRIPT} ${chassisDir}"`,
    `  sol "tcp:127.0.0.1:${serialPort}" 115200`,
    `  user 2 true  "${BMC_USER}" "${BMC_PASSWORD}" admin 10 none md2 md5 straight`,
    '',
  ].join('\n');
}

// The emu file must end with mc_enable, or the BMC never answers.
const EMU = ['mc_setbmc 0x20', 'mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr', 'mc_enable 0x20', ''].join('\n');

export async function startLabVm(o: LabVmOptions): Promise<LabVm> {
  const mac = o.mac ?? '52:54:00:6c:61:62';
  const vmDir = path.join(o.dir, 'vm');
  const disk = path.join(vmDir, 'disk.raw');
  const consoleLog = path.join(vmDir, 'console.log');
  const bmcPort = o.bmcPort ?? 623;
  const serialPort = o.serialPort ?? 2323;
  await fsp.mkdir(path.join(vmDir, 'sim-state'), { recursive: true });
  await sh('truncate', ['-s', `${o.diskGiB ?? 5}G`, disk]);
  await fsp.writeFile(consoleLog, '');
  const sercon = path.join(vmDir, 'sercon-port');
  await fsp.writeFile(sercon, Buffer.from([0xf8, 0x03, 0, 0, 0, 0, 0, 0])); // 0x3f8, COM1, little-endian
  await fsp.writeFile(path.join(vmDir, 'qemu.args'), qemuArgs({ net: o.net, mac, disk, consoleLog, memoryMiB: o.memoryMiB ?? 2048, sercon, serialPort }).join('\n') + '\n');
  await fsp.writeFile(path.join(vmDir, 'lan.conf'), lanConf(vmDir, bmcPort, serialPort));
  await fsp.writeFile(path.join(vmDir, 'sim.emu'), EMU);

  let sim: ChildProcess | undefined;
  const startBmc = async (): Promise<void> => {
    const [file, args] = o.net.inside('ipmi_sim', ['-c', path.join(vmDir, 'lan.conf'), '-f', path.join(vmDir, 'sim.emu'),
      '-s', path.join(vmDir, 'sim-state'), '-n']);
    const log = await fsp.open(path.join(vmDir, 'ipmi_sim.log'), 'a');
    sim = spawn(file, args, { stdio: ['ignore', log.fd, log.fd] });
    await log.close();
    await waitBmc(o.net, bmcPort);
  };
  const stopBmc = async (): Promise<void> => {
    const child = sim;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGKILL'); });
  };
  const pidOf = async (): Promise<number | null> => {
    const text = await fsp.readFile(path.join(vmDir, 'qemu.pid'), 'utf8').catch(() => '');
    const pid = Number(text.trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  };
  const qemuRunning = async (): Promise<boolean> => {
    const pid = await pidOf();
    if (pid === null) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const killQemu = async (): Promise<void> => {
    const pid = await pidOf();
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch { /* gone */ }
    }
  };
  const readConsole = (): Promise<string> => fsp.readFile(consoleLog, 'latin1');
  await startBmc();
  return {
    mac, disk, consoleLog, serialPort, bmcAddress: '127.0.0.1', bmcPort,
    driverInfo: () => ({ ipmi_address: '127.0.0.1', ipmi_port: bmcPort, ipmi_username: BMC_USER, ipmi_password: BMC_PASSWORD }),
    console: readConsole,
    chassisLog: () => fsp.readFile(path.join(vmDir, 'chassis.log'), 'utf8').catch(() => ''),
    async waitConsole(pattern, timeoutMs, from = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = (await readConsole()).slice(from);
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`console never showed ${pattern}; its end:\n${text.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
    qemuRunning, killQemu, stopBmc, startBmc,
    async stop() {
      await killQemu();
      await stopBmc();
    },
  };
}

/** ipmitool inside the namespace until the BMC answers. */
async function waitBmc(net: LabNetwork, port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [file, args] = net.inside('ipmitool', ['-I', 'lanplus', '-H', '127.0.0.1', '-p', String(port), '-U', BMC_USER, '-P', BMC_PASSWORD,
      '-R', '1', '-N', '1', 'power', 'status']);
    try {
      await sh(file, args, 10_000);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`ipmi_sim never answered: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
