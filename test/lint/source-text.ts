/**
 * TypeScript source reduced to its code tokens for the lint tests: comments dropped, every string,
 * template and regular-expression literal replaced by a placeholder, so a pattern over the result
 * only matches code. A scanner, not a parser: good enough for the project's own sources.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What a string literal becomes: the lint rules treat it as a literal key. */
export const STRING_PLACEHOLDER = '"S"';

/** After these tokens a `/` starts a regular expression, not a division. */
const REGEX_PRECEDERS = /[(,=:[!&|?{};+\-*%<>~^]$|\b(?:return|typeof|case|in|of|new|delete|void|throw|else|do)$/;

export function codeOnly(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"' || c === "'") {
      i = skipQuoted(source, i, c);
      out += STRING_PLACEHOLDER;
    } else if (c === '`') {
      i = skipTemplate(source, i);
      out += STRING_PLACEHOLDER;
    } else if (c === '/' && REGEX_PRECEDERS.test(out.trimEnd())) {
      i = skipRegex(source, i);
      out += '/R/';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function skipQuoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Skips a template literal, nested `${...}` expressions (and templates inside them) included. */
function skipTemplate(source: string, start: number): number {
  let i = start + 1;
  while (i < source.length && source[i] !== '`') {
    if (source[i] === '\\') i += 2;
    else if (source[i] === '$' && source[i + 1] === '{') i = skipBraces(source, i + 1);
    else i++;
  }
  return i + 1;
}

function skipBraces(source: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < source.length) {
    const c = source[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
    else if (c === '"' || c === "'") { i = skipQuoted(source, i, c); continue; }
    else if (c === '`') { i = skipTemplate(source, i); continue; }
    i++;
  }
  return i;
}

function skipRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== '\n') {
    const c = source[i];
    if (c === '\\') { i += 2; continue; }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
    i++;
  }
  i++;
  while (/[a-z]/.test(source[i] ?? '')) i++;
  return i;
}

/** Every `.ts` file under `dir`, relative to `root`, sorted. */
export function tsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path.relative(root, full));
    }
  };
  walk(path.join(root, dir));
  return out.sort();
}

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
