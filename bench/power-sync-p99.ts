/**
 * One conductor holding N fake nodes (default 10,000, moved to manageable so the sync really visits
 * each of them) while its power-state sync runs: measures
 * `GET /v1/nodes/{id}` latency (p50/p95/p99/max) over a window covering several sync passes, and
 * the server's CPU use in that window. --reference does the same against the reference Ironic
 * (its sync interval is its default, 60 s, so make the window longer than that).
 *
 *   node dist/bench/power-sync-p99.js [--nodes N] [--interval S] [--window S] [--clients C] [--reference]
 */
import { startTarget, Target } from '../compat-tests/support/target';
import { cpuSeconds } from '../compat-tests/support/process-cpu';
import { nowMs, percentile, pool } from './support';

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

class BenchRequestFailed extends Error {
  constructor(what: string, status: number) {
    super(`${what}: HTTP ${status}`);
    this.name = 'BenchRequestFailed';
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function createNodes(target: Target, count: number): Promise<string[]> {
  const uuids: string[] = new Array(count);
  const start = nowMs();
  await pool(count, 20, async (i) => {
    const res = await fetch(`${target.url}/v1/nodes`, {
      method: 'POST', headers: HEADERS, body: JSON.stringify({ driver: 'fake-hardware', name: `sync-${i}` }),
    });
    if (res.status !== 201) throw new BenchRequestFailed(`create node ${i}`, res.status);
    uuids[i] = String(((await res.json()) as { uuid: string }).uuid);
  });
  process.stdout.write(`  created ${count} nodes in ${((nowMs() - start) / 1000).toFixed(1)} s\n`);
  return uuids;
}

/** Enrolled nodes are skipped by the sync (SYNC_EXCLUDED_STATES), so move them all to manageable. */
async function manageNodes(target: Target, uuids: string[]): Promise<void> {
  const start = nowMs();
  await pool(uuids.length, 20, async (i) => {
    const res = await fetch(`${target.url}/v1/nodes/${uuids[i]}/states/provision`, {
      method: 'PUT', headers: HEADERS, body: JSON.stringify({ target: 'manage' }),
    });
    if (res.status !== 202) throw new BenchRequestFailed(`manage node ${i}`, res.status);
    await res.arrayBuffer();
  });
  process.stdout.write(`  managed ${uuids.length} nodes in ${((nowMs() - start) / 1000).toFixed(1)} s\n`);
}

interface Stall {
  atS: number;
  ms: number;
}

async function measure(target: Target, uuids: string[], windowMs: number, clients: number, stalls: Stall[]): Promise<number[]> {
  const samples: number[] = [];
  const begin = Date.now();
  const end = begin + windowMs;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (Date.now() < end) {
      const uuid = uuids[Math.floor(Math.random() * uuids.length)];
      const t0 = nowMs();
      const res = await fetch(`${target.url}/v1/nodes/${uuid}`, { headers: HEADERS });
      await res.arrayBuffer();
      if (res.status !== 200) throw new BenchRequestFailed(`GET node ${uuid}`, res.status);
      const ms = nowMs() - t0;
      samples.push(ms);
      // Outliers with their time in the window show whether they line up with the sync interval.
      if (ms > 100) stalls.push({ atS: (Date.now() - begin) / 1000, ms });
    }
  }));
  return samples;
}

async function run(kind: Target['kind'], nodes: number, interval: number, windowS: number, clients: number): Promise<void> {
  const extraConf = `[conductor]\nsync_power_state_interval = ${interval}\n`;
  const target = await startTarget({ kind, extraConf });
  try {
    const uuids = await createNodes(target, nodes);
    await manageNodes(target, uuids);
    const cpu0 = cpuSeconds(target.pid);
    const stalls: Stall[] = [];
    const samples = await measure(target, uuids, windowS * 1000, clients, stalls);
    const cpu = cpuSeconds(target.pid) - cpu0;
    const f = (p: number) => `${percentile(samples, p).toFixed(1)} ms`;
    process.stdout.write(`${kind}: ${samples.length} GETs in ${windowS} s (${clients} clients), p50 ${f(50)}, p95 ${f(95)}, ` +
      `p99 ${f(99)}, max ${f(100)}; server CPU ${((cpu / windowS) * 100).toFixed(0)}% of one core\n`);
    const shown = stalls.slice(0, 12).map((x) => `${x.atS.toFixed(1)}s:${x.ms.toFixed(0)}ms`).join(' ');
    process.stdout.write(`  ${stalls.length} GETs over 100 ms (time in window: latency) ${shown}\n`);
    if (kind === 'ironic-ts') process.stdout.write(percentile(samples, 99) < 50 ? 'p99 within the 50 ms target\n' : 'p99 ABOVE the 50 ms target\n');
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  const nodes = arg('nodes', 10000);
  const interval = arg('interval', 10);
  const windowS = arg('window', 3 * interval);
  const clients = arg('clients', 4);
  process.stdout.write(`power sync p99: ${nodes} fake nodes, sync_power_state_interval ${interval} s, window ${windowS} s\n`);
  await run('ironic-ts', nodes, interval, windowS, clients);
  if (process.argv.includes('--reference')) await run('reference', nodes, interval, Math.max(windowS, 70), clients);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
