/** The condition operators of inspection rules (common/inspection_rules/operators.py), by name. */
import { BlockList, isIP } from 'node:net';
import { InspectionRuleExecutionFailure, RuleConditionCheckFailure } from '../../common/errors';
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import type { OpArgs } from '../../common/inspection-rules/arguments';
import { pyEquals, pyTypeName } from './python-values';
import { pythonRegex } from './regex';

type Check = (args: OpArgs) => boolean;

function compare(op: string, a: unknown, b: unknown): boolean {
  const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null);
  const [na, nb] = [num(a), num(b)];
  if (na !== null && nb !== null) return op === 'lt' ? na < nb : na > nb;
  if (typeof a === 'string' && typeof b === 'string') return op === 'lt' ? a < b : a > b;
  throw new TypeError(`'${op === 'lt' ? '<' : '>'}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** SimpleOperator: the relation holds between each neighbouring pair of `values`. */
function simple(op: 'eq' | 'lt' | 'gt'): Check {
  return ({ values, force_strings: forceStrings }) => {
    if (!Array.isArray(values)) {
      const msg = `Failed to check condition: '${op}' on values: ${pyStr(values)}: Expected list for 'values', got: ${pyTypeName(values)}`;
      log.error(msg);
      throw new RuleConditionCheckFailure({ reason: msg });
    }
    if (values.length < 2) return true;
    const items = forceStrings ? values.map(pyStr) : values;
    return items.slice(1).every((b, i) => (op === 'eq' ? pyEquals(items[i], b) : compare(op, items[i], b)));
  };
}

function inNet({ address, subnet }: OpArgs): boolean {
  const [network, prefix] = String(subnet).split('/');
  const family = isIP(network);
  if (family === 0) throw new InspectionRuleExecutionFailure({ reason: `invalid value: invalid IPNetwork ${pyStr(subnet)}` });
  const type = family === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  list.addSubnet(network, prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix), type);
  if (isIP(String(address)) === 0) throw new TypeError(`failed to detect a valid IP address from ${pyRepr(address)}`);
  return isIP(String(address)) === family && list.check(String(address), type);
}

function isTrue({ value }: OpArgs): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['yes', 'true'].includes(value.toLowerCase());
  return false;
}

function isFalse({ value }: OpArgs): boolean {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'string') return ['no', 'false'].includes(value.toLowerCase());
  return value === null || value === undefined;
}

/** `value in values`: membership in a list, a substring of a string. */
function oneOf({ value, values = [] }: OpArgs): boolean {
  if (Array.isArray(values)) return values.some((v) => pyEquals(v, value));
  if (typeof values === 'string' && typeof value === 'string') return values.includes(value);
  if (values !== null && typeof values === 'object') return typeof value === 'string' && Object.hasOwn(values, value);
  throw new TypeError(`argument of type '${pyTypeName(values)}' is not iterable`);
}

export const OPERATOR_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['eq', simple('eq')],
  ['lt', simple('lt')],
  ['gt', simple('gt')],
  ['is-empty', ({ value }) => ['', 'None', '[]', '{}'].includes(pyStr(value ?? null))],
  ['in-net', inNet],
  ['matches', ({ value, regex }) => pythonRegex(String(regex), true).test(pyStr(value ?? null))],
  ['contains', ({ value, regex }) => pythonRegex(String(regex), false).test(pyStr(value ?? null))],
  ['one-of', oneOf],
  ['is-none', ({ value }) => value === null || value === undefined],
  ['is-true', isTrue],
  ['is-false', isFalse],
]);
