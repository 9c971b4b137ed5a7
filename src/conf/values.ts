/** Turns option text from an INI file into typed values, as oslo.config's types do. */
import type { OptionSpec, OptionValue } from './option-spec';

export class InvalidOptionValue extends Error {
  constructor(readonly group: string, readonly option: string, detail: string) {
    super(`Invalid value for option [${group}]${option}: ${detail}`);
    this.name = 'InvalidOptionValue';
  }
}

const TRUE_WORDS = new Set(['true', '1', 'on', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'off', 'no']);

export function parseOptionValue(group: string, name: string, spec: OptionSpec, raw: string[]): OptionValue {
  const fail = (detail: string): never => {
    throw new InvalidOptionValue(group, name, detail);
  };
  if (spec.type === 'multistring') return raw.slice();
  const text = raw[raw.length - 1];
  let value: OptionValue;
  switch (spec.type) {
    case 'bool': {
      const word = text.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) value = true;
      else if (FALSE_WORDS.has(word)) value = false;
      else return fail(`'${text}' is not a boolean`);
      break;
    }
    case 'int':
    case 'port': {
      if (!/^[+-]?\d+$/.test(text.trim())) return fail(`'${text}' is not an integer`);
      value = Number.parseInt(text.trim(), 10);
      break;
    }
    case 'float': {
      const n = Number(text.trim());
      if (text.trim() === '' || Number.isNaN(n)) return fail(`'${text}' is not a number`);
      value = n;
      break;
    }
    case 'list':
      value = text.trim() === '' ? [] : text.split(',').map((item) => item.trim()).filter((item) => item !== '');
      break;
    case 'dict':
      value = parseDict(text, fail);
      break;
    default:
      value = text;
  }
  checkBounds(spec, value, fail);
  return value;
}

/** oslo's Dict type: 'key:value' pairs separated by commas, each split at its first colon. */
export function parseDict(text: string, fail: (detail: string) => never): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = pair.indexOf(':');
    if (at < 0) fail(`'${pair}' is not a key:value pair`);
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

function checkBounds(spec: OptionSpec, value: OptionValue, fail: (detail: string) => never): void {
  if (typeof value === 'number') {
    if (spec.min !== undefined && value < spec.min) fail(`${value} is less than the minimum ${spec.min}`);
    if (spec.max !== undefined && value > spec.max) fail(`${value} is greater than the maximum ${spec.max}`);
  }
  if (spec.choices && spec.choices.length && typeof value === 'string' && !spec.choices.includes(value)) {
    fail(`'${value}' is not one of ${spec.choices.filter((c) => c !== null).join(', ')}`);
  }
}
