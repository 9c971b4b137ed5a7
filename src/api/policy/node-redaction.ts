/**
 * node_sanitize's policy part: callers without baremetal:node:get:filter_threshold (project-scoped
 * users) see last_error, reservation, driver_internal_info and driver_info replaced by Ironic's
 * "Redacted" texts unless the per-field rule (owner readers) grants them for that node.
 */
import type { Database } from '../../db/connection';
import { NODE_FIELD_REGISTRY, NodeFieldDecl, NodeRedaction } from '../../db/node-fields';
import type { RequestAuth } from './scope';
import type { PolicyTarget } from './check';

/** [field, rule, text] of each field node_sanitize redacts (src/db/node-fields.ts). */
type Redacted = [string, string, string];

const redacted = (dict: boolean): Redacted[] => NODE_FIELD_REGISTRY
  .filter((f): f is NodeFieldDecl & { redact: NodeRedaction } => f.redact !== undefined && (f.column === 'dict') === dict)
  .map((f) => [f.name, f.redact.rule, f.redact.text]);
const STRING_FIELDS = redacted(false);
const DICT_FIELDS = redacted(true);

type NodeBody = Record<string, unknown>;

/** The node dicts of a node response: one node, or a `nodes` collection. */
function nodesIn(body: unknown): NodeBody[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return [];
  const nodes = (body as { nodes?: unknown }).nodes;
  if (Array.isArray(nodes)) return nodes.filter((n): n is NodeBody => n !== null && typeof n === 'object');
  return 'uuid' in body || 'driver' in body || 'name' in body ? [body as NodeBody] : [];
}

/**
 * Owner and lessee per node: from the body when it carries them, else from the database by
 * uuid; a node the body does not identify counts as not owned (its fields stay redacted).
 */
async function ownership(db: Database, nodes: NodeBody[]): Promise<Map<NodeBody, { owner: unknown; lessee: unknown }>> {
  const missing = nodes.filter((n) => !('owner' in n && 'lessee' in n) && typeof n.uuid === 'string').map((n) => n.uuid as string);
  const rows = missing.length
    ? await db.knex('nodes').select('uuid', 'owner', 'lessee').whereIn('uuid', missing) as { uuid: string; owner: unknown; lessee: unknown }[]
    : [];
  const byUuid = new Map(rows.map((r) => [r.uuid, r]));
  return new Map(nodes.map((n) => [n, 'owner' in n && 'lessee' in n
    ? { owner: n.owner, lessee: n.lessee }
    : byUuid.get(n.uuid as string) ?? { owner: null, lessee: null }]));
}

/** Whether redactNodeBodies may change anything for this caller (never without auth). */
export function mayRedactNodes(auth: RequestAuth | undefined): boolean {
  return auth !== undefined && !auth.enforcer.allowed('baremetal:node:get:filter_threshold', auth.creds);
}

export async function redactNodeBodies(db: Database, auth: RequestAuth, body: unknown): Promise<void> {
  if (!mayRedactNodes(auth)) return;
  const nodes = nodesIn(body).filter((n) => [...STRING_FIELDS, ...DICT_FIELDS].some(([field]) => Object.hasOwn(n, field)));
  if (nodes.length === 0) return;
  const owners = await ownership(db, nodes);
  for (const node of nodes) redactNodeFields(auth, node, owners.get(node) ?? { owner: null, lessee: null });
}

/** node_sanitize's redactions of one node dict (the fields it holds), given the node's owner and lessee. */
export function redactNodeFields(auth: RequestAuth, node: NodeBody, { owner, lessee }: { owner: unknown; lessee: unknown }): void {
  const { enforcer, creds } = auth;
  // node_sanitize adds node.owner / node.lessee to the target only when set.
  const target: PolicyTarget = { ...creds, ...(owner ? { 'node.owner': owner } : {}), ...(lessee ? { 'node.lessee': lessee } : {}) };
  for (const [field, rule, text] of STRING_FIELDS) {
    if (Object.hasOwn(node, field) && !enforcer.allowed(rule, creds, target)) node[field] = text;
  }
  for (const [field, rule, text] of DICT_FIELDS) {
    if (Object.hasOwn(node, field) && !enforcer.allowed(rule, creds, target)) node[field] = { content: text };
  }
}
