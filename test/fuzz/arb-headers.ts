/** Request headers: API version negotiation right and wrong, content types, and odd extras. */
import fc from 'fast-check';
import { headerValue, NAME_CHARS } from './arb-strings';
import { Style, weight } from './style';

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json-patch+json', 'text/plain',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml', '', '*/*', 'application/json; charset=latin1'];
const ACCEPTS = ['application/json', 'text/html', '*/*', 'application/xml', 'application/json;q=0', 'text/plain, */*;q=0.1'];
/** Names node's client must not be handed: they would desynchronise the keep-alive connection. */
const TOKEN = fc.string({ unit: fc.constantFrom(...NAME_CHARS.filter((c) => c !== '.' && c !== '~')), minLength: 1, maxLength: 20 })
  .filter((n) => !['content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade', 'te', 'trailer'].includes(n.toLowerCase()));

function versionValue(maxMinor: number, style: Style): fc.Arbitrary<string> {
  // Plausible requests favour recent versions: most routes and fields need one.
  const minor = (min: number): fc.Arbitrary<string> => fc.integer({ min: Math.max(1, min), max: maxMinor }).map((m) => `1.${m}`);
  return fc.oneof(
    { arbitrary: minor(1), weight: 10 },
    { arbitrary: minor(maxMinor - 30), weight: weight(style, 20, 4) },
    { arbitrary: minor(maxMinor - 8), weight: weight(style, 30, 1) },
    { arbitrary: fc.constant(`1.${maxMinor}`), weight: weight(style, 30, 4) },
    fc.constantFrom('latest', 'LATEST', '1.0', `1.${maxMinor + 1}`, '1.999', '2.0', '0.1', '1.', '.1', '1.01', '1.1.1', ' 1.30 ',
      '1,30', '1.-1', '1.+5', '', 'baremetal 1.30'),
    headerValue(),
  );
}

function versionHeaders(maxMinor: number, style: Style): fc.Arbitrary<Array<[string, string]>> {
  const legacy = versionValue(maxMinor, style).map((v): [string, string] => ['X-OpenStack-Ironic-API-Version', v]);
  const generic = versionValue(maxMinor, style).chain((v) => fc.constantFrom(`baremetal ${v}`, `compute 2.1, baremetal ${v}`, `BAREMETAL ${v}`, v))
    .map((v): [string, string] => ['OpenStack-API-Version', v]);
  return fc.oneof(
    { arbitrary: legacy.map((h) => [h]), weight: weight(style, 60, 10) },
    { arbitrary: generic.map((h) => [h]), weight: 2 },
    fc.tuple(legacy, generic).map(([a, b]) => [a, b]),
    fc.constant<Array<[string, string]>>([]),
  );
}

function extraHeader(): fc.Arbitrary<[string, string]> {
  return fc.oneof(
    fc.tuple(fc.constantFrom('Accept'), fc.oneof(fc.constantFrom(...ACCEPTS), headerValue())),
    fc.tuple(fc.constantFrom('X-Auth-Token', 'X-Openstack-Request-Id', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'X-Forwarded-For',
      'X-Roles', 'X-Project-Id', 'X-Tenant-Id', 'X-User-Id', 'X-Service-Catalog', 'Authorization', 'Cookie', 'Origin',
      'If-None-Match', 'Accept-Encoding', 'Accept-Language', 'Range', 'X-HTTP-Method-Override', 'Host'), headerValue()),
    fc.tuple(TOKEN, headerValue()),
  );
}

export function headersArb(maxMinor: number, hasBody: boolean, style: Style): fc.Arbitrary<Array<[string, string]>> {
  const contentType = fc.oneof(
    { arbitrary: fc.constant([['Content-Type', 'application/json']] as Array<[string, string]>), weight: hasBody ? weight(style, 60, 12) : 2 },
    { arbitrary: fc.constantFrom(...CONTENT_TYPES).map((t): Array<[string, string]> => [['Content-Type', t]]), weight: 2 },
    { arbitrary: fc.constant([] as Array<[string, string]>), weight: hasBody ? 1 : 8 },
  );
  const extras = fc.array(extraHeader(), { maxLength: weight(style, 1, 3) });
  return fc.tuple(versionHeaders(maxMinor, style), contentType, fc.oneof({ arbitrary: fc.constant([]), weight: weight(style, 6, 1) }, extras))
    .map(([v, ct, extra]) => [...v, ...ct, ...extra]);
}
