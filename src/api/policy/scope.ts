/** What the policy layer leaves on a request for the controllers (Ironic's context + list scoping). */
import type { Identity } from '../../auth/identity';
import type { PolicyCreds } from './check';
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

/** check_owner_policy('node', 'baremetal:node:get', ...): whether the caller may see this node (always without auth). */
export function mayGetNode(auth: RequestAuth | undefined, node: { owner: string | null; lessee: string | null }): boolean {
  if (!auth) return true;
  const target = { ...auth.creds, 'node.owner': node.owner, ...(node.lessee ? { 'node.lessee': node.lessee } : {}) };
  return auth.enforcer.allowed('baremetal:node:get', auth.creds, target);
}

/** The `project` filter a list must apply for this request ({} when it may see everything). */
export function listScope(auth: RequestAuth | undefined): { project?: string } {
  return auth?.listProject ? { project: auth.listProject } : {};
}
