/**
 * A rule operation's arguments as Base._normalize_list_args makes them: a list is matched to the
 * signature by position, a dict is kept. Like Ironic, the plugin_data placeholder is added to the
 * caller's own args (so a stored rule's args show it).
 */
import { InspectionRuleValidationFailure } from '../errors';
import type { PluginSignature } from './signatures';

export type OpArgs = Record<string, unknown>;

export function normalizeArgs(sig: PluginSignature, opArgs: unknown): unknown {
  if (!Array.isArray(opArgs)) {
    if (isDict(opArgs) && sig.pluginData) opArgs.plugin_data = {};
    return opArgs;
  }
  if (sig.pluginData) opArgs.push({});
  if (opArgs.length < sig.required.length) {
    // Ironic 2025.1 passes a (format, names) tuple here, so its text is the tuple's repr; this says it plainly.
    throw new InspectionRuleValidationFailure(`Not enough arguments provided. Missing: ${sig.required.slice(opArgs.length).join(', ')}`);
  }
  const out: OpArgs = {};
  sig.required.forEach((name, i) => { out[name] = opArgs[i]; });
  sig.optional.forEach((name, i) => {
    const at = sig.required.length + i;
    if (at < opArgs.length) out[name] = opArgs[at];
  });
  return out;
}

/** Base.validate: missing or unexpected arguments are refused. */
export function validateArgs(sig: PluginSignature, opArgs: unknown): void {
  const args = normalizeArgs(sig, opArgs);
  if (!isDict(args)) throw new InspectionRuleValidationFailure('args must be either a list or dictionary');
  const provided = Object.keys(args);
  const missing = sig.required.filter((name) => !Object.hasOwn(args, name));
  const unexpected = provided.filter((name) => !sig.required.includes(name) && !sig.optional.includes(name));
  const msg: string[] = [];
  if (missing.length) msg.push(`missing required argument(s): ${missing.join(', ')}`);
  if (unexpected.length) msg.push(`unexpected argument(s): ${unexpected.join(', ')}`);
  if (msg.length) throw new InspectionRuleValidationFailure(msg.join('; '));
}

function isDict(value: unknown): value is OpArgs {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
