/**
 * The policies a node PATCH needs, one per operation path, as NodesController._get_patch_policies
 * (Ironic 21.4.4) picks them; baremetal:node:update when any path has no rule of its own.
 */
import { NODE_FIELD_REGISTRY, NodeFieldDecl, NodePatchPolicy } from '../../db/node-fields';

type Ruled = NodeFieldDecl & { policy: NodePatchPolicy };

const RULED: readonly Ruled[] = NODE_FIELD_REGISTRY.filter((f): f is Ruled => f.policy !== undefined);
const rulesFor = (match: NodePatchPolicy['match']): [string, string][] =>
  RULED.filter((f) => f.policy.match === match).map((f) => [f.name, f.policy.rule]);

/** Rules for the paths a false value disables something at (automated_clean). */
const DISABLING_RULES = rulesFor('disabling').map(([field, rule]) => [`/${field}`, rule]);

/** Rules by path prefix, longest first: Ironic tests /driver_info before /driver. */
const PREFIX_RULES = rulesFor(undefined).map(([field, rule]) => [`/${field}`, rule]).sort(([a], [b]) => b.length - a.length);

/** driver_base.ALL_INTERFACES as the paths name them (`<kind>_interface`), with their rule. */
const INTERFACE_RULES: ReadonlyMap<string, string> = new Map(rulesFor('interface')
  .map(([field, rule]) => [field.slice(0, -'_interface'.length), rule]));

/** oslo strutils.bool_from_string(value, default=None) is False. */
function isFalseString(value: unknown): boolean {
  if (value === false) return true;
  if (value === null || value === undefined || value === true) return false;
  return ['0', 'f', 'false', 'n', 'no', 'off'].includes(String(value).trim().toLowerCase());
}

/** The rule of the driver interface a path names (bare, as Ironic's rsplit sees it), if it names one. */
function interfaceRule(path: string): string | undefined {
  const bare = path.replace(/^\/+/, '');
  const cut = bare.lastIndexOf('_');
  return cut >= 0 && bare.slice(cut + 1) === 'interface' ? INTERFACE_RULES.get(bare.slice(0, cut)) : undefined;
}

function policyFor(op: { path: string; value?: unknown }): string | null {
  const { path } = op;
  for (const [prefix, rule] of DISABLING_RULES) if (path.startsWith(prefix) && isFalseString(op.value)) return rule;
  for (const [prefix, rule] of PREFIX_RULES) if (path.startsWith(prefix)) return rule;
  return interfaceRule(path) ?? null;
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
