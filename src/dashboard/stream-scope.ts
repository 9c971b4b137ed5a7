/**
 * Which node events a stream's caller may see, decided by the API's own rules: the node list's
 * check_list_policy (every node, or only its project's as owner or lessee), node_sanitize's
 * redactions (last_error), and baremetal:node:history:get for history events. Without a policy
 * context (noauth, http_basic) the API shows everything, and so does the stream.
 */
import type { RequestAuth } from '../api/policy/scope';
import { inProjectScope, listProjectFor, nodeOwnerTarget } from '../api/policy/scope';
import { mayRedactNodes, redactNodeFields } from '../api/policy/node-redaction';
import type { NodeEvent, NodeEventType, NodeView } from './node-events';

export interface StreamScope {
  /**
   * The event as this caller sees it, or null when it is not for it: a node that enters the
   * caller's view (its owner or lessee changed) is `created` for it, one that leaves is `deleted`
   * (with the fields the caller saw last).
   */
  viewOf(event: NodeEvent): { type: NodeEventType; node: NodeView } | null;
}

const EVERYTHING: StreamScope = { viewOf: (event) => ({ type: event.type, node: event.node }) };

/** Throws the API's HTTPForbidden when the caller may list no node at all. */
export function streamScope(auth: RequestAuth | undefined): StreamScope {
  if (!auth) return EVERYTHING;
  const project = listProjectFor(auth, 'node');
  const redacts = mayRedactNodes(auth);
  const shown = (node: NodeView): NodeView => {
    if (!redacts) return node;
    const copy: NodeView = { ...node };
    redactNodeFields(auth, copy as unknown as Record<string, unknown>, node);
    return copy.last_error === node.last_error ? node : copy;
  };
  return {
    viewOf(event) {
      const node = event.node;
      const seen = inProjectScope(project, node);
      const seenBefore = event.previous === undefined ? seen : inProjectScope(project, event.previous);
      if (!seen) return seenBefore && event.previous ? { type: 'deleted', node: shown(event.previous) } : null;
      if (!seenBefore) return { type: 'created', node: shown(node) };
      if (event.type === 'history'
        && !auth.enforcer.allowed('baremetal:node:history:get', auth.creds, nodeOwnerTarget(auth, node))) return null;
      return { type: event.type, node: shown(node) };
    },
  };
}
