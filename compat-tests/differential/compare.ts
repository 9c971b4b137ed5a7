// Structural comparison of two normalised responses; key order is ignored, array order is not.
import type { Difference, NormalizedResponse } from './types';

export function compareResponses(reference: NormalizedResponse, candidate: NormalizedResponse): Difference[] {
  const diffs: Difference[] = [];
  if (reference.status !== candidate.status) {
    diffs.push({ path: 'status', reference: String(reference.status), candidate: String(candidate.status) });
  }
  const headerNames = new Set([...Object.keys(reference.headers), ...Object.keys(candidate.headers)]);
  for (const name of [...headerNames].sort()) {
    const r = reference.headers[name] ?? null;
    const c = candidate.headers[name] ?? null;
    if (r !== c) diffs.push({ path: `header ${name}`, reference: showHeader(r), candidate: showHeader(c) });
  }
  compareValues('body', reference.body, candidate.body, diffs);
  return diffs;
}

function compareValues(path: string, r: unknown, c: unknown, diffs: Difference[]): void {
  if (isPlainObject(r) && isPlainObject(c)) {
    const keys = new Set([...Object.keys(r), ...Object.keys(c)]);
    for (const k of [...keys].sort()) {
      const child = `${path}.${k}`;
      if (!(k in c)) diffs.push({ path: child, reference: show(r[k]), candidate: '(missing)' });
      else if (!(k in r)) diffs.push({ path: child, reference: '(missing)', candidate: show(c[k]) });
      else compareValues(child, r[k], c[k], diffs);
    }
    return;
  }
  if (Array.isArray(r) && Array.isArray(c)) {
    if (r.length !== c.length) diffs.push({ path: `${path}.length`, reference: String(r.length), candidate: String(c.length) });
    const n = Math.min(r.length, c.length);
    for (let i = 0; i < n; i++) compareValues(`${path}[${i}]`, r[i], c[i], diffs);
    return;
  }
  if (!Object.is(r, c)) diffs.push({ path, reference: show(r), candidate: show(c) });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const MAX_SHOWN = 400;

function showHeader(v: string | null): string {
  return v === null ? '(absent)' : JSON.stringify(v);
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
}
