/**
 * Microversion negotiation, as Ironic does it: `X-OpenStack-Ironic-API-Version: 1.N` or
 * `OpenStack-API-Version: baremetal 1.N`, `latest` allowed, none meaning 1.1. Min/max headers go
 * on every versioned response (errors included) so clients can renegotiate from a 406; the root
 * document negotiates too (29.0.5's root calls the v1 controller's version check).
 */
import type { Middleware } from 'koa';
import { httpNotAcceptable, HttpError, NotAcceptable } from '../../common/errors';
import { MIN_MINOR, versionString } from '../versions';
import type { ApiState } from '../state';

const LEGACY_HEADER = 'X-OpenStack-Ironic-API-Version';

/**
 * The requested version as microversion_parse reads it: the last `baremetal` entry of
 * `OpenStack-API-Version` wins over the legacy header; of the legacy header the last comma-separated
 * value counts. Empty (or absent) means the default, 1.1.
 */
function requestedVersion(headers: Record<string, string | string[] | undefined>): string {
  const generic = headers['openstack-api-version'];
  if (typeof generic === 'string') {
    for (const part of generic.split(',').reverse()) {
      const [service, value] = splitOnce(part.trim());
      if (value !== undefined && service.toLowerCase() === 'baremetal') return value.trim();
    }
  }
  const legacy = headers['x-openstack-ironic-api-version'];
  return typeof legacy === 'string' ? (legacy.split(',').pop() ?? '').trim() : '';
}

/** Python's `str.split(None, 1)` of a stripped string: the first word and the rest, if any. */
function splitOnce(s: string): [string, string | undefined] {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(s);
  return m === null ? [s, undefined] : [m[1] as string, m[2]];
}

/** Python's int(): optional sign, digits with single underscores between them, surrounding whitespace. */
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

function parseVersion(text: string, maxMinor: number): [number, number] {
  const source = text === '' ? versionString(MIN_MINOR) : text.toLowerCase() === 'latest' ? versionString(maxMinor) : text;
  const dot = source.indexOf('.');
  const parts = dot < 0 ? [source] : [source.slice(0, dot), source.slice(dot + 1)];
  const numbers = parts.map((p) => (PY_INT.test(p) ? Number.parseInt(p.replace(/_/g, ''), 10) : Number.NaN));
  if (numbers.length !== 2 || numbers.some(Number.isNaN)) {
    throw httpNotAcceptable(`Invalid value for ${LEGACY_HEADER} header`);
  }
  return [numbers[0] as number, numbers[1] as number];
}

export function negotiateVersion(maxMinor: number): Middleware<ApiState> {
  const minString = versionString(MIN_MINOR);
  const maxString = versionString(maxMinor);
  return async (ctx, next) => {
    try {
      await negotiate(ctx, next);
    } catch (err) {
      // The root document checks the version in its own exposed method, so its refusals are faults.
      if (err instanceof HttpError && err.code === 406 && ctx.path === '/') throw new NotAcceptable(err.description);
      throw err;
    }
  };

  async function negotiate(ctx: Parameters<Middleware<ApiState>>[0], next: () => Promise<unknown>): Promise<void> {
    const [major, minor] = parseVersion(requestedVersion(ctx.headers), maxMinor);
    const rangeHeaders = {
      'X-OpenStack-Ironic-API-Minimum-Version': minString,
      'X-OpenStack-Ironic-API-Maximum-Version': maxString,
    };
    ctx.set(rangeHeaders);
    const range = `The supported version range is: [${minString}, ${maxString}].`;
    if (major !== 1) {
      throw httpNotAcceptable(
        `Mutually exclusive versions requested. Version ${major}.${minor} requested but not supported by this service. ${range}`,
        rangeHeaders,
      );
    }
    if (minor < MIN_MINOR || minor > maxMinor) {
      throw httpNotAcceptable(`Version ${major}.${minor} was requested but the minor version is not supported by this service. ${range}`, rangeHeaders);
    }
    ctx.set(LEGACY_HEADER, `${major}.${minor}`);
    ctx.state.version = minor;
    await next();
  }
}
