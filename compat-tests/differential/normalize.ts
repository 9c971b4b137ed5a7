// Turns a raw response into the comparable form. One Normalizer per server per run: it numbers uuids by
// first appearance, so the same object gets the same placeholder on both sides as long as both servers
// reveal objects in the same order.
import type { NormalizedResponse } from './types';
import type { RawResponse } from './http-client';
import { bodyFormat } from './body-format';

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const REQ_ID_RE = /req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMP_RE = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?/g;
/** Body keys whose string value is a conductor host name. */
const HOST_KEYS = new Set(['conductor', 'hostname', 'reservation']);
/** Lists the reference builds from Python sets: their order changes from one process to the next. */
const UNORDERED_KEYS = /^enabled_[a-z]+_interfaces$/;

/** Headers compared verbatim (after normalisation); absent headers compare as null. */
const COMPARED_HEADERS = [
  'content-type',
  'x-openstack-ironic-api-minimum-version',
  'x-openstack-ironic-api-maximum-version',
  'x-openstack-ironic-api-version',
  'location',
  'allow',
];
/** Headers whose presence, not value, is compared. */
const PRESENCE_HEADERS = ['openstack-request-id', 'x-openstack-request-id'];
const MAX_VERSION_HEADER = 'x-openstack-ironic-api-maximum-version';
const REQUESTED_VERSION_HEADER = 'x-openstack-ironic-api-version';

export interface NormalizeOptions {
  maxVersionNormalized: boolean;
}

interface NormalizerOptions {
  /**
   * The places that state the server's maximum version compare as `<max>` in every case, not only in cases
   * that ask for the newest version: the maximum-version header, `version` members of version documents and
   * the supported range in version errors. For a reference whose maximum ironic-ts has outgrown; a version a
   * request names (and its echo) stays as it is.
   */
  maxVersionEverywhere?: boolean;
}

export class Normalizer {
  private readonly uuids = new Map<string, string>();
  private readonly hostNames = new Set<string>();
  private counter = 0;

  constructor(
    private readonly port: number,
    private readonly maxVersion: string,
    private readonly options: NormalizerOptions = {},
  ) {}

  /** Names a uuid after the case variable that captured it, so later order differences cannot renumber it. */
  nameUuid(uuid: string, variable: string): void {
    const key = uuid.toLowerCase();
    if (!this.uuids.has(key)) this.uuids.set(key, `<uuid:${variable}>`);
  }

  /** Conductor host names learned from one response are also replaced inside later paths and messages. */
  learnHostName(name: string): void {
    if (name.length > 0) this.hostNames.add(name);
  }

  response(raw: RawResponse, opts: NormalizeOptions): NormalizedResponse {
    const body = this.value(parseBody(raw.bodyText), opts, undefined);
    const headers: Record<string, string | null> = {};
    for (const name of COMPARED_HEADERS) {
      const v = raw.headers[name];
      headers[name] = v === undefined ? null : this.headerValue(name, v, opts);
    }
    for (const name of PRESENCE_HEADERS) headers[name] = raw.headers[name] === undefined ? null : '<present>';
    headers['(body format)'] = bodyFormat(raw.bodyText);
    return { status: raw.status, headers, body };
  }

  private headerValue(name: string, value: string, opts: NormalizeOptions): string {
    if (value === this.maxVersion) {
      if (name === MAX_VERSION_HEADER && (opts.maxVersionNormalized || this.everywhere)) return '<max>';
      if (name === REQUESTED_VERSION_HEADER && opts.maxVersionNormalized) return '<max>';
    }
    return this.text(value, opts);
  }

  private value(v: unknown, opts: NormalizeOptions, key: string | undefined): unknown {
    if (typeof v === 'string') {
      if (key !== undefined && HOST_KEYS.has(key) && v.length > 0) {
        this.learnHostName(v);
        return '<host>';
      }
      if (key === 'version' && this.everywhere && v === this.maxVersion) return '<max>';
      return this.text(v, opts);
    }
    if (Array.isArray(v)) {
      const items = v.map((item) => this.value(item, opts, undefined));
      return key !== undefined && UNORDERED_KEYS.test(key) ? sortByJson(items) : items;
    }
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // Sorted traversal: uuid numbering must not depend on the server's key order.
      for (const k of Object.keys(v).sort()) out[k] = this.value((v as Record<string, unknown>)[k], opts, k);
      return out;
    }
    return v;
  }

  private text(s: string, opts: NormalizeOptions): string {
    let out = s.replace(REQ_ID_RE, '<req>');
    out = out.split(`127.0.0.1:${this.port}`).join('<host>').split(`localhost:${this.port}`).join('<host>');
    out = out.replace(TIMESTAMP_RE, '<ts>');
    out = out.replace(UUID_RE, (u) => this.uuidPlaceholder(u));
    for (const host of this.hostNames) out = replaceHostSegment(out, host);
    if (opts.maxVersionNormalized) out = replaceVersionToken(out, this.maxVersion);
    else if (this.everywhere) out = out.split(`, ${this.maxVersion}]`).join(', <max>]');
    return out;
  }

  private get everywhere(): boolean {
    return this.options.maxVersionEverywhere === true;
  }

  private uuidPlaceholder(uuid: string): string {
    const key = uuid.toLowerCase();
    let name = this.uuids.get(key);
    if (name === undefined) {
      this.counter += 1;
      name = `<uuid:${this.counter}>`;
      this.uuids.set(key, name);
    }
    return name;
  }
}

/** JSON bodies are parsed; Ironic's `error_message` JSON-in-a-string is unpacked so it compares structurally. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { '<non-json body>': text };
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const em = (parsed as Record<string, unknown>)['error_message'];
    if (typeof em === 'string') {
      try {
        return { ...(parsed as Record<string, unknown>), error_message: JSON.parse(em) as unknown };
      } catch {
        return parsed;
      }
    }
  }
  return parsed;
}

function sortByJson(items: unknown[]): unknown[] {
  return [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function replaceHostSegment(s: string, host: string): string {
  if (s === host) return '<host>';
  return s.replace(new RegExp(`/${escapeRe(host)}(?=$|[/?#"'\\s])`, 'g'), '/<host>');
}

function replaceVersionToken(s: string, version: string): string {
  return s.replace(new RegExp(`(?<![\\d.])${escapeRe(version)}(?![\\d]|\\.\\d)`, 'g'), '<max>');
}
