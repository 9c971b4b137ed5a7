/** Plausible values for body fields, by field name (or `kind.field`), weighed by style. */
import fc from 'fast-check';
import type { FuzzFixtures, PoolKind } from './fixtures';
import { identString, macLike, oddString, plainName, uuidLike } from './arb-strings';
import { Style, weight } from './style';
import { deepNest, jsonTree } from './arb-json';
import { JsonNode, num, obj } from './json-text';
import { BodyKind, INNER_KEYS } from './arb-fields';

const PROVISION_TARGETS = ['active', 'deleted', 'rebuild', 'inspect', 'provide', 'manage', 'clean', 'adopt', 'abort',
  'rescue', 'unrescue', 'deploy', 'undeploy', 'service', 'unhold', 'hold', 'available', 'enroll', 'verify', 'ACTIVE'];
const POWER_TARGETS = ['power on', 'power off', 'rebooting', 'soft power off', 'soft rebooting', 'on', 'POWER ON'];
const INTERFACES = ['fake', 'noop', 'no-raid', 'no-vendor', 'no-console', 'redfish', 'ipmitool', 'redfish-virtual-media',
  'agent', 'direct', 'none', 'flat', 'neutron', 'no-bios'];
const STEP_INTERFACES = ['power', 'management', 'deploy', 'bios', 'raid', 'boot', 'vendor', 'firmware'];
const BOOLISH: JsonNode[] = [true, false, true, false, 'true', 'false', 'yes', 'no', 'on', 'off', '1', '0', 'True', 't', 'y', num('1'), num('0'), null];

type ValueArb = (fx: FuzzFixtures, style: Style) => fc.Arbitrary<JsonNode>;

const real = (fx: FuzzFixtures, ...kinds: PoolKind[]): string[] => kinds.flatMap((k) => [...(fx.pools.get(k) ?? [])]);
const ident = (...kinds: PoolKind[]): ValueArb => (fx, style) => identString(real(fx, ...kinds), style);
const oneOfStrings = (values: string[]): ValueArb => (_fx, style) =>
  fc.oneof({ arbitrary: fc.constantFrom(...values), weight: weight(style, 12, 4) }, oddString());
const dict: ValueArb = (fx, style) => fc.oneof(
  { arbitrary: jsonTree(INNER_KEYS, real(fx, 'node'), style, 3), weight: weight(style, 20, 4) }, deepNest(INNER_KEYS));
const entry = (key: string, value: fc.Arbitrary<JsonNode>): fc.Arbitrary<[string, JsonNode]> => value.map((v): [string, JsonNode] => [key, v]);

function step(fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  const members = [
    entry('interface', fc.constantFrom(...STEP_INTERFACES)),
    entry('step', fc.constantFrom('apply_configuration', 'erase_devices', 'erase_devices_metadata', 'deploy', 'reboot', 'x')),
    entry('args', dict(fx, style)),
    entry('priority', fc.integer({ min: -2, max: 300 }).map((v) => num(String(v)))),
  ];
  const wellFormed = fc.tuple(members[0], members[1], fc.option(members[2]), fc.option(members[3]))
    .map(([i, st, a, p]) => obj([i, st, ...(a ? [a] : []), ...(p ? [p] : [])]));
  return fc.oneof({ arbitrary: wellFormed, weight: weight(style, 6, 1) }, fc.array(fc.oneof(...members), { maxLength: 5 }).map(obj));
}

/** A deploy template's step: all four members, as its schema requires. */
function templateStep(fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom('bios', 'raid', 'deploy', 'management', 'power'), fc.constantFrom('apply_configuration', 'x'),
      dict(fx, style), fc.integer({ min: 0, max: 300 })).map(([i, st, a, p]) => obj([['interface', i], ['step', st], ['args', a],
      ['priority', num(String(p))]])), weight: weight(style, 6, 1) },
    step(fx, style),
  );
}

function customTrait(): fc.Arbitrary<string> {
  return plainName().map((n) => `CUSTOM_${n.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`);
}

function logicalDisk(): fc.Arbitrary<JsonNode> {
  return fc.record({
    size_gb: fc.oneof(fc.constant<JsonNode>('MAX'), fc.integer({ min: -1, max: 1000 }).map((n) => num(String(n)))),
    raid_level: fc.constantFrom<JsonNode>('0', '1', '5', '10', '1+0', 'x'),
    is_root_volume: fc.constantFrom(...BOOLISH),
  }).map((r) => obj(Object.entries(r)));
}

function configdrive(fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  const parts = fc.constantFrom('meta_data', 'user_data', 'network_data', 'vendor_data', 'x');
  return fc.oneof(
    fc.base64String({ maxLength: 64 }),
    oddString(),
    fc.array(fc.tuple(parts, dict(fx, style)), { maxLength: 4 }).map(obj),
  );
}

function event(fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  return fc.array(fc.oneof(
    entry('event', fc.constantFrom('network.bind_port', 'network.unbind_port', 'network.delete_port', 'x')),
    entry('port_id', uuidLike()),
    entry('mac_address', macLike(style)),
    entry('status', fc.constantFrom('ACTIVE', 'DOWN', 'BUILD', 'ERROR')),
    entry('device_id', ident('node')(fx, style)),
    entry('binding:host_id', fc.string()),
  ), { maxLength: 7 }).map(obj);
}

const listOf = (item: ValueArb): ValueArb => (fx, style) => fc.array(item(fx, style), { maxLength: 4 });
const int = (min: number, max: number): ValueArb => () => fc.integer({ min, max }).map((n) => num(String(n)));

const VALUES: ReadonlyMap<string, ValueArb> = new Map<string, ValueArb>([
  ['driver', oneOfStrings(['fake-hardware', 'fake-hardware', 'ipmi', 'redfish', 'manual-management', 'snmp', 'idrac', ''])],
  ['uuid', (fx, style) => fc.oneof({ arbitrary: fc.uuid(), weight: weight(style, 10, 1) }, ident('node', 'port', 'portgroup', 'chassis')(fx, style))],
  ['node_uuid', ident('node')], ['node', ident('node')], ['parent_node', ident('node')], ['device_id', ident('node')],
  ['chassis_uuid', ident('chassis')], ['portgroup_uuid', ident('portgroup')], ['instance_uuid', () => uuidLike()],
  ['address', (_fx, style) => fc.oneof({ arbitrary: macLike(style), weight: weight(style, 12, 2) }, oddString())],
  ['mac_address', (_fx, style) => macLike(style)],
  ['name', (fx, style) => fc.oneof({ arbitrary: plainName(), weight: weight(style, 6, 1) }, ident('node', 'portgroup', 'allocation', 'template')(fx, style))],
  ['resource_class', oneOfStrings(['fuzz-rc', 'baremetal', 'CUSTOM_X'])],
  ['conductor_group', oneOfStrings(['', 'Group.1', 'fz-group'])], ['shard', ident('shard')],
  ['target', (fx, style) => fc.oneof(oneOfStrings([...PROVISION_TARGETS, ...POWER_TARGETS, 'uefi', 'bios'])(fx, style), fc.constantFrom(...BOOLISH))],
  ['provision.target', oneOfStrings(PROVISION_TARGETS)], ['power.target', oneOfStrings(POWER_TARGETS)],
  ['boot_mode.target', oneOfStrings(['uefi', 'bios', 'UEFI'])], ['secure_boot.target', () => fc.constantFrom(...BOOLISH)],
  ['traits', (fx, style) => fc.array(fc.oneof(ident('trait')(fx, style), customTrait()), { maxLength: 4 })], ['candidate_nodes', listOf(ident('node'))],
  ['steps', listOf(step)], ['clean_steps', listOf(step)], ['deploy_steps', listOf(step)], ['service_steps', listOf(step)],
  ['logical_disks', (fx, style) => fc.oneof(fc.array(logicalDisk(), { maxLength: 3 }), dict(fx, style))],
  ['configdrive', configdrive], ['events', listOf(event)],
  ['boot_device', oneOfStrings(['pxe', 'disk', 'cdrom', 'bios', 'safe', 'wanboot', 'usb'])],
  ['state', oneOfStrings(['ON', 'OFF', 'BLINKING', 'UNKNOWN', 'on'])],
  ['type', oneOfStrings(['iqn', 'ip', 'mac', 'wwnn', 'wwpn', 'portgroup'])],
  ['connector_id', (_fx, style) => fc.oneof({ arbitrary: plainName().map((n) => `iqn.2024-01.org.fz:${n}`), weight: weight(style, 6, 1) }, oddString())],
  ['volume_id', (_fx, style) => fc.oneof({ arbitrary: plainName(), weight: weight(style, 6, 1) }, oddString())],
  ['volume_type', oneOfStrings(['iscsi', 'fibre_channel', 'rbd'])],
  ['mode', oneOfStrings(['active-backup', 'balance-rr', '802.3ad', '4'])],
  ['callback_url', oneOfStrings(['http://192.0.2.5:9999', 'https://[::1]:9999', 'ftp://x', 'http://'])],
  ['agent_token', (_fx, style) => fc.oneof({ arbitrary: plainName(), weight: weight(style, 4, 1) }, oddString())],
  ['id', ident('vif', 'node')],
  ['timeout', (_fx, style) => fc.oneof({ arbitrary: int(-5, 100)(_fx, style), weight: weight(style, 6, 1) }, oddString())],
  ['bar', oneOfStrings(['woof', 'kazoo', 'meow', 'baa'])],
  ['template.name', (fx, style) => fc.oneof({ arbitrary: customTrait(), weight: weight(style, 10, 1) }, ident('template')(fx, style))],
  ['template.steps', listOf(templateStep)],
  ['boot_index', int(-2, 5)], ['priority', int(-2, 300)],
  ['description', (_fx, style) => fc.oneof({ arbitrary: fc.string({ maxLength: 40 }), weight: weight(style, 6, 1) }, oddString())],
]);

const BOOLEAN_FIELDS = new Set(['automated_clean', 'console_enabled', 'maintenance', 'retired', 'secure_boot', 'protected',
  'is_smartnic', 'pxe_enabled', 'standalone_ports_supported', 'enabled', 'persistent', 'disable_ramdisk', 'agent_verify_ca']);
const DICT_FIELDS = new Set(['driver_info', 'instance_info', 'extra', 'properties', 'network_data', 'local_link_connection',
  'internal_info', 'driver_internal_info', 'target_raid_config', 'raid_config', 'clean_step', 'args']);

function plausibleValue(kind: BodyKind, field: string, fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  const valueOf = VALUES.get(`${kind}.${field}`) ?? VALUES.get(field);
  if (valueOf) return valueOf(fx, style);
  if (BOOLEAN_FIELDS.has(field)) return fc.constantFrom(...BOOLISH);
  if (DICT_FIELDS.has(field)) return dict(fx, style);
  if (field.endsWith('_interface')) return oneOfStrings(INTERFACES)(fx, style);
  return fc.oneof(plainName(), identString(real(fx, 'node'), style));
}

/** A value for `field` of a `kind` body: a plausible one most of the time, else any JSON at all. */
export function fieldValue(kind: BodyKind, field: string, fx: FuzzFixtures, style: Style): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    { arbitrary: plausibleValue(kind, field, fx, style), weight: weight(style, 20, 4) },
    { arbitrary: jsonTree(INNER_KEYS, real(fx, 'node'), style, 2), weight: 1 },
    // null for any field: the schemas allow it for many, and the code behind must cope.
    { arbitrary: fc.constant(null), weight: 1 },
  );
}
