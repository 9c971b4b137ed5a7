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
}

/** The `project` filter a list must apply for this request ({} when it may see everything). */
export function listScope(auth: RequestAuth | undefined): { project?: string } {
  return auth?.listProject ? { project: auth.listProject } : {};
}
