/** What the policy layer leaves on a request for the controllers (Ironic's context + list scoping). */
import type { Identity } from '../../auth/identity';
import type { PolicyCreds, PolicyTarget } from './check';
import type { Enforcer } from './enforcer';

export interface RequestAuth {
  identity: Identity | null;
  isPublicApi: boolean;
  creds: PolicyCreds;
  enforcer: Enforcer;
  /**
   * Set when the caller may only list its own project's resources (check_list_policy: list_all
   * denied, list allowed): lists filter on owner or lessee = this project.
   */
  listProject?: string;
  /** Allocation create: the owner the policy step gives a project-scoped caller's allocation. */
  allocationOwner?: string | null;
  /** Allocation create: candidate nodes must be owned or leased by this project. */
  candidateProject?: string;
}

type NodeOwners = { owner: string | null; lessee: string | null };

/** check_owner_policy's target for a node: its owner always, its lessee only when set. */
export function nodeOwnerTarget(auth: RequestAuth, node: NodeOwners | null): PolicyTarget {
  return { ...auth.creds, 'node.owner': node?.owner ?? null, ...(node?.lessee ? { 'node.lessee': node.lessee } : {}) };
}

/** check_owner_policy('node', 'baremetal:node:get', ...): whether the caller may see this node (always without auth). */
export function mayGetNode(auth: RequestAuth | undefined, node: NodeOwners): boolean {
  return !auth || auth.enforcer.allowed('baremetal:node:get', auth.creds, nodeOwnerTarget(auth, node));
}

/** The `project` filter a list must apply for this request ({} when it may see everything). */
export function listScope(auth: RequestAuth | undefined): { project?: string } {
  return auth?.listProject ? { project: auth.listProject } : {};
}

/** check_owner_policy for an owned object other than a node (runbook): the rule against `<object>.owner`. */
export function authorizeOwned(auth: RequestAuth | undefined, policy: string, object: string, owner: string | null): void {
  if (auth) auth.enforcer.authorize(policy, auth.creds, { ...auth.creds, [`${object}.owner`]: owner });
}
