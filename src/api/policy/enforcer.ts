/**
 * Ironic 21.4.4's default policy (ironic/common/policy.py, dumped into ironic-policies.json by
 * scripts/dump-ironic-policies.py), with 2025.1's runbook rules and its set_provision_state
 * clean_steps/service_steps rules added by hand, evaluated as oslo.policy does with Ironic's defaults:
 * `[oslo_policy]enforce_new_defaults = False` ORs each rule with its deprecated pre-RBAC rule, and
 * `enforce_scope = False` only logs a scope mismatch. `[oslo_policy]policy_file` overrides
 * rules (policy-file.ts).
 */
import type { Config } from '../../conf/config';
import type { Identity } from '../../auth/identity';
import { HTTPForbidden } from '../../common/errors';
import { log } from '../../common/log';
import { policyOverrides } from './policy-file';
import { Check, PolicyCreds, PolicyTarget, evaluate, parseCheck } from './check';
import defaults from './ironic-policies.json';

interface PolicyDefault {
  name: string;
  check: string;
  scope_types: string[];
  deprecated: string | null;
}

export interface Enforcer {
  /** True when the rule passes for these credentials and target. */
  allowed(rule: string, creds: PolicyCreds, target?: PolicyTarget): boolean;
  /** Throws Ironic's HTTPForbidden (403, "Access was denied to the following resource: <rule>"). */
  authorize(rule: string, creds: PolicyCreds, target?: PolicyTarget): void;
}

export function createEnforcer(conf: Config): Enforcer {
  const withDeprecated = !conf.bool('oslo_policy', 'enforce_new_defaults');
  const enforceScope = conf.bool('oslo_policy', 'enforce_scope');
  const rules = new Map<string, Check>();
  const scopes = new Map<string, string[]>();
  const { files, rules: overrides } = policyOverrides(conf);
  if (files.length) log.info(`Policy overrides from ${files.join(', ')}: ${overrides.size} rules`);
  for (const rule of defaults as PolicyDefault[]) {
    // An overridden rule is the operator's alone: oslo adds the deprecated fallback only to defaults.
    const override = overrides.get(rule.name);
    const text = override ?? (withDeprecated && rule.deprecated ? `(${rule.check}) or (${rule.deprecated})` : rule.check);
    rules.set(rule.name, parseCheck(text));
    scopes.set(rule.name, rule.scope_types);
  }
  for (const [name, check] of overrides) if (!rules.has(name)) rules.set(name, parseCheck(check));
  const lookup = (name: string): Check | undefined => rules.get(name);

  const allowed = (rule: string, creds: PolicyCreds, target: PolicyTarget = creds): boolean => {
    const check = rules.get(rule);
    if (!check) return false;
    const scopeTypes = scopes.get(rule) ?? [];
    if (scopeTypes.length > 0 && !scopeTypes.includes(tokenScope(creds))) {
      if (enforceScope) return false;
      log.debug(`Policy ${rule} is not meant for a ${tokenScope(creds)}-scoped token`);
    }
    return evaluate(check, { ...creds, ...target }, creds, lookup);
  };
  return {
    allowed,
    authorize(rule, creds, target) {
      if (allowed(rule, creds, target)) return;
      log.error(`Rejecting authorization: ${rule} is disallowed by policy`);
      throw new HTTPForbidden({ resource: rule });
    },
  };
}

function tokenScope(creds: PolicyCreds): string {
  if (creds.system_scope) return 'system';
  if (creds.domain_id) return 'domain';
  return 'project';
}

/** RequestContext.to_policy_values() of Ironic for a validated identity. */
export function policyCreds(identity: Identity, conf: Config, isPublicApi: boolean): PolicyCreds {
  const creds: PolicyCreds = {
    user_id: identity.userId,
    user_domain_id: identity.userDomainId,
    system_scope: identity.systemScope,
    domain_id: identity.domainId,
    project_id: identity.projectId,
    project_domain_id: identity.projectDomainId,
    roles: identity.roles,
    is_admin_project: identity.isAdminProject,
    service_user_id: null,
    service_user_domain_id: null,
    service_project_id: null,
    service_project_domain_id: null,
    service_roles: [],
    project_name: identity.projectName,
    is_public_api: isPublicApi,
  };
  const serviceProject = conf.optStr('DEFAULT', 'rbac_service_project_name');
  if (conf.bool('DEFAULT', 'rbac_service_role_elevated_access') && serviceProject !== null) {
    creds['config.service_project_name'] = serviceProject;
  }
  return creds;
}
