/** What the policy layer leaves on a request for the controllers (Ironic's context + list scoping). */
import type { Identity } from '../../auth/identity';
import type { PolicyCreds, PolicyTarget } from './check';
import type { Enforcer } from './enforcer';
import { HTTPForbidden } from '../../common/errors';

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

/**
 * check_list_policy: null when the caller may list every `object` (list_all), else the one project
 * whose objects it may list (list, and no `asked` filter naming another project); HTTPForbidden
 * otherwise. Node lists and the dashboard's event stream both decide with it.
 */
export function listProjectFor(auth: RequestAuth, object: string, asked: string | null = null): string | null {
  const { enforcer, creds } = auth;
  if (enforcer.allowed(`baremetal:${object}:list_all`, creds)) return null;
  const project = typeof creds.project_id === 'string' ? creds.project_id : null;
  if (!project || (asked !== null && asked !== project)) throw new HTTPForbidden({ resource: `baremetal:${object}:list_all` });
  enforcer.authorize(`baremetal:${object}:list`, creds);
  return project;
}

/** Whether a node is in a project-limited node list (the node filter `project`: owner or lessee). */
export function inProjectScope(project: string | null, node: NodeOwners): boolean {
  return project === null || node.owner === project || node.lessee === project;
}

/** The `project` filter a list must apply for this request ({} when it may see everything). */
export function listScope(auth: RequestAuth | undefined): { project?: string } {
  return auth?.listProject ? { project: auth.listProject } : {};
}

/** check_owner_policy for an owned object other than a node (runbook): the rule against `<object>.owner`. */
export function authorizeOwned(auth: RequestAuth | undefined, policy: string, object: string, owner: string | null): void {
  if (auth) auth.enforcer.authorize(policy, auth.creds, { ...auth.creds, [`${object}.owner`]: owner });
}
