/**
 * Test helpers that run the real simulators (OpenIPMI ipmi_sim, pyghmi's BMC) and the ipmitool
 * CLI on 127.0.0.1, each on an ephemeral port, and tear them down by pid.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { asfPing } from '../../../src/protocols/ipmi';

export const FIXTURES = resolve(__dirname, '../../../../test/protocols/ipmi/fixtures');
export const USER = 'admin';
export const PASSWORD = 'password';

export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', () => res()));
  const port = socket.address().port;
  await new Promise<void>((res) => socket.close(() => res()));
  return port;
}

/** ipmi_sim's emulator file: one BMC, which the file must end by enabling. */
export const IPMI_SIM_EMU = ['mc_setbmc 0x20', 'mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr', 'mc_enable 0x20', ''].join('\n');

export interface RunningSim {
  port: number;
  stop(): Promise<void>;
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    child.once('exit', () => res());
    child.kill('SIGKILL');
  });
}

/**
 * OpenIPMI ipmi_sim with one admin user, lan + lanplus, and a file-backed chassis. `auths` limits
 * the IPMI 1.5 authentication types the channel allows (ipmi_lan(5) names).
 */
export async function startIpmiSim(auths = 'none md2 md5 straight'): Promise<RunningSim> {
  const dir = await mkdtemp(join(tmpdir(), 'ipmi-sim-'));
  await mkdir(join(dir, 'state'));
  await mkdir(join(dir, 'chassis'));
  const port = await freeUdpPort();
  const lanConf = [
    'name "ipmitest"',
    'set_working_mc 0x20',
    '  startlan 1',
    `    addr 127.0.0.1 ${port}`,
    '    priv_limit admin',
    `    allowed_auths_callback ${auths}`,
    `    allowed_auths_user ${auths}`,
    `    allowed_auths_operator ${auths}`,
    `    allowed_auths_admin ${auths}`,
    '    guid a123456789abcdefa123456789abcdef',
    '  endlan',
    `  chassis_control "${join(FIXTURES, 'chassis-control.sh')} ${join(dir, 'chassis')}"`,
    '  user 1 true  ""        "test"     user     10       none md2 md5 straight',
    `  user 2 true  "${USER}" "${PASSWORD}" admin 10 none md2 md5 straight`,
    '',
  ].join('\n');
  const emu = IPMI_SIM_EMU;
  await writeFile(join(dir, 'lan.conf'), lanConf);
  await writeFile(join(dir, 'sim.emu'), emu);
  const child = spawn('ipmi_sim', ['-c', join(dir, 'lan.conf'), '-f', join(dir, 'sim.emu'), '-s', join(dir, 'state'), '-n'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPing(port);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, stop };
}

export async function waitForPing(port: number): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      await asfPing({ address: '127.0.0.1', port, timeoutMs: 100, retries: 0 });
      return;
    } catch {
      // not up yet
    }
  }
  throw new Error(`simulator on ${port} did not come up`);
}

/** pyghmi's BMC (lanplus, cipher suite 3 only) via Debian's python3-pyghmi. */
export async function startFakeBmc(): Promise<RunningSim> {
  const home = await mkdtemp(join(tmpdir(), 'ipmi-pyghmi-home-'));
  const child = spawn('/usr/bin/python3', [join(FIXTURES, 'fakebmc.py'), USER, PASSWORD], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, HOME: home },
  });
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(home, { recursive: true, force: true });
  };
  const port = await new Promise<number>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error('fakebmc did not start')), 15_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(Number(m[1]));
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      rej(new Error('fakebmc exited'));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { port, stop };
}

/** Runs the ipmitool CLI against a simulator; resolves stdout, rejects with stderr on failure. */
export async function ipmitool(port: number, args: string[], opts: { lan?: boolean; cipher?: number } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ipmi-pw-'));
  const pw = join(dir, 'pw');
  await writeFile(pw, PASSWORD, { mode: 0o600 });
  const iface = opts.lan ? ['-I', 'lan'] : ['-I', 'lanplus', '-C', String(opts.cipher ?? 3)];
  try {
    return await new Promise<string>((res, rej) => {
      execFile('ipmitool', [...iface, '-H', '127.0.0.1', '-p', String(port), '-U', USER, '-f', pw, '-R', '2', '-N', '1', ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
        if (err) rej(new Error(`ipmitool ${args.join(' ')} failed: ${stderr}`));
        else res(stdout);
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
