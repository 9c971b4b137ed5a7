/**
 * Microversion negotiation, as Ironic does it: `X-OpenStack-Ironic-API-Version: 1.N` or
 * `OpenStack-API-Version: baremetal 1.N`, `latest` allowed, none meaning 1.1. Min/max headers go
 * on every versioned response (errors included) so clients can renegotiate from a 406.
 */
import type { Middleware } from 'koa';
import { httpNotAcceptable, HttpError, NotAcceptable } from '../../common/errors';
import { MIN_MINOR, versionString } from '../versions';
import type { ApiState } from '../state';

const LEGACY_HEADER = 'X-OpenStack-Ironic-API-Version';

function requestedVersion(headers: Record<string, string | string[] | undefined>): string | null {
  const legacy = headers['x-openstack-ironic-api-version'];
  // An empty header is a bad value (406), not an absent one.
  if (typeof legacy === 'string') return legacy.trim();
  const generic = headers['openstack-api-version'];
  if (typeof generic === 'string') {
    for (const part of generic.split(',')) {
      const [service, value] = part.trim().split(/\s+/, 2);
      if (service?.toLowerCase() === 'baremetal' && value) return value;
    }
  }
  return null;
}

function parseVersion(text: string, maxMinor: number): [number, number] {
  const source = text.toLowerCase() === 'latest' ? versionString(maxMinor) : text;
  const parts = source.split('.');
  const numbers = parts.map((p) => (/^\s*[+-]?\d+\s*$/.test(p) ? Number.parseInt(p, 10) : Number.NaN));
  if (numbers.length !== 2 || numbers.some(Number.isNaN)) {
    throw httpNotAcceptable(`Invalid value for ${LEGACY_HEADER} header`);
  }
  return [numbers[0], numbers[1]];
}

export function negotiateVersion(maxMinor: number): Middleware<ApiState> {
  const minString = versionString(MIN_MINOR);
  const maxString = versionString(maxMinor);
  return async (ctx, next) => {
    try {
      await negotiate(ctx, next);
    } catch (err) {
      // The /v1 document checks the version in its controller, so its refusals are faults.
      if (err instanceof HttpError && err.code === 406 && (ctx.path === '/v1' || ctx.path === '/v1/')) throw new NotAcceptable(err.description);
      throw err;
    }
  };

  async function negotiate(ctx: Parameters<Middleware<ApiState>>[0], next: () => Promise<unknown>): Promise<void> {
    const [major, minor] = parseVersion(requestedVersion(ctx.headers) ?? minString, maxMinor);
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
