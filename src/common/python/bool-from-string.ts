/** oslo.utils strutils.bool_from_string: the words it reads as true and false. */
import { pyStr } from './str';

export const TRUE_WORDS: readonly string[] = ['1', 't', 'true', 'on', 'y', 'yes'];
export const FALSE_WORDS: readonly string[] = ['0', 'f', 'false', 'off', 'n', 'no'];

function word(value: unknown): string {
  return pyStr(value).trim().toLowerCase();
}

/** bool_from_string (not strict): anything but a true word is false. */
export function boolFromString(value: unknown): boolean {
  return typeof value === 'boolean' ? value : TRUE_WORDS.includes(word(value));
}

/** bool_from_string(strict=True), with null where it would raise. */
export function strictBoolFromString(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const w = word(value);
  if (TRUE_WORDS.includes(w)) return true;
  return FALSE_WORDS.includes(w) ? false : null;
}
