/**
 * Power-state sweep over many simulated lanplus BMCs.
 *
 *   node dist/bench/ipmi-power-sweep.js [--bmcs 10000] [--concurrency 200] [--cipher 17]
 *        [--sweeps 2] [--ipmitool-sample 200] [--ipmitool-concurrency 8]
 *
 * The BMC farm runs in a forked child so simulator and client each get a core. Three kinds of
 * sweep: "cold" gives every BMC a fresh session (Open Session, RAKP 1-4, privilege, Get Chassis
 * Status, Close Session); "pool fill" does the same but leaves the session in a SessionPool;
 * "pooled" reuses those sessions (one Get Chassis Status each), as a conductor's periodic power
 * sync would. CPU time of both processes is printed too, since wall time on a shared machine
 * depends on whatever else runs. The ipmitool binary is measured on a sample and extrapolated.
 */
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { IpmiClient, IpmitoolClient, SessionPool, type IpmiPowerClient, type PowerState } from '../src/protocols/ipmi';
import { SimBmcFarm } from '../src/protocols/ipmi/sim';

interface Args {
  bmcs: number;
  concurrency: number;
  cipher: number;
  sweeps: number;
  ipmitoolSample: number;
  ipmitoolConcurrency: number;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string, def: number): number => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? Number(argv[i + 1]) : def;
  };
  return {
    bmcs: get('bmcs', 10_000),
    concurrency: get('concurrency', 200),
    cipher: get('cipher', 17),
    sweeps: get('sweeps', 2),
    ipmitoolSample: get('ipmitool-sample', 200),
    ipmitoolConcurrency: get('ipmitool-concurrency', 8),
  };
}

/** Child side: start the farm, report ports, stop on request. */
async function runFarm(count: number): Promise<void> {
  const farm = new SimBmcFarm();
  const ports = await farm.start(count);
  farm.bmcs.forEach((b, i) => {
    b.model.power = i % 3 === 0 ? 'on' : 'off';
  });
  process.send?.({ ports });
  process.on('message', (m) => {
    if (m === 'cpu') {
      process.send?.({ cpu: process.cpuUsage() });
      return;
    }
    void farm.stop().then(() => process.exit(0));
  });
}

function farmCpuMs(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const { cpu } = m as { cpu: NodeJS.CpuUsage };
      resolve((cpu.user + cpu.system) / 1000);
    });
    child.send('cpu');
  });
}

function startFarm(count: number): Promise<{ child: ChildProcess; ports: number[] }> {
  const child = fork(__filename, ['--farm', String(count)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ports: (m as { ports: number[] }).ports }));
    child.once('exit', (code) => reject(new Error(`farm exited with ${code}`)));
  });
}

async function sweep(ports: number[], concurrency: number, make: (port: number) => IpmiPowerClient): Promise<{ ms: number; on: number; errors: number; p99: number }> {
  let next = 0;
  let on = 0;
  let errors = 0;
  const latencies: number[] = [];
  const worker = async (): Promise<void> => {
    while (next < ports.length) {
      const port = ports[next++];
      const client = make(port);
      const t0 = performance.now();
      try {
        const state: PowerState = await client.getPowerState();
        if (state === 'on') on++;
      } catch (err) {
        if (errors++ === 0) console.error(`first error: ${String(err)}`);
      } finally {
        await client.close();
        latencies.push(performance.now() - t0);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  return { ms: performance.now() - started, on, errors, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv);
  const limit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  // Each process needs one socket per BMC at most (farm: its BMCs; client: pooled sessions).
  if (args.bmcs + args.concurrency + 100 > limit) {
    throw new Error(`ulimit -n is ${limit}: too low for ${args.bmcs} BMC sockets per process`);
  }
  console.log(`ulimit -n ${limit}; starting ${args.bmcs} simulated BMCs (cipher suite ${args.cipher})`);
  const t0 = performance.now();
  const { child, ports } = await startFarm(args.bmcs);
  console.log(`farm up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const creds = { address: '127.0.0.1', username: 'admin', password: 'password', cipherSuite: args.cipher, timeoutMs: 2000, retries: 2 };
  try {
    const pool = new SessionPool({ keepAliveMs: 0, idleMs: 600_000 });
    const kinds: Array<[string, (port: number) => IpmiPowerClient]> = [];
    for (let i = 1; i <= args.sweeps; i++) kinds.push([`cold ${i}`, (port) => new IpmiClient({ ...creds, port }, { pool: null })]);
    kinds.push(['pool fill', (port) => new IpmiClient({ ...creds, port }, { pool })]);
    for (let i = 1; i <= args.sweeps; i++) kinds.push([`pooled ${i}`, (port) => new IpmiClient({ ...creds, port }, { pool })]);
    for (const [name, make] of kinds) {
      const cpu0 = process.cpuUsage();
      const farm0 = await farmCpuMs(child);
      const r = await sweep(ports, args.concurrency, make);
      const cpu = process.cpuUsage(cpu0);
      const farmMs = (await farmCpuMs(child)) - farm0;
      console.log(
        `IpmiClient ${name} sweep: ${args.bmcs} BMCs in ${(r.ms / 1000).toFixed(2)} s ` +
          `(${Math.round((args.bmcs / r.ms) * 1000)} BMC/s, p99 ${r.p99.toFixed(1)} ms, on=${r.on}, errors=${r.errors}); ` +
          `CPU client ${((cpu.user + cpu.system) / 1000 / 1000).toFixed(2)} s, simulator ${(farmMs / 1000).toFixed(2)} s`,
      );
    }
    await pool.closeAll();
    if (args.ipmitoolSample > 0) {
      const sample = ports.slice(0, args.ipmitoolSample);
      const r = await sweep(sample, args.ipmitoolConcurrency, (port) => new IpmitoolClient({ ...creds, port }));
      const perBmc = r.ms / sample.length;
      console.log(
        `ipmitool binary: ${sample.length} BMCs in ${(r.ms / 1000).toFixed(2)} s (concurrency ${args.ipmitoolConcurrency}, errors=${r.errors}); ` +
          `extrapolated to ${args.bmcs} BMCs: ${((perBmc * args.bmcs) / 1000).toFixed(0)} s`,
      );
    }
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (process.argv[2] === '--farm') {
  void runFarm(Number(process.argv[3]));
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
