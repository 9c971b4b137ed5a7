/**
 * Side by side with the reference Ironic: create N nodes (default 10,000) in each, then time
 * `GET /v1/nodes/detail` and Nova's node query, following next links. Prints ratios and peak RSS.
 *
 *   node dist/bench/api-nodes.js [--nodes N] [--rounds R] [--concurrency C] [--only ironic-ts|reference]
 *
 * Each list is walked once unmeasured, then R times (default 5); the medians are printed.
 */
import { startTarget, Target } from '../compat-tests/support/target';
import { countBytes, getBytes, median, nowMs, peakRssMiB, pool, postJson, ratio } from './support';

const NOVA_FIELDS = 'uuid,power_state,target_power_state,provision_state,target_provision_state,last_error,maintenance,properties,instance_uuid,traits,resource_class';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function createNodes(target: Target, count: number, concurrency: number): Promise<number> {
  const start = nowMs();
  await pool(count, concurrency, async (i) => {
    const res = await postJson(`${target.url}/v1/nodes`, {
      driver: 'fake-hardware', name: `bench-${i}`, resource_class: 'baremetal',
      properties: { cpus: 8, memory_mb: 16384, local_gb: 100, cpu_arch: 'x86_64' },
      driver_info: { fake_password: 'secret', address: `10.0.${i >> 8}.${i & 255}` },
    });
    if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${res.body.toString()}`);
  });
  return count / ((nowMs() - start) / 1000);
}

const NEXT = /"next": "([^"]+)"\s*}\s*$/;
const UUID_KEY = Buffer.from('"uuid": ');

/**
 * Lists every node by following next links; returns [ms, count]. The client only counts each page's
 * nodes (a byte search) and decodes the tail for the next link, so the timing is the servers', not
 * the client's JSON parser.
 */
async function listAll(target: Target, firstPath: string): Promise<[number, number]> {
  const start = nowMs();
  let url: string | undefined = `${target.url}${firstPath}`;
  let count = 0;
  while (url) {
    const body = await getBytes(url);
    count += countBytes(body, UUID_KEY);
    url = NEXT.exec(body.subarray(-2048).toString('latin1'))?.[1];
  }
  return [nowMs() - start, count];
}

async function measure(target: Target, nodes: number, rounds: number, concurrency: number) {
  const createRate = await createNodes(target, nodes, concurrency);
  // One unmeasured pass first on both sides: JIT warm-up and database caches, not steady state.
  await listAll(target, '/v1/nodes/detail');
  await listAll(target, `/v1/nodes?fields=${NOVA_FIELDS}`);
  const detail: number[] = [];
  const nova: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const [d, dc] = await listAll(target, '/v1/nodes/detail');
    const [n, nc] = await listAll(target, `/v1/nodes?fields=${NOVA_FIELDS}`);
    if (dc !== nodes || nc !== nodes) throw new Error(`${target.kind} listed ${dc}/${nc} of ${nodes} nodes`);
    detail.push(d);
    nova.push(n);
  }
  return { createRate, detailMs: median(detail), novaMs: median(nova), rssMiB: peakRssMiB(target.pid) };
}

async function main(): Promise<void> {
  const nodes = arg('nodes', 10000);
  const rounds = arg('rounds', 5);
  const concurrency = arg('concurrency', 8);
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  const only = process.argv.indexOf('--only');
  const kinds = only > 0 ? [process.argv[only + 1] as Target['kind']] : (['ironic-ts', 'reference'] as const);
  for (const kind of kinds) {
    const target = await startTarget({ kind });
    try {
      results[kind] = await measure(target, nodes, rounds, concurrency);
    } finally {
      await target.stop();
    }
    process.stdout.write(`${kind}: ${JSON.stringify(results[kind])}\n`);
  }
  const ours = results['ironic-ts'];
  const ref = results.reference;
  if (!ours || !ref) return;
  process.stdout.write(
    [
      `nodes: ${nodes}, rounds: ${rounds}, create concurrency: ${concurrency}`,
      `create throughput  ironic-ts ${ours.createRate.toFixed(0)}/s  reference ${ref.createRate.toFixed(0)}/s  ratio ${ratio(ours.createRate, ref.createRate)}`,
      `GET /nodes/detail  ironic-ts ${ours.detailMs.toFixed(0)} ms  reference ${ref.detailMs.toFixed(0)} ms  ratio ${ratio(ref.detailMs, ours.detailMs)}`,
      `Nova query         ironic-ts ${ours.novaMs.toFixed(0)} ms  reference ${ref.novaMs.toFixed(0)} ms  ratio ${ratio(ref.novaMs, ours.novaMs)}`,
      `peak RSS           ironic-ts ${ours.rssMiB.toFixed(0)} MiB  reference ${ref.rssMiB.toFixed(0)} MiB  (${(ours.rssMiB / ref.rssMiB).toFixed(2)} of reference)`,
    ].join('\n') + '\n',
  );
}

void main();
