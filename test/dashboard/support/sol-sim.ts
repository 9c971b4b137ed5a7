/**
 * OpenIPMI's ipmi_sim with Serial over LAN: its SOL side connects to a TCP "serial line" the test
 * serves (ipmi_lan(5): `sol "tcp:address:port" baud`), so the test writes the node's serial output
 * and reads what the console's user types.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort, IPMI_SIM_EMU, PASSWORD, stopChild, USER, waitForPing } from '../../protocols/ipmi/simulators';

export { USER, PASSWORD };

export interface SolSim {
  /** The BMC's UDP port on 127.0.0.1. */
  port: number;
  /** Bytes the console's user typed, as the serial line received them. */
  typed(): string;
  /** Writes to the serial line (the node's console output). */
  write(text: string): void;
  /** Resolves once ipmi_sim has connected its SOL side to the serial line. */
  connected: Promise<void>;
  stop(): Promise<void>;
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

export async function startSolSim(): Promise<SolSim> {
  const dir = await mkdtemp(join(tmpdir(), 'sol-sim-'));
  await mkdir(join(dir, 'state'));
  let line: net.Socket | null = null;
  let typed = '';
  let onConnect: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => { onConnect = resolve; });
  const serial = net.createServer((socket) => {
    line?.destroy();
    line = socket;
    socket.on('data', (d: Buffer) => { typed += d.toString('latin1'); });
    socket.on('error', () => undefined);
    onConnect();
  });
  const serialPort = await listen(serial);
  const port = await freeUdpPort();
  const lanConf = [
    'name "soltest"',
    'set_working_mc 0x20',
    '  startlan 1',
    `    addr 127.0.0.1 ${port}`,
    '    priv_limit admin',
    ...['callback', 'user', 'operator', 'admin'].map((p) => `    allowed_auths_${p} none md2 md5 straight`),
    '    guid a123456789abcdefa123456789abcdef',
    '  endlan',
    `  sol "tcp:127.0.0.1:${serialPort}" 115200`,
    '  user 1 true  ""        "test"     user     10       none md2 md5 straight',
    `  user 2 true  "${USER}" "${PASSWORD}" admin 10 none md2 md5 straight`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'lan.conf'), lanConf);
  await writeFile(join(dir, 'sim.emu'), IPMI_SIM_EMU);
  const child = spawn('ipmi_sim', ['-c', join(dir, 'lan.conf'), '-f', join(dir, 'sim.emu'), '-s', join(dir, 'state'), '-n'],
    { stdio: ['ignore', 'ignore', 'ignore'] });
  const stop = async (): Promise<void> => {
    await stopChild(child);
    (line as net.Socket | null)?.destroy();
    await new Promise<void>((r) => serial.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPing(port);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    port,
    typed: () => typed,
    write: (text) => { (line as net.Socket | null)?.write(text); },
    connected,
    stop,
  };
}
