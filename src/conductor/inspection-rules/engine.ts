/**
 * Running inspection rules on a node's inspection data (common/inspection_rules/engine.py): the
 * phase's stored rules and the built-in ones, highest priority first; a rule whose conditions all
 * hold applies its actions. Rules read the data with secrets masked per [inspection_rules]mask_secrets.
 */
import { HardwareInspectionFailure, IronicError } from '../../common/errors';
import { log } from '../../common/log';
import { normalizeArgs, type OpArgs } from '../../common/inspection-rules/arguments';
import { ACTIONS, OPERATORS, parseInvertedOperator, type PluginSignature } from '../../common/inspection-rules/signatures';
import type { RuleDict, RuleOperation } from '../../common/inspection-rules/validation';
import * as rulesRepo from '../../db/repositories/inspection-rules';
import type { Task } from '../task';
import { ACTION_RUNNERS } from './actions';
import { builtInRules } from './built-in';
import { interpolate, type FormatContext } from './interpolate';
import { OPERATOR_CHECKS } from './operators';

type Data = Record<string, unknown>;

const SENSITIVE_FIELDS = ['password', 'auth_token', 'bmc_password'];

/** ShallowMaskDict as a copy: sensitive keys read as '***' at any depth. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SENSITIVE_FIELDS.includes(k) ? '***' : masked(v)]));
  }
  return value;
}

interface RuleData {
  task: Task;
  inventory: Data;
  /** What conditions and interpolation read (masked or not). */
  pluginDataView: Data;
  /** What plugin-data actions change. */
  pluginData: Data;
}

/** Base._process_args: positional args named, plugin_data filled, formatted args (every arg in a loop) interpolated. */
function processArgs(sig: PluginSignature, op: RuleOperation, data: RuleData, item?: { item: unknown }): OpArgs {
  const raw = structuredClone(Object.hasOwn(op, 'args') ? op.args : {});
  const args = normalizeArgs(sig, raw) as OpArgs;
  if (sig.pluginData) args.plugin_data = data.pluginData;
  const context: FormatContext = { node: data.task.node, inventory: data.inventory, plugin_data: data.pluginDataView, ...item };
  const out: OpArgs = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === 'plugin_data' && sig.pluginData) out[key] = value;
    else if (item) out[key] = interpolate(value, context, true);
    else out[key] = sig.formatted.includes(key) ? interpolate(value, context) : value;
  }
  return out;
}

function loopItems(loop: unknown): { item: unknown }[] | null {
  if (Array.isArray(loop) && loop.length) return loop.map((item) => ({ item }));
  if (loop !== null && typeof loop === 'object' && Object.keys(loop).length) return [{ item: loop }];
  return null;
}

function checkOne(condition: RuleOperation, data: RuleData, item?: { item: unknown }): boolean {
  const { op, inverted } = parseInvertedOperator(condition.op);
  const sig = OPERATORS.get(op)!;
  const args = processArgs(sig, condition, data, item);
  if (item && sig.optional.includes('force_strings')) args.force_strings = true;
  const result = OPERATOR_CHECKS.get(op)!(args);
  return inverted ? !result : result;
}

/** OperatorBase.check_with_loop: `multiple` says how the loop's results combine. */
function checkCondition(condition: RuleOperation, data: RuleData): boolean {
  const items = loopItems(condition.loop);
  if (!items) return checkOne(condition, data);
  const multiple = condition.multiple ?? 'any';
  if (!Array.isArray(condition.loop)) return checkOne(condition, data, items[0]);
  let results: boolean[] = [];
  for (const item of items) {
    const result = checkOne(condition, data, item);
    results.push(result);
    if (multiple === 'first' && result) return true;
    if (multiple === 'last') results = [result];
  }
  if (multiple === 'any') return results.some(Boolean);
  if (multiple === 'all') return results.every(Boolean);
  return results[0] ?? false;
}

async function applyActions(rule: RuleDict, data: RuleData): Promise<void> {
  for (const action of rule.actions) {
    const sig = ACTIONS.get(action.op)!;
    const run = ACTION_RUNNERS.get(action.op)!;
    const items = loopItems(action.loop);
    for (const item of items ?? [undefined]) await run(data.task, processArgs(sig, action, data, item));
  }
}

function shouldMask(task: Task, rule: RuleDict): boolean {
  const mode = task.ctx.conf.str('inspection_rules', 'mask_secrets');
  return mode === 'always' || (mode === 'sensitive' && !rule.sensitive);
}

async function applyRule(task: Task, rule: RuleDict, inventory: Data, pluginData: Data): Promise<void> {
  const mask = shouldMask(task, rule);
  const data: RuleData = {
    task, pluginData,
    inventory: (mask ? masked(inventory) : inventory) as Data,
    pluginDataView: (mask ? masked(pluginData) : pluginData) as Data,
  };
  for (const condition of rule.conditions ?? []) {
    if (!checkCondition(condition, data)) {
      log.debug(`Skipping rule ${String(rule.uuid)} on node ${task.node.uuid}: condition check '${condition.op}' failed`);
      return;
    }
  }
  log.info(`Applying actions for rule ${String(rule.uuid)} to node ${task.node.uuid}`);
  await applyActions(rule, data);
}

/** apply_rules: an Ironic error stops the inspection as it is; any other becomes "Failed to apply rule ...". */
export async function applyRules(task: Task, inventory: Data, pluginData: Data, phase: string): Promise<void> {
  const stored = await rulesRepo.list(task.ctx.db, { phase }, { sortKey: 'id', sortDir: 'asc' });
  const rules: RuleDict[] = [...stored.map((r) => ({ ...r, conditions: r.conditions, actions: r.actions }) as unknown as RuleDict),
    ...builtInRules(task.ctx.conf)];
  if (rules.length === 0) return;
  rules.sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  for (const rule of rules) {
    try {
      await applyRule(task, rule, inventory, pluginData);
    } catch (err) {
      if (err instanceof HardwareInspectionFailure) throw err;
      if (err instanceof IronicError) {
        log.error(`Error applying rule ${String(rule.uuid)} to node ${task.node.uuid}: ${err.message}`);
        throw err;
      }
      const msg = `Failed to apply rule ${String(rule.uuid)} to node ${task.node.uuid}: ${err instanceof Error ? err.message : String(err)}`;
      log.error(msg);
      throw new IronicError(msg);
    }
  }
  log.info(`Finished applying inspection rules to node ${task.node.uuid}`);
}
