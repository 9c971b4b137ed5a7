/**
 * A node's parent_node as a create body or a PATCH names it (api utils authorize_node_link of
 * Ironic 2025.1): the named node (UUID or name) must exist, the caller must be allowed to see it
 * and it must have the new node's owner; it is stored as its UUID. Every refusal is the same 400,
 * so the answer never tells whether a node the caller may not see exists.
 */
import { Invalid, IronicError } from '../../common/errors';
import { getNodeByIdent } from '../node-lookup';
import { mayGetNode } from '../policy/scope';
import * as args from '../schemas/args';
import { patchValues } from '../schemas/patch';
import type { PatchOp } from '../jsonpatch';
import type { ApiContext } from '../state';

function refusal(value: unknown): IronicError {
  return new Invalid(`Unable to apply the requested parent_node '${args.pyStr(value)}'. Requested value was invalid.`);
}

/** The UUID of the parent `value` names, for a node owned by `owner`. */
export async function parentNodeUuid(ctx: ApiContext, owner: string | null, value: unknown): Promise<string> {
  if (typeof value !== 'string') throw refusal(value);
  let parent;
  try {
    parent = await getNodeByIdent(ctx, value);
  } catch {
    throw refusal(value);
  }
  if (!mayGetNode(ctx.state.auth, parent) || parent.owner !== owner) throw refusal(value);
  return parent.uuid;
}

/** authorize_node_link_patch: the first value an add or replace of /parent_node sets, resolved; null when none does. */
export async function patchedParentNode(ctx: ApiContext, node: { owner: string | null }, patch: PatchOp[]):
  Promise<string | null> {
  const values = patchValues(patch, '/parent_node');
  if (values.length === 0) return null;
  return parentNodeUuid(ctx, node.owner, values[0]);
}
