/**
 * The fixed read-only request sequence answered by Ironic before the switch and by ironic-ts after
 * it. Same database, so uuids, names and timestamps are compared literally; only what belongs to the
 * process (port in links, request ids, sub-second digits of timestamps) is normalised.
 */
import { call, LATEST, LATEST_2025 } from './api';
import type { Inventory, Inventory2025 } from './fill';
import { compareResponses } from '../differential/compare';
import type { Difference, NormalizedResponse } from '../differential/types';

export interface Request { path: string; version: string | null }
export interface Snapshot { request: Request; answer: NormalizedResponse }
export interface RequestDifference { request: string; differences: Difference[] }

const REQ_ID_RE = /req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const SUBSECOND_RE = /(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})\.\d+/g;
const COMPARED_HEADERS = ['content-type', 'x-openstack-ironic-api-minimum-version', 'x-openstack-ironic-api-maximum-version',
  'x-openstack-ironic-api-version'];
const MAX_HEADER = 'x-openstack-ironic-api-maximum-version';
/** Python builds these from sets: their order changes between processes, so compare them sorted. */
const UNORDERED_KEYS = /^enabled_[a-z]+_interfaces$/;

export function requestSequence(inv: Inventory): Request[] {
  const seq: Request[] = [
    { path: '/v1/nodes/detail', version: LATEST },
    { path: '/v1/nodes/detail', version: null },
    { path: '/v1/nodes', version: LATEST },
  ];
  for (const n of inv.nodes) {
    seq.push({ path: `/v1/nodes/${n}`, version: '1.1' }, { path: `/v1/nodes/${n}`, version: LATEST },
      { path: `/v1/nodes/${n}/traits`, version: LATEST }, { path: `/v1/nodes/${n}/vifs`, version: LATEST },
      { path: `/v1/nodes/${n}/states`, version: LATEST });
  }
  seq.push(
    { path: '/v1/nodes/adopt-active', version: LATEST },
    { path: `/v1/nodes/${inv.nodes[3]}/ports/detail`, version: LATEST },
    { path: '/v1/ports/detail', version: LATEST },
    { path: `/v1/ports/${inv.ports[0]}`, version: '1.1' },
    { path: '/v1/portgroups/detail', version: LATEST },
    { path: `/v1/portgroups/${inv.portgroup}/ports/detail`, version: LATEST },
    { path: '/v1/chassis/detail', version: LATEST },
    { path: `/v1/chassis/${inv.chassis}/nodes`, version: LATEST },
    { path: '/v1/deploy_templates?detail=True', version: LATEST },
    { path: `/v1/deploy_templates/${inv.template}`, version: LATEST },
    { path: '/v1/drivers', version: LATEST },
    { path: '/v1/drivers/fake-hardware', version: LATEST },
  );
  if (inv.v2025 !== undefined) seq.push(...sequence2025(inv, inv.v2025));
  return seq;
}

/** The same reads at 1.96 and what only 2025.1 holds: children, named ports, runbooks, inspection rules. */
function sequence2025(inv: Inventory, extra: Inventory2025): Request[] {
  const v = LATEST_2025;
  return [
    { path: '/v1/nodes/detail', version: v },
    { path: '/v1/nodes/detail?include_children=True', version: v },
    { path: `/v1/nodes?parent_node=${inv.nodes[2]}`, version: v },
    { path: `/v1/nodes/${inv.nodes[2]}/children`, version: v },
    ...[...inv.nodes, extra.child].map((n) => ({ path: `/v1/nodes/${n}`, version: v })),
    { path: `/v1/nodes/${inv.nodes[3]}/firmware`, version: v },
    { path: '/v1/ports/detail', version: v },
    { path: '/v1/ports/adopt-port-named', version: v },
    { path: '/v1/portgroups/detail', version: v },
    { path: '/v1/runbooks?detail=True', version: v },
    { path: `/v1/runbooks/${extra.runbook}`, version: v },
    { path: '/v1/runbooks/CUSTOM_ADOPT_RUNBOOK', version: v },
    { path: '/v1/inspection_rules?detail=True', version: v },
    { path: `/v1/inspection_rules/${extra.rule}`, version: v },
    { path: '/v1/deploy_templates?detail=True', version: v },
    { path: '/v1/drivers/fake-hardware', version: v },
  ];
}

function normalizeText(s: string, port: number): string {
  return s.replace(REQ_ID_RE, '<req>').split(`127.0.0.1:${port}`).join('<endpoint>').replace(SUBSECOND_RE, '$1');
}

function normalizeValue(v: unknown, port: number, key?: string): unknown {
  if (typeof v === 'string') return normalizeText(v, port);
  if (Array.isArray(v)) {
    const items = v.map((i) => normalizeValue(i, port));
    return key !== undefined && UNORDERED_KEYS.test(key) ? items.map((i) => JSON.stringify(i)).sort().map((i) => JSON.parse(i) as unknown) : items;
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v)) out[k] = normalizeValue(child, port, k);
    return out;
  }
  return v;
}

export async function takeSnapshot(base: string, seq: Request[]): Promise<Snapshot[]> {
  const port = Number(new URL(base).port);
  const out: Snapshot[] = [];
  for (const request of seq) {
    const raw = await call(base, 'GET', request.path, undefined, request.version);
    const headers: Record<string, string | null> = {};
    for (const h of COMPARED_HEADERS) headers[h] = raw.headers[h] ?? null;
    // Each server states its own newest version (ironic-ts serves 29.0.5's 1.96 whatever the database's Ironic was).
    if (headers[MAX_HEADER] !== null) headers[MAX_HEADER] = '<max>';
    const body = raw.bodyText === '' ? null : normalizeValue(JSON.parse(raw.bodyText) as unknown, port);
    out.push({ request, answer: { status: raw.status, headers, body } });
  }
  return out;
}

export function diffSnapshots(reference: Snapshot[], candidate: Snapshot[]): RequestDifference[] {
  const out: RequestDifference[] = [];
  reference.forEach((ref, i) => {
    const differences = compareResponses(ref.answer, candidate[i].answer);
    if (differences.length) out.push({ request: `GET ${ref.request.path} @${ref.request.version ?? 'default'}`, differences });
  });
  return out;
}

export function describe(diffs: RequestDifference[]): string {
  return diffs.map((d) => `${d.request}\n${d.differences.map((x) => `  ${x.path}: reference ${x.reference} | ironic-ts ${x.candidate}`).join('\n')}`).join('\n');
}
