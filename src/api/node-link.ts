/**
 * authorize_node_link (Ironic 29.0.5): a PATCH pointing a volume connector or target at another
 * node may only name a node the caller can see and that has the same owner. Every refusal, a node
 * that does not exist included, gets the same message, so the answer does not reveal which nodes exist.
 */
import { Invalid } from '../common/errors';
import type { NodeRecord } from '../db/models';
import { getNodeByIdent } from './node-lookup';
import { mayGetNode } from './policy/scope';
import * as args from './schemas/args';
import type { ApiContext } from './state';

export async function authorizeNodeLink(ctx: ApiContext, current: NodeRecord, ident: unknown, field: string): Promise<NodeRecord> {
  const refused = new Invalid(`Unable to apply the requested ${field} '${args.pyStr(ident)}'. Requested value was invalid.`);
  let linked: NodeRecord;
  try {
    linked = await getNodeByIdent(ctx, String(ident));
  } catch {
    throw refused;
  }
  if (!mayGetNode(ctx.state.auth, linked) || linked.owner !== current.owner) throw refused;
  return linked;
}
