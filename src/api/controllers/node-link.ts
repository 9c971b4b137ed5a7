/**
 * A link to a node that a request sets: a node's parent_node (create body or PATCH) and a port's
 * node_uuid (PATCH), as api utils authorize_node_link of Ironic 2025.1 checks it. The named node
 * (UUID or name) must exist, the caller must be allowed to see it and it must have the linking
 * object's owner; the link stores its UUID. Every refusal is the same 400, so the answer never
 * tells whether a node the caller may not see exists.
 */
import { Invalid, IronicError } from '../../common/errors';
import { getNodeByIdent, NodeRecord } from '../node-lookup';
import { mayGetNode } from '../policy/scope';
import * as args from '../schemas/args';
import { patchValues } from '../schemas/patch';
import type { PatchOp } from '../jsonpatch';
import type { ApiContext } from '../state';

type LinkField = 'parent_node' | 'node_uuid';

function refusal(field: LinkField, value: unknown): IronicError {
  return new Invalid(`Unable to apply the requested ${field} '${args.pyStr(value)}'. Requested value was invalid.`);
}

/** The node `value` names, for an object owned by `owner`. */
export async function linkedNode(ctx: ApiContext, owner: string | null, value: unknown, field: LinkField): Promise<NodeRecord> {
  if (typeof value !== 'string') throw refusal(field, value);
  let node;
  try {
    node = await getNodeByIdent(ctx, value);
  } catch {
    throw refusal(field, value);
  }
  if (!mayGetNode(ctx.state.auth, node) || node.owner !== owner) throw refusal(field, value);
  return node;
}

/** authorize_node_link_patch: the node the first add or replace of /field names; null when none does. */
export async function patchedLinkedNode(ctx: ApiContext, current: { owner: string | null }, patch: PatchOp[], field: LinkField):
  Promise<NodeRecord | null> {
  const values = patchValues(patch, `/${field}`);
  if (values.length === 0) return null;
  return linkedNode(ctx, current.owner, values[0], field);
}
