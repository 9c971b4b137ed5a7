// Runs the case list, in order, against one server and records each normalised response.
import { sendRaw, type RawResponse } from './http-client';
import { Normalizer } from './normalize';
import type { Case, CaseGroup, NormalizedResponse, RequestCase, WaitForCase } from './types';

export interface Target {
  label: string;
  port: number;
  /** The server's own maximum API version, read from `GET /`. */
  maxVersion: string;
  /** See NormalizerOptions.maxVersionEverywhere. */
  maxVersionEverywhere: boolean;
}

export interface StepOutcome {
  group: string;
  name: string;
  request: string;
  response: NormalizedResponse;
  /** Unnormalised response, kept for dumps and debugging. */
  raw: RawResponse;
  elapsedMs: number;
}

type Vars = Map<string, string>;

const DEFAULT_WAIT_MS = 20_000;
const POLL_INTERVAL_MS = 150;

export async function runCases(target: Target, groups: readonly CaseGroup[]): Promise<StepOutcome[]> {
  const normalizer = new Normalizer(target.port, target.maxVersion, { maxVersionEverywhere: target.maxVersionEverywhere });
  const vars: Vars = new Map();
  const outcomes: StepOutcome[] = [];
  for (const g of groups) {
    for (const c of g.cases) {
      const started = Date.now();
      const outcome = await runCase(target, g.group, c, vars, normalizer);
      outcomes.push({ ...outcome, elapsedMs: Date.now() - started });
    }
  }
  return outcomes;
}

async function runCase(target: Target, group: string, c: Case, vars: Vars, normalizer: Normalizer): Promise<Omit<StepOutcome, 'elapsedMs'>> {
  if (c.kind === 'waitFor') {
    const raw = await waitFor(target, c, vars);
    const response = normalizer.response(raw, { maxVersionNormalized: false });
    return { group, name: c.name, request: `WAIT GET ${c.path} until ${JSON.stringify(c.until)}`, response, raw };
  }
  const raw = await sendCase(target, c, vars);
  captureVars(c, raw, vars, normalizer);
  nameCreatedObject(c, raw, normalizer);
  const response = normalizer.response(raw, { maxVersionNormalized: c.maxVersionNormalized === true });
  return { group, name: c.name, request: describe(c), response, raw };
}

function sendCase(target: Target, c: RequestCase, vars: Vars): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (c.version !== undefined) headers['X-OpenStack-Ironic-API-Version'] = c.version;
  let body: Buffer | undefined;
  if (c.body !== undefined || c.rawBody !== undefined) {
    headers['Content-Type'] = 'application/json';
    const text = c.rawBody !== undefined ? substitute(c.rawBody, vars) : JSON.stringify(substituteDeep(c.body, vars));
    body = Buffer.from(text, c.rawBodyEncoding ?? 'utf8');
  }
  for (const [k, v] of Object.entries(c.headers ?? {})) headers[k] = substitute(v, vars);
  return sendRaw({ port: target.port, method: c.method, path: substitute(c.path, vars), headers, body });
}

async function waitFor(target: Target, c: WaitForCase, vars: Vars): Promise<RawResponse> {
  const deadline = Date.now() + (c.timeoutMs ?? DEFAULT_WAIT_MS);
  const headers: Record<string, string> = {};
  if (c.version !== undefined) headers['X-OpenStack-Ironic-API-Version'] = c.version;
  for (;;) {
    const raw = await sendRaw({ port: target.port, method: 'GET', path: substitute(c.path, vars), headers });
    if (conditionsMet(raw, c.until) || Date.now() > deadline) return raw;
    await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
  }
}

function conditionsMet(raw: RawResponse, until: WaitForCase['until']): boolean {
  const body = safeJson(raw.bodyText);
  if (body === undefined || raw.status !== 200) return false;
  return Object.entries(until).every(([path, allowed]) => {
    const v = lookup(body, path);
    return (typeof v === 'string' || v === null) && allowed.includes(v);
  });
}

function captureVars(c: RequestCase, raw: RawResponse, vars: Vars, normalizer: Normalizer): void {
  if (c.capture === undefined) return;
  const body = safeJson(raw.bodyText);
  for (const [name, path] of Object.entries(c.capture)) {
    const v = body === undefined ? undefined : lookup(body, path);
    if (typeof v !== 'string') continue;
    vars.set(name, v);
    normalizer.nameUuid(v, name);
  }
}

/**
 * Objects created without an explicit capture are named after their case, so that one server failing to
 * create something cannot renumber every later uuid placeholder. A uuid the request itself gives is
 * named whatever the answer (a server may store the object and still fail the request).
 */
function nameCreatedObject(c: RequestCase, raw: RawResponse, normalizer: Normalizer): void {
  if (c.capture !== undefined) return;
  const given = c.method === 'POST' ? lookup(c.body, 'uuid') : undefined;
  const uuid = typeof given === 'string' ? given : raw.status === 201 ? lookup(safeJson(raw.bodyText), 'uuid') : undefined;
  if (typeof uuid === 'string') normalizer.nameUuid(uuid, `created by "${c.name}"`);
}

/** Dotted path lookup: `nodes.0.uuid`. */
export function lookup(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `{VAR}` -> captured value; unknown variables stay visible as `{VAR}` so the failure is obvious. */
function substitute(s: string, vars: Vars): string {
  return s.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (whole, name: string) => vars.get(name) ?? whole);
}

function substituteDeep(v: unknown, vars: Vars): unknown {
  if (typeof v === 'string') return substitute(v, vars);
  if (Array.isArray(v)) return v.map((x) => substituteDeep(x, vars));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = substituteDeep(x, vars);
    return out;
  }
  return v;
}

function describe(c: RequestCase): string {
  const version = c.version === undefined ? '(no version header)' : `v${c.version}`;
  const extra = c.headers === undefined ? '' : ` ${JSON.stringify(c.headers)}`;
  let body = '';
  if (c.rawBody !== undefined) body = ` raw:${c.rawBody.length > 120 ? `${c.rawBody.slice(0, 120)}…(${c.rawBody.length} chars)` : c.rawBody}`;
  else if (c.body !== undefined) body = ` ${JSON.stringify(c.body)}`;
  return `${c.method} ${c.path} ${version}${extra}${body}`;
}
