/** Query strings: the parameters the API reads, with values right, wrong and hostile, repeated or empty. */
import fc from 'fast-check';
import type { FuzzFixtures, PoolKind } from './fixtures';
import { HOSTILE_KEYS, identString, oddString } from './arb-strings';
import { allFieldNames } from './arb-fields';
import { encodeAs, Encoding } from './encode';
import { Style, weight } from './style';

const PARAMS = ['fields', 'sort_key', 'sort_dir', 'limit', 'marker', 'detail', 'maintenance', 'provision_state', 'driver',
  'associated', 'fault', 'resource_class', 'conductor_group', 'conductor', 'owner', 'lessee', 'node', 'node_uuid', 'address',
  'portgroup', 'instance_uuid', 'chassis_uuid', 'retired', 'shard', 'sharded', 'description_contains', 'include_children',
  'parent_node', 'project', 'state', 'type', 'volume_type', 'addresses', 'reset_interfaces', 'interface', 'hostname',
  'online', 'name', 'driver_type', 'node_ident', 'portgroup_ident', 'missing', 'all', 'event', 'severity', 'local_link_connection'];

const PAGING = ['fields', 'limit', 'marker', 'sort_key', 'sort_dir', 'detail'];
const NODE_FILTERS = ['associated', 'maintenance', 'retired', 'provision_state', 'driver', 'resource_class', 'conductor_group',
  'fault', 'owner', 'lessee', 'shard', 'sharded', 'description_contains', 'conductor', 'include_children', 'parent_node',
  'instance_uuid', 'chassis_uuid'];

/** The parameters each route reads, for plausible queries: first matching pattern wins. */
const ROUTE_PARAMS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/vendor_passthru(\/\*method)?$/, ['method']],
  [/^GET \/v1\/(nodes(\/detail)?|chassis\/:\w+\/nodes(\/detail)?)$/, [...PAGING, ...NODE_FILTERS]],
  [/^GET \/v1\/(ports|nodes\/:\w+\/ports|portgroups\/:\w+\/ports)(\/detail)?$/, [...PAGING, 'node', 'node_uuid', 'address', 'portgroup', 'shard']],
  [/^GET \/v1\/(portgroups|nodes\/:\w+\/portgroups)(\/detail)?$/, [...PAGING, 'node', 'address']],
  [/^GET \/v1\/allocations$/, [...PAGING, 'node', 'resource_class', 'state', 'owner']],
  [/^GET \/v1\/(volume\/\w+|nodes\/:\w+\/volume\/\w+)$/, [...PAGING, 'node']],
  [/^GET \/v1\/(chassis|deploy_templates|conductors)(\/detail)?$/, PAGING],
  [/^GET \/v1\/nodes\/:\w+\/history$/, PAGING],
  [/^GET \/v1\/drivers$/, ['type', 'detail']],
  [/^GET \/v1\/lookup$/, ['addresses', 'node_uuid']],
  [/^GET \/v1\/nodes\/validate$/, ['node', 'node_uuid']],
  [/^PATCH \/v1\/nodes\/:\w+$/, ['reset_interfaces']],
  [/^GET \/v1\/\w+\/:\w+$/, ['fields']],
];

const ALL_FIELD_NAMES = allFieldNames();

function csv(items: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.array(items, { maxLength: 5 }).map((a) => a.join(','));
}

/** A value for parameter `name`: what it expects part of the time, anything otherwise. */
function paramValue(name: string, fx: FuzzFixtures, style: Style): fc.Arbitrary<string> {
  const pool = (...kinds: PoolKind[]): string[] => kinds.flatMap((k) => [...(fx.pools.get(k) ?? [])]);
  const field = fc.oneof({ arbitrary: fc.constantFrom(...ALL_FIELD_NAMES), weight: weight(style, 20, 3) }, fc.constantFrom(...HOSTILE_KEYS), oddString());
  const typed = new Map<string, fc.Arbitrary<string>>([
    ['fields', csv(field)],
    ['sort_key', field],
    ['sort_dir', fc.constantFrom('asc', 'desc', 'ASC', 'up', '')],
    ['limit', fc.oneof(fc.integer({ min: -5, max: 5000 }).map(String), fc.constantFrom('1e3', '0x10', '9999999999999999999', '1.5', ''))],
    ['marker', identString(pool('node', 'port', 'portgroup', 'chassis', 'allocation', 'template', 'volume'), style)],
    ['provision_state', fc.constantFrom('enroll', 'available', 'active', 'manageable', 'deploy failed', 'x')],
    ['driver', identString(pool('driver'), style)],
    ['node', identString(pool('node'), style)], ['node_uuid', identString(pool('node'), style)], ['node_ident', identString(pool('node'), style)],
    ['portgroup', identString(pool('portgroup'), style)], ['chassis_uuid', identString(pool('chassis'), style)],
    ['shard', csv(identString(pool('shard'), style))], ['addresses', csv(fc.constantFrom('52:54:00:00:00:01', '52:54:00:00:00:02', 'zz'))],
    ['address', fc.constantFrom('52:54:00:00:00:01', '52:54:00:aa:00:01', 'nope')],
    ['method', identString(pool('vendor_method'), style)],
    ['type', fc.constantFrom('classic', 'dynamic', 'x')],
    ['state', fc.constantFrom('allocating', 'active', 'error')],
  ]);
  const boolish = fc.constantFrom('true', 'false', 'True', '1', '0', 'yes', 'off', 'maybe', '');
  return fc.oneof({ arbitrary: typed.get(name) ?? boolish, weight: weight(style, 20, 3) }, identString(pool('node'), style),
    { arbitrary: oddString(), weight: 2 });
}

function encoding(style: Style): fc.Arbitrary<Encoding> {
  return fc.oneof({ arbitrary: fc.constant<Encoding>('encode'), weight: weight(style, 40, 8) }, fc.constantFrom<Encoding>('raw', 'double', 'mangle'));
}

function pair(fx: FuzzFixtures, style: Style, params: readonly string[]): fc.Arbitrary<string> {
  // One value arbitrary per known name, built once; other names share the generic one.
  const values = new Map(PARAMS.map((p) => [p, paramValue(p, fx, style)]));
  const generic = paramValue('', fx, style);
  const name = fc.oneof({ arbitrary: fc.constantFrom(...params), weight: weight(style, 100, 8) }, fc.constantFrom(...HOSTILE_KEYS), oddString(),
    fc.constantFrom(...params).map((p) => `${p}[]`));
  return name.chain((n) => fc.tuple(fc.constant(n), values.get(n) ?? generic, encoding(style), fc.nat(weight(style, 40, 12))))
    .map(([n, v, how, shape]) => {
    if (shape === 0) return encodeAs(n, how);
    if (shape === 1) return `${encodeAs(n, how)}=`;
    if (shape === 2) return `=${encodeAs(v, how)}`;
    return `${encodeAs(n, how)}=${encodeAs(v, how)}`;
  });
}

/** Builds query arbitraries, one per distinct parameter list (building is costly, drawing cheap). */
export class QueryArbs {
  private readonly cache = new Map<string, fc.Arbitrary<string>>();
  constructor(private readonly fx: FuzzFixtures, private readonly style: Style) {}

  /** For a route (`METHOD /pattern`): plausible queries use the parameters it reads, hostile ones any. */
  forRoute(route: string): fc.Arbitrary<string> {
    const params = this.style === 'plausible' ? ROUTE_PARAMS.find(([re]) => re.test(route))?.[1] ?? [] : PARAMS;
    const key = params.join(',');
    let arb = this.cache.get(key);
    if (!arb) {
      arb = queryArb(this.fx, this.style, params);
      this.cache.set(key, arb);
    }
    return arb;
  }
}

/** `?…` or nothing; pairs may repeat a name, and separators may double up. */
function queryArb(fx: FuzzFixtures, style: Style, params: readonly string[]): fc.Arbitrary<string> {
  if (params.length === 0) return fc.oneof({ arbitrary: fc.constant(''), weight: 30 }, fc.constantFrom('?', '?a=1', '?fields=uuid'));
  // A parameter the route requires (vendor passthru's method) is there nearly always.
  const required = params.length === 1 && params[0] === 'method';
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: weight(style, required ? 1 : 30, 3) },
    { arbitrary: fc.array(pair(fx, style, params), { minLength: 1, maxLength: weight(style, required ? 1 : 2, 5) }).map((p) => `?${p.join('&')}`), weight: weight(style, 20, 6) },
    fc.constantFrom('?', '?&', '?&&=&', '?a=1&&b', '?limit=1&limit=2', '?fields=uuid&fields=name', '?%', '?%zz=%ff',
      '?__proto__[polluted]=yes', '?constructor[prototype][polluted]=yes', '?a[b][c]=d'),
  );
}
