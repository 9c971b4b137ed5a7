/**
 * Whole requests, one arbitrary per served route (servedRoutes(): every method and path pattern
 * the routers hold) plus made-up paths. Path parameters are real identifiers part of the time,
 * hostile or random strings otherwise, in several encodings.
 */
import fc from 'fast-check';
import { servedRoutes } from '../../src/api/openapi/routes';
import type { FuzzFixtures, PoolKind } from './fixtures';
import type { FuzzRequest } from './http';
import { identString } from './arb-strings';
import { BodyKind } from './arb-fields';
import { bodyArb, BodyMode } from './arb-bodies';
import { headersArb } from './arb-headers';
import { QueryArbs } from './arb-query';
import { encodeAs, Encoding } from './encode';
import { Style, weight } from './style';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** Which real objects a path parameter names, by parameter and (for generic names) by collection. */
const PARAM_KINDS: ReadonlyArray<[RegExp, PoolKind]> = [
  [/:node_ident$/, 'node'], [/:port_(ident|uuid)$/, 'port'], [/:portgroup_ident$/, 'portgroup'], [/:chassis_uuid$/, 'chassis'],
  [/:trait$/, 'trait'], [/:vif_id$/, 'vif'], [/:indicator$/, 'indicator'], [/:setting_name$/, 'bios'], [/:event$/, 'history'],
  [/:hostname$/, 'conductor'], [/vendor_passthru\/\*method$/, 'vendor_method'], [/^\/v1\/drivers\/:name$/, 'driver'], [/^\/v1\/shards\/:name$/, 'shard'],
  [/^\/v1\/portgroups\/:ident$/, 'portgroup'], [/^\/v1\/allocations\/:ident$/, 'allocation'],
  [/^\/v1\/deploy_templates\/:ident$/, 'template'], [/^\/v1\/chassis\/:uuid$/, 'chassis'], [/^\/v1\/volume\/\w+\/:uuid$/, 'volume'],
];

const BODY_KINDS: ReadonlyArray<[RegExp, BodyKind]> = [
  [/states\/provision$/, 'provision'], [/states\/power$/, 'power'], [/states\/raid$/, 'raid'], [/states\/boot_mode$/, 'boot_mode'],
  [/states\/secure_boot$/, 'secure_boot'], [/states\/console$/, 'console'], [/boot_device$/, 'boot_device'],
  [/indicators\/:indicator$/, 'indicator'], [/maintenance$/, 'maintenance'], [/traits/, 'traits'], [/vifs/, 'vif'],
  [/vendor_passthru/, 'vendor'], [/^\/v1\/nodes/, 'node'], [/^\/v1\/ports/, 'port'], [/^\/v1\/portgroups/, 'portgroup'],
  [/^\/v1\/chassis/, 'chassis'], [/^\/v1\/allocations/, 'allocation'], [/^\/v1\/deploy_templates/, 'template'],
  [/^\/v1\/volume\/connectors/, 'connector'], [/^\/v1\/volume\/targets/, 'target'], [/^\/v1\/events/, 'event'],
  [/^\/v1\/heartbeat/, 'heartbeat'],
];

const UNKNOWN_PATHS = ['/', '/v1/nodes/x/y/z/w', '/v2', '//v1//nodes', '/v1/./nodes', '/v1/%2e%2e/v1', '/v1/nodes%2Fdetail',
  '/V1/NODES', '/v1/nodes/detail/', '/v1/nodes;x', '/metrics', '/healthz', '/v1/nodes/%00', '/v1/%', '/v1/nodes/%E0%A4%A',
  '/v1/ports/detail/detail', '/v1/drivers/fake-hardware/properties/x', '/v1/lookup/x', '/v1/heartbeat', '/v1/conductors/x/y', '*'];

function kindOf<K>(table: ReadonlyArray<[RegExp, K]>, text: string): K | undefined {
  return table.find(([re]) => re.test(text))?.[1];
}

function encoding(style: Style): fc.Arbitrary<Encoding> {
  return fc.oneof({ arbitrary: fc.constant<Encoding>('encode'), weight: weight(style, 60, 10) }, fc.constantFrom<Encoding>('raw', 'double', 'mangle'));
}

/** A value for each `:param` and `*wildcard` of the pattern, in order. */
function pathArb(pattern: string, fx: FuzzFixtures, style: Style): fc.Arbitrary<string> {
  const parts = pattern.split('/').map((segment, i, all): fc.Arbitrary<string> => {
    if (!/^[:*]/.test(segment)) return fc.constant(segment);
    const prefix = all.slice(0, i + 1).join('/');
    const kind = kindOf(PARAM_KINDS, prefix);
    const value = identString(kind ? fx.pools.get(kind) ?? [] : [], style);
    const one = fc.tuple(value, encoding(style)).map(([v, how]) => encodeAs(v, how));
    return segment.startsWith('*') ? fc.array(one, { minLength: 1, maxLength: 3 }).map((s) => s.join('/')) : one;
  });
  return fc.tuple(fc.tuple(...parts), fc.nat(weight(style, 40, 15))).map(([segments, slash]) => segments.join('/') + (slash === 0 ? '/' : ''));
}

function bodyMode(method: string, pattern: string): BodyMode {
  if (/vendor_passthru|^\/v1\/?$/.test(pattern)) return 'any';
  if (method === 'PATCH') return 'patch';
  return method === 'POST' || method === 'PUT' ? 'object' : 'none';
}

/** The parts every route shares, built once: building arbitraries costs far more than drawing from them. */
interface Shared {
  style: Style;
  queries: QueryArbs;
  headers: (hasBody: boolean) => fc.Arbitrary<Array<[string, string]>>;
}

function shared(fx: FuzzFixtures, style: Style): Shared {
  const withBody = headersArb(fx.maxMinor, true, style);
  const withoutBody = headersArb(fx.maxMinor, false, style);
  return { style, queries: new QueryArbs(fx, style), headers: (hasBody) => (hasBody ? withBody : withoutBody) };
}

/** `route` names the pattern; the method in it is the one sent, which hostile requests sometimes change. */
function assemble(pattern: string, parts: fc.Arbitrary<[string, string, string, Buffer | null]>, s: Shared): fc.Arbitrary<FuzzRequest> {
  return parts.chain(([method, path, query, body]) => s.headers(body !== null).map((headers): FuzzRequest => ({
    route: `${method} ${pattern}`, method, url: path + query, headers, body, style: s.style,
  })));
}

function routeArb(method: string, pattern: string, fx: FuzzFixtures, s: Shared, style: Style): fc.Arbitrary<FuzzRequest> {
  const kind = kindOf(BODY_KINDS, pattern) ?? 'any';
  const sentMethod = style === 'plausible' ? fc.constant(method)
    : fc.oneof({ arbitrary: fc.constant(method), weight: 12 }, fc.constantFrom(...METHODS));
  const query = s.queries.forRoute(`${method} ${pattern}`);
  const parts = fc.tuple(sentMethod, pathArb(pattern, fx, style), query, bodyArb(kind, bodyMode(method, pattern), fx, style));
  return assemble(pattern, parts, s);
}

function unknownArb(fx: FuzzFixtures, s: Shared): fc.Arbitrary<FuzzRequest> {
  const parts = fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom(...UNKNOWN_PATHS), s.queries.forRoute('unknown'), bodyArb('any', 'any', fx, 'hostile'));
  return assemble('(unknown path)', parts, s);
}

function styledArb(fx: FuzzFixtures, style: Style): fc.Arbitrary<FuzzRequest> {
  const s = shared(fx, style);
  return fc.oneof(...servedRoutes().map((r) => routeArb(r.method, r.path, fx, s, style)));
}

/** Any request: every served route equally likely, in either style; a made-up path now and then. */
export function requestArb(fx: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: styledArb(fx, 'plausible'), weight: 15 },
    { arbitrary: styledArb(fx, 'hostile'), weight: 15 },
    { arbitrary: unknownArb(fx, shared(fx, 'hostile')), weight: 1 },
  );
}

export function routeCount(): number {
  return servedRoutes().length;
}
