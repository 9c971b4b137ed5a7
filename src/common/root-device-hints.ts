/**
 * Root device hints (ironic.common.utils parse_root_device_hints / find_devices_by_hints /
 * match_root_device_hints): a node's `root_device` property names disk attributes with optional
 * specs_matcher operators ("size": ">= 100", "model": "<in> samsung", "rotational": false).
 * String hints and disk values are compared lower-cased and URL-quoted; a hint without an
 * operator means equality ("s==" for strings, "==" for size, in GiB). Invalid hints raise a
 * ValueError (PyError) with Ironic's message.
 */
import { strictBoolFromString } from './python/bool-from-string';
import { log } from './log';
import { pyRepr } from './python/repr';
import { pyStr } from './python/str';
import { matchSpec, parseSpec, PyError, type SpecValue } from './specs-matcher';

type HintType = 'int' | 'str' | 'bool';

const VALID_HINTS: ReadonlyMap<string, HintType> = new Map([
  ['size', 'int'], ['model', 'str'], ['wwn', 'str'], ['serial', 'str'], ['vendor', 'str'],
  ['wwn_with_extension', 'str'], ['wwn_vendor_extension', 'str'], ['name', 'str'], ['rotational', 'bool'],
  ['hctl', 'str'], ['by_path', 'str'],
]);

const GIB = 1024 ** 3;

/** A disk as the ramdisk reports it (IPA's inventory `disks` entries). */
export type Device = Record<string, unknown>;

/** A parsed hint: a specs_matcher expression, or a boolean for `rotational`. */
type ParsedHints = Map<string, string | boolean>;


/** urllib.parse.quote with its default safe characters ("/" and the unreserved ones). */
function urlQuote(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    throw new PyError('ValueError', `'utf-8' codec can't encode characters: surrogates not allowed`);
  }
  return encoded.replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%2F/g, '/');
}

/** _extract_hint_operator_and_values: the operator ('' when none) and the lower-cased values. */
function operatorAndValues(expression: unknown, name: string): { op: string; values: string[] } {
  const text = pyStr(expression).trim().toLowerCase();
  if (!text) throw new PyError('ValueError', `Root device hint "${name}" expression is empty`);
  const tokens = parseSpec(text);
  if (tokens.length <= 1) return { op: '', values: [text] };
  const op = tokens[0];
  return { op, values: text.split(op).filter((v) => v !== '').map((v) => v.trim()) };
}

/** _normalize_hint_expression: values URL-quoted, operators kept ("<or> foo%20bar <or> baz"). */
function normalize(expression: unknown, name: string): string {
  const { op, values } = operatorAndValues(expression, name);
  return (op + values.map((v) => ` ${urlQuote(v)} `).join(op)).trim();
}

function checkIntHint(name: string, expression: unknown): void {
  for (const v of operatorAndValues(expression, name).values) {
    if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(v)) {
      throw new PyError('ValueError', `Root device hint "${name}" is not an integer value. Current value: ${pyStr(expression)}`);
    }
    if (parseInt(v.replace(/_/g, ''), 10) <= 0) {
      throw new PyError('ValueError', `Root device hint "${name}" should be a positive integer. Current value: ${pyStr(expression)}`);
    }
  }
}

/** One hint, validated and in the form the matcher compares (_append_operator_to_hints included). */
function parseHint(name: string, type: HintType, expression: unknown): string | boolean {
  if (type === 'bool') {
    const value = strictBoolFromString(expression);
    if (value === null) {
      throw new PyError('ValueError', `Root device hint "${name}" is not a Boolean value. Current value: ${pyStr(expression)}`);
    }
    return value;
  }
  let spec: string;
  if (type === 'str') {
    if (typeof expression !== 'string') {
      throw new PyError('ValueError', `Root device hint "${name}" is not a string value. Hint expression: ${pyStr(expression)}`);
    }
    spec = normalize(expression, name);
  } else {
    checkIntHint(name, expression);
    spec = pyStr(expression);
  }
  if (parseSpec(spec).length > 1) return spec;
  return `${type === 'str' ? 's==' : '=='} ${spec}`;
}

/** parse_root_device_hints: the hints validated and normalized; null when there are none. */
export function parseRootDeviceHints(rootDevice: Record<string, unknown>): ParsedHints | null {
  const names = Object.keys(rootDevice);
  if (!names.length) return null;
  const invalid = names.filter((n) => !VALID_HINTS.has(n));
  if (invalid.length) {
    throw new PyError('ValueError', `The hints "${invalid.join(', ')}" are invalid. Valid hints are: "${[...VALID_HINTS.keys()].join(', ')}"`);
  }
  return new Map(names.map((n) => [n, parseHint(n, VALID_HINTS.get(n)!, rootDevice[n])]));
}

function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'dict';
}

/** The disk's value for a hint as the matcher compares it; null when the disk is skipped. */
function deviceValue(dev: Device, name: string, type: HintType): SpecValue | boolean | null {
  const raw = Object.hasOwn(dev, name) ? dev[name] : null;
  const devName = pyStr(Object.hasOwn(dev, 'name') ? dev.name : null);
  if (type === 'str') {
    try {
      return normalize(raw, name);
    } catch (err) {
      if (!(err instanceof PyError) || err.pyClass !== 'ValueError') throw err;
      log.warning(`The attribute "${name}" of the device "${devName}" has an empty value. Skipping device.`);
      return null;
    }
  }
  if (type === 'bool') {
    const value = strictBoolFromString(raw);
    if (value === null) {
      log.warning(`The attribute "${name}" (with value "${pyStr(raw)}") of device "${devName}" is not a valid Boolean. Skipping device.`);
    }
    return value;
  }
  if (typeof raw === 'boolean') return Number(raw) / GIB;
  if (typeof raw !== 'number') throw new PyError('TypeError', `unsupported operand type(s) for /: '${pyTypeName(raw)}' and 'int'`);
  return raw / GIB;
}

function deviceMatches(dev: Device, hints: ParsedHints): boolean {
  for (const [name, hint] of hints) {
    const type = VALID_HINTS.get(name)!;
    const value = deviceValue(dev, name, type);
    if (value === null) return false;
    const ok = typeof hint === 'boolean' ? value === hint : matchSpec(value as SpecValue, hint);
    if (!ok) return false;
  }
  return true;
}

/**
 * find_devices_by_hints: the devices that satisfy all the hints, in order, lazily as Ironic's
 * generator (a later device's bad value does not fail an earlier match).
 */
export function* findDevicesByHints(devices: readonly Device[], rootDevice: Record<string, unknown>): Generator<Device> {
  devices.forEach((d, i) => {
    const name = Object.hasOwn(d, 'name') ? d.name : null;
    if (typeof name !== 'string') {
      throw new PyError('TypeError', `sequence item ${i}: expected str instance, ${pyTypeName(name)} found`);
    }
  });
  const hints = parseRootDeviceHints(rootDevice);
  if (!hints) throw new PyError('TypeError', "'NoneType' object is not iterable");
  for (const dev of devices) {
    if (deviceMatches(dev, hints)) yield dev;
  }
}

/** match_root_device_hints: the first device that satisfies all the hints, or null. */
export function matchRootDeviceHints(devices: readonly Device[], rootDevice: Record<string, unknown>): Device | null {
  const found = findDevicesByHints(devices, rootDevice).next();
  if (found.done) {
    log.warning(`No device found that matches the root device hints ${pyRepr(rootDevice)}`);
    return null;
  }
  return found.value;
}
