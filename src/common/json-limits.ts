/**
 * Limits on JSON that arrives from outside: how deep it nests, and numbers a JS double would
 * change. Python keeps big integers exactly and stores an overflowed float as Infinity; a double
 * can do neither, so such numbers are refused instead of being silently altered. Nesting is capped
 * well below what Python's json module itself survives (about 1,000 levels), which also bounds
 * every recursive serialiser, masker and repr that later walks the stored value.
 */
import { JSON_CHARS } from './json-chars';

export const MAX_JSON_DEPTH = 100;

/** Integer literals stay exact only within a double's safe range. */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;
/** A number that could breach a limit: 16+ digits in a row, or a 3-digit exponent. */
const RISKY_NUMBER = /\d{16}|[eE][+-]?\d{3}/;
const OPENERS = /[[{]/g;
const SHOWN_NUMBER_CHARS = 40;

const { QUOTE, BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, MINUS } = JSON_CHARS;

export class JsonLimitError extends Error {}

function tooDeep(): JsonLimitError {
  return new JsonLimitError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted.`);
}

/**
 * Checks the text of a valid JSON document against both limits. Texts that cannot breach them
 * (few brackets, no long digit runs or big exponents) are passed by two native scans, so a
 * 64 MiB configdrive costs no per-character loop in JS.
 */
export function checkJsonText(text: string): void {
  const deepRisk = countUpTo(text, OPENERS, MAX_JSON_DEPTH + 1) > MAX_JSON_DEPTH;
  if (!deepRisk && !RISKY_NUMBER.test(text)) return;
  scan(text);
}

function countUpTo(text: string, pattern: RegExp, cap: number): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (n < cap && pattern.exec(text) !== null) n++;
  return n;
}

/** One pass over valid JSON text: strings skipped whole, depth tracked, every number checked. */
function scan(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > MAX_JSON_DEPTH) throw tooDeep();
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
    else if (c === MINUS || isDigit(c)) {
      const end = numberEnd(text, i);
      checkNumberLiteral(text.slice(i, end));
      i = end - 1;
    }
  }
}

/** Index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let at = text.indexOf('"', start + 1);
  while (at !== -1 && escaped(text, at)) at = text.indexOf('"', at + 1);
  return at === -1 ? text.length : at;
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function numberEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && /[0-9.eE+-]/.test(text[i])) i++;
  return i;
}

function checkNumberLiteral(literal: string): void {
  const value = Number(literal);
  const isInteger = !/[.eE]/.test(literal);
  if (isInteger ? Math.abs(value) <= MAX_EXACT_INTEGER : Number.isFinite(value)) return;
  const shown = literal.length > SHOWN_NUMBER_CHARS ? `${literal.slice(0, SHOWN_NUMBER_CHARS)}...` : literal;
  throw new JsonLimitError(isInteger
    ? `The integer ${shown} cannot be stored exactly: integers must lie between -${MAX_EXACT_INTEGER} and ${MAX_EXACT_INTEGER}.`
    : `The number ${shown} is out of the range of a double-precision float.`);
}

/** Depth of a parsed value (a scalar is 0), walked with an explicit stack. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    for (const child of Object.values(item)) stack.push([child, level]);
  }
  return deepest;
}
