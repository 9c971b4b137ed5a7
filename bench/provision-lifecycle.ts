/**
 * Side by side with the reference Ironic (both single-process, fake-hardware, SQLite): N nodes go
 * manage -> provide -> deploy (with a configdrive) -> undeploy, phase by phase, with bounded
 * concurrency; each phase ends when every node has settled. Prints wall times and ratios.
 *
 *   node dist/bench/provision-lifecycle.js [--nodes N] [--concurrency C] [--only ironic-ts|reference]
 */
import { startTarget, Target } from '../compat-tests/support/target';
import { cpuSeconds } from '../compat-tests/support/process-cpu';
import { nowMs, pool, ratio } from './support';

interface Phase {
  name: string;
  action: string;
  to: string;
  extra?: Record<string, unknown>;
}

const PHASES: Phase[] = [
  { name: 'manage', action: 'manage', to: 'manageable' },
  { name: 'provide', action: 'provide', to: 'available' },
  { name: 'deploy', action: 'active', to: 'active', extra: { configdrive: Buffer.from('bench-configdrive').toString('base64') } },
  { name: 'undeploy', action: 'deleted', to: 'available' },
];

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

class PhaseFailed extends Error {
  constructor(target: string, phase: string, detail: string) {
    super(`${target} ${phase}: ${detail}`);
    this.name = 'PhaseFailed';
  }
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

async function call(url: string, method: string, body?: unknown): Promise<[number, Record<string, unknown>]> {
  const res = await fetch(url, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return [res.status, text ? (JSON.parse(text) as Record<string, unknown>) : {}];
}

async function createNodes(target: Target, count: number, concurrency: number): Promise<string[]> {
  const uuids: string[] = new Array(count);
  await pool(count, concurrency, async (i) => {
    const [status, body] = await call(`${target.url}/v1/nodes`, 'POST', { driver: 'fake-hardware', name: `life-${i}` });
    if (status !== 201) throw new PhaseFailed(target.kind, 'create', `${status} ${JSON.stringify(body)}`);
    uuids[i] = String(body.uuid);
  });
  return uuids;
}

/** One node through one phase: request (retrying 409 while locked), then poll until it settles. */
async function runPhase(target: Target, uuid: string, phase: Phase, deadline: number): Promise<void> {
  const node = `${target.url}/v1/nodes/${uuid}`;
  for (;;) {
    const [status, body] = await call(`${node}/states/provision`, 'PUT', { target: phase.action, ...phase.extra });
    if (status === 202) break;
    if (status !== 409 && status !== 503) throw new PhaseFailed(target.kind, phase.name, `${status} ${JSON.stringify(body)}`);
    if (Date.now() > deadline) throw new PhaseFailed(target.kind, phase.name, `${uuid} still refused: ${status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (;;) {
    const [, body] = await call(node, 'GET');
    if (body.target_provision_state === null && body.reservation === null) {
      if (body.provision_state !== phase.to) throw new PhaseFailed(target.kind, phase.name, `${uuid} ended in ${String(body.provision_state)}`);
      return;
    }
    if (Date.now() > deadline) throw new PhaseFailed(target.kind, phase.name, `${uuid} stuck in ${String(body.provision_state)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function lifecycle(kind: Target['kind'], nodes: number, concurrency: number): Promise<Record<string, number>> {
  const target = await startTarget({ kind });
  try {
    const uuids = await createNodes(target, nodes, concurrency);
    const times: Record<string, number> = {};
    const start = nowMs();
    const cpuStart = cpuSeconds(target.pid);
    for (const phase of PHASES) {
      const phaseStart = nowMs();
      const deadline = Date.now() + 30 * 60 * 1000;
      await pool(uuids.length, concurrency, (i) => runPhase(target, uuids[i], phase, deadline));
      times[phase.name] = nowMs() - phaseStart;
      process.stdout.write(`  ${kind} ${phase.name}: ${(times[phase.name] / 1000).toFixed(2)} s\n`);
    }
    times.total = nowMs() - start;
    // Server CPU is what the machine's other load does not distort: report it in ms too.
    times.cpu = (cpuSeconds(target.pid) - cpuStart) * 1000;
    return times;
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  const nodes = Number(arg('nodes', '1000'));
  const concurrency = Number(arg('concurrency', '20'));
  const only = arg('only', '');
  process.stdout.write(`provision lifecycle: ${nodes} fake nodes, concurrency ${concurrency}\n`);
  const ours = only === 'reference' ? null : await lifecycle('ironic-ts', nodes, concurrency);
  const ref = only === 'ironic-ts' ? null : await lifecycle('reference', nodes, concurrency);
  for (const key of [...PHASES.map((p) => p.name), 'total', 'cpu']) {
    const o = ours ? `${(ours[key] / 1000).toFixed(2)} s` : '-';
    const r = ref ? `${(ref[key] / 1000).toFixed(2)} s` : '-';
    const x = ours && ref ? ratio(ref[key], ours[key]) : '-';
    // `cpu` is server CPU time over the four phases; the others are wall times.
    process.stdout.write(`${key.padEnd(9)} ironic-ts ${o.padStart(10)}  reference ${r.padStart(10)}  ratio ${x}\n`);
  }
  if (ours && ref && ref.total / ours.total < 10) process.stdout.write('below the 10x target\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
