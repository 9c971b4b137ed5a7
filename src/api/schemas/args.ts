/**
 * Ironic's argument validators (ironic/common/args.py) with their messages: each takes the argument
 * name and raw value, returns the converted value, and throws InvalidParameterValue when it does not fit.
 */
import { FALSE_WORDS, strictBoolFromString, TRUE_WORDS } from '../../common/python/bool-from-string';
import { InvalidParameterValue } from '../../common/errors';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import { schemaErrorMessage, Schema } from './jsonschema';

export type Validator<T = unknown> = (name: string, value: unknown) => T;

export { pyStr };

/** oslo uuidutils.is_uuid_like: what uuid.UUID() accepts and round-trips (urn:uuid:, braces, any dashes). */
export function isUuidLike(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const hex = value.replace(/urn:/g, '').replace(/uuid:/g, '').replace(/^[{}]+|[{}]+$/g, '').replace(/-/g, '');
  return /^[0-9a-fA-F]{32}$/.test(hex);
}

const LOGICAL_NAME_RE = /^[A-Za-z0-9\-._~]+$/;

export function isValidLogicalName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && LOGICAL_NAME_RE.test(value);
}

const MAC_RE = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}\n?$/;

export function isValidMac(value: unknown): value is string {
  return typeof value === 'string' && MAC_RE.test(value.toLowerCase());
}

export function string(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidParameterValue(`Expected string for ${name}: ${pyStr(value)}`);
  return value;
}

const ACCEPTED = [...TRUE_WORDS, ...FALSE_WORDS].sort().map((w) => `'${w}'`).join(', ');

/** oslo strutils.bool_from_string(strict=True). */
export function boolean(name: string, value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  const flag = strictBoolFromString(value);
  if (flag !== null) return flag;
  throw new InvalidParameterValue(`Invalid ${name}: Unrecognized value ${pyRepr(pyStr(value))}, acceptable values are: ${ACCEPTED}`);
}

export function uuid(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!isUuidLike(value)) throw new InvalidParameterValue(`Expected UUID for ${name}: ${pyStr(value)}`);
  return value;
}

export function logicalName(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!isValidLogicalName(value)) throw new InvalidParameterValue(`Expected name for ${name}: ${pyStr(value)}`);
  return value;
}

export function uuidOrName(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!isValidLogicalName(value) && !isUuidLike(value)) {
    throw new InvalidParameterValue(`Expected UUID or name for ${name}: ${pyStr(value)}`);
  }
  return value as string;
}

/** Comma-separated, trimmed, lower-cased, de-duplicated, order kept; a list is taken as it is, each a string. */
export function stringList(name: string, value: unknown): string[] | null {
  if (Array.isArray(value)) return value.map((item) => string(name, item)!);
  const text = string(name, value);
  if (text === null) return null;
  const items: string[] = [];
  for (const part of text.split(',')) {
    const norm = part.trim().toLowerCase();
    if (norm && !items.includes(norm)) items.push(norm);
  }
  return items;
}

/** Python int(): optional sign and surrounding whitespace, underscores between digits. */
export function integer(name: string, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number.parseInt(value.replace(/_/g, ''), 10);
  throw new InvalidParameterValue(`Expected an integer for ${name}: ${pyStr(value)}`);
}

export function macAddress(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!isValidMac(value)) throw new InvalidParameterValue(`Expected valid MAC address for ${name}: ${pyStr(value)}`);
  return value.toLowerCase();
}

export function schema(s: Schema): Validator {
  return (name, value) => {
    if (value === null || value === undefined) return value;
    const message = schemaErrorMessage(name, value, s);
    if (message !== null) throw new InvalidParameterValue(message);
    return value;
  };
}

/**
 * A create body that is JSON null: Ironic's optional schema check lets None through and the
 * controller then fails in Python with a 500. Refused as the schema refuses any other non-object.
 */
export function requiredBody<T>(name: string, value: T | null): T {
  if (value === null) throw new InvalidParameterValue(`Schema error for ${name}: None is not of type 'object'`);
  return value;
}

/** Python's str() of a type tuple in `Expected types <class 'dict'> for NAME: VALUE`. */
export function dictType(name: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidParameterValue(`Expected types <class 'dict'> for ${name}: ${pyStr(value)}`);
  }
  return value as Record<string, unknown>;
}

/** args.dict_valid: runs each validator on its key when present, replacing the value. */
export function dictValid(validators: Record<string, Validator>): Validator<Record<string, unknown> | null> {
  return (name, value) => {
    if (value === null || value === undefined) return null;
    const dict = dictType(name, value);
    for (const [key, validate] of Object.entries(validators)) {
      if (Object.hasOwn(dict, key)) dict[key] = validate(key, dict[key]);
    }
    return dict;
  };
}

export function andValid(...validators: Validator[]): Validator {
  return (name, value) => validators.reduce((v, validate) => validate(name, v), value);
}

export function orValid(...validators: Validator[]): Validator {
  return (name, value) => {
    let last: unknown = null;
    for (const validate of validators) {
      try {
        return validate(name, value);
      } catch (e) {
        last = e;
      }
    }
    throw last;
  };
}
