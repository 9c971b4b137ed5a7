/**
 * Which node events a stream's caller may see, decided by the API's own rules: the node list's
 * check_list_policy (every node, or only its project's as owner or lessee), node_sanitize's
 * redactions (last_error), and baremetal:node:history:get for history events. Without a policy
 * context (noauth, http_basic) the API shows everything, and so does the stream.
 */
import type { RequestAuth } from '../api/policy/scope';
import { inProjectScope, listProjectFor, nodeOwnerTarget } from '../api/policy/scope';
import { mayRedactNodes, redactNodeFields } from '../api/policy/node-redaction';
import type { NodeEvent, NodeView } from './node-events';

export interface StreamScope {
  /** The node as this caller sees it in this event, or null when the event is not for it. */
  viewOf(event: NodeEvent): NodeView | null;
}

const EVERYTHING: StreamScope = { viewOf: (event) => event.node };

/** Throws the API's HTTPForbidden when the caller may list no node at all. */
export function streamScope(auth: RequestAuth | undefined): StreamScope {
  if (!auth) return EVERYTHING;
  const project = listProjectFor(auth, 'node');
  const redacts = mayRedactNodes(auth);
  return {
    viewOf(event) {
      const node = event.node;
      if (!inProjectScope(project, node)) return null;
      if (event.type === 'history'
        && !auth.enforcer.allowed('baremetal:node:history:get', auth.creds, nodeOwnerTarget(auth, node))) return null;
      if (!redacts) return node;
      const copy: NodeView = { ...node };
      redactNodeFields(auth, copy as unknown as Record<string, unknown>, node);
      return copy.last_error === node.last_error ? node : copy;
    },
  };
}
