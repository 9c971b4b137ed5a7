/**
 * The policies a node PATCH needs, one per operation path, as NodesController._get_patch_policies
 * (Ironic 21.4.4) picks them; baremetal:node:update when any path has no rule of its own.
 */
const INTERFACES = new Set(['bios', 'boot', 'console', 'deploy', 'inspect', 'management', 'network', 'power', 'raid',
  'rescue', 'storage', 'vendor']);

const PREFIX_RULES: [string, string][] = [
  ['/driver_info', 'baremetal:node:update:driver_info'],
  ['/properties', 'baremetal:node:update:properties'],
  ['/chassis_uuid', 'baremetal:node:update:chassis_uuid'],
  ['/instance_uuid', 'baremetal:node:update:instance_uuid'],
  ['/lessee', 'baremetal:node:update:lessee'],
  ['/owner', 'baremetal:node:update:owner'],
  ['/driver', 'baremetal:node:update:driver_interfaces'],
];

const LATER_RULES: [string, string][] = [
  ['/network_data', 'baremetal:node:update:network_data'],
  ['/conductor_group', 'baremetal:node:update:conductor_group'],
  ['/name', 'baremetal:node:update:name'],
  ['/retired', 'baremetal:node:update:retired'],
  ['/shard', 'baremetal:node:update:shard'],
  ['/maintenance', 'baremetal:node:set_maintenance'],
];

/** oslo strutils.bool_from_string(value, default=None) is False. */
function isFalseString(value: unknown): boolean {
  if (value === false) return true;
  if (value === null || value === undefined || value === true) return false;
  return ['0', 'f', 'false', 'n', 'no', 'off'].includes(String(value).trim().toLowerCase());
}

function isInterfacePath(path: string): boolean {
  const bare = path.replace(/^\/+/, '');
  const cut = bare.lastIndexOf('_');
  return cut >= 0 && bare.slice(cut + 1) === 'interface' && INTERFACES.has(bare.slice(0, cut));
}

function policyFor(op: { path: string; value?: unknown }): string | null {
  const { path } = op;
  if (path.startsWith('/instance_info')) return 'baremetal:node:update_instance_info';
  if (path.startsWith('/extra')) return 'baremetal:node:update_extra';
  if (path.startsWith('/automated_clean') && isFalseString(op.value)) return 'baremetal:node:disable_cleaning';
  for (const [prefix, rule] of PREFIX_RULES) if (path.startsWith(prefix)) return rule;
  if (isInterfacePath(path)) return 'baremetal:node:update:driver_interfaces';
  for (const [prefix, rule] of LATER_RULES) if (path.startsWith(prefix)) return rule;
  return null;
}

/** The rules to check, in Ironic's order; a body that is not a patch list gets the generic rule. */
export function nodePatchPolicies(body: unknown): string[] {
  const rules: string[] = [];
  let generic = false;
  for (const op of Array.isArray(body) ? body : []) {
    const path = op !== null && typeof op === 'object' && typeof (op as { path?: unknown }).path === 'string'
      ? (op as { path: string; value?: unknown }) : null;
    const rule = path ? policyFor(path) : null;
    if (rule) rules.push(rule);
    else generic = true;
  }
  if (generic || rules.length === 0) rules.push('baremetal:node:update');
  return rules;
}
