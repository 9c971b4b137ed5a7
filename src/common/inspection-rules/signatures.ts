/**
 * The condition operators and actions of inspection rules (common/inspection_rules operators.py and
 * actions.py of Ironic 2025.1), by name in Ironic's order: their arguments as the Python
 * `__call__` signatures declare them (after `task`), which of them are interpolated with
 * `{inventory[...]}` placeholders, and whether the plugin data is passed in. The API validates rules
 * against these and the conductor's engine implements each name.
 */
export interface PluginSignature {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /** FORMATTED_ARGS: interpolated even outside a loop. */
  readonly formatted: readonly string[];
  /** REQUIRES_PLUGIN_DATA: `plugin_data` is the last required argument, filled at run time. */
  readonly pluginData: boolean;
}

function sig(required: string[], optional: string[] = [], formatted: string[] = [], pluginData = false): PluginSignature {
  return { required, optional, formatted, pluginData };
}

const SIMPLE = sig(['values'], ['force_strings']);
const ONE_VALUE = sig(['value'], [], ['value']);
const REGEX = sig(['value', 'regex'], [], ['value']);

export const OPERATORS: ReadonlyMap<string, PluginSignature> = new Map([
  ['eq', SIMPLE],
  ['lt', SIMPLE],
  ['gt', SIMPLE],
  ['is-empty', ONE_VALUE],
  ['in-net', sig(['address', 'subnet'], [], ['address', 'subnet'])],
  ['matches', REGEX],
  ['contains', REGEX],
  ['one-of', sig(['value'], ['values'], ['value'])],
  ['is-none', ONE_VALUE],
  ['is-true', ONE_VALUE],
  ['is-false', ONE_VALUE],
]);

export const ACTIONS: ReadonlyMap<string, PluginSignature> = new Map([
  ['fail', sig(['msg'])],
  ['set-attribute', sig(['path', 'value'], [], ['value'])],
  ['set-capability', sig(['name', 'value'], [], ['value'])],
  ['unset-capability', sig(['name'])],
  ['extend-attribute', sig(['path', 'value'], ['unique'], ['value'])],
  ['add-trait', sig(['name'])],
  ['remove-trait', sig(['name'])],
  ['set-plugin-data', sig(['path', 'value', 'plugin_data'], [], ['value'], true)],
  ['extend-plugin-data', sig(['path', 'value', 'plugin_data'], ['unique'], ['value'], true)],
  ['unset-plugin-data', sig(['path', 'plugin_data'], [], [], true)],
  ['log', sig(['msg'], ['level'], ['msg'])],
  ['del-attribute', sig(['path'])],
  ['set-port-attribute', sig(['port_id', 'path', 'value'], [], ['value'])],
  ['extend-port-attribute', sig(['port_id', 'path', 'value'], ['unique'], ['value'])],
  ['del-port-attribute', sig(['port_id', 'path'])],
]);

/** parse_inverted_operator: "!eq" is eq inverted; more than one "!" is refused. */
export function parseInvertedOperator(op: string): { op: string; inverted: boolean } {
  const trimmed = op.trim();
  if ((trimmed.match(/!/g) ?? []).length > 1) {
    throw new Error('Multiple exclamation marks are not allowed. To apply the invert of an operation, simply add an ' +
      'exclamation mark (with an optional space) before the operator, e.g. eq - !eq.');
  }
  return { op: trimmed.replace(/^!+/, '').trim(), inverted: trimmed.startsWith('!') };
}

/** normalize_path: "a/b/c" or "a.b.c" as its parts. */
export function normalizePath(path: string): string[] {
  return path.includes('/') ? path.replace(/^\/+|\/+$/g, '').split('/') : path.split('.');
}
