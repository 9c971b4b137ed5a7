/**
 * The objects the fuzzer aims at: nodes holding every kind of secret the API must hide, and the
 * ports, portgroups, chassis, allocations, templates and volume objects around them, so generated
 * paths hit real objects part of the time. Fixed UUIDs keep a run reproducible from its seed.
 */
import * as assert from 'node:assert/strict';
import type { TestServer } from '../api/support/server';
import { makeNode } from '../api/support/fixtures';
import * as allocationsRepo from '../../src/db/repositories/allocations';
import * as biosRepo from '../../src/db/repositories/bios';
import * as historyRepo from '../../src/db/repositories/node-history';
import * as inventoryRepo from '../../src/db/repositories/inventory';
import { SECRET } from './secrets';
import { BMC_USER, Bmcs } from './bmcs';

export type PoolKind = 'node' | 'port' | 'portgroup' | 'chassis' | 'allocation' | 'template' | 'volume' | 'driver'
  | 'conductor' | 'shard' | 'trait' | 'vif' | 'indicator' | 'bios' | 'history' | 'vendor_method';

/** An object created through the API: re-created from the same body when the fuzzer deleted it. */
export interface Seed {
  collection: string;
  uuid: string;
  body: Record<string, unknown>;
}

export interface FuzzFixtures {
  /** Real identifiers by kind, for path parameters and body values. */
  pools: ReadonlyMap<PoolKind, readonly string[]>;
  /** The node no generated request names: the known-good request after fuzzing reads it. */
  sentinel: { uuid: string; name: string };
  seeds: readonly Seed[];
  /** The highest API version the server serves (GET /v1). */
  maxMinor: number;
}

const V = '1.82';
const uuid = (n: number): string => `f0220000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const NODE_A = uuid(1);
const NODE_B = uuid(2);
const NODE_C = uuid(3);
const NODE_D = uuid(4);
const NODE_R = uuid(6);
const NODE_RU = uuid(7);
const NODE_I = uuid(8);
const NODE_IW = uuid(0xa);
const SENTINEL = uuid(9);

/** Nodes on the emulated BMCs: one each with the right password, one each refused. */
function bmcNodes(bmcs: Bmcs): Seed[] {
  const redfishUrl = new URL(bmcs.redfishUrl);
  const withUserinfo = `${redfishUrl.protocol}//${BMC_USER}:${SECRET.bmcUrlPassword}@${redfishUrl.host}`;
  const node = (id: string, name: string, driver: string, driverInfo: Record<string, unknown>): Seed =>
    ({ collection: '/v1/nodes', uuid: id, body: nodeBody(id, name, { driver, driver_info: driverInfo }) });
  return [
    node(NODE_R, 'fz-node-r', 'redfish', { redfish_address: bmcs.redfishUrl, redfish_username: BMC_USER,
      redfish_password: SECRET.redfishPassword, redfish_system_id: '/redfish/v1/Systems/fz-r' }),
    node(NODE_RU, 'fz-node-ru', 'redfish', { redfish_address: withUserinfo, redfish_username: BMC_USER,
      redfish_password: SECRET.wrongPassword, redfish_system_id: '/redfish/v1/Systems/fz-ru' }),
    node(NODE_I, 'fz-node-i', 'ipmi', { ipmi_address: '127.0.0.1', ipmi_port: bmcs.ipmiPort, ipmi_username: BMC_USER,
      ipmi_password: SECRET.ipmiPassword }),
    node(NODE_IW, 'fz-node-iw', 'ipmi', { ipmi_address: '127.0.0.1', ipmi_port: bmcs.ipmiPort, ipmi_username: BMC_USER,
      ipmi_password: SECRET.wrongPassword }),
  ];
}

function secretDriverInfo(): Record<string, unknown> {
  return {
    ipmi_address: '192.0.2.10', ipmi_username: 'admin', ipmi_password: SECRET.ipmiPassword,
    redfish_address: `https://admin:${SECRET.bmcUrlPassword}@bmc.example`, redfish_username: 'admin',
    redfish_password: SECRET.redfishPassword, deploy_kernel: 'http://images.example/k', nested: { a: { b: 1 } },
  };
}

function secretInstanceInfo(): Record<string, unknown> {
  return {
    image_source: `http://user:${SECRET.imageUrlPassword}@host.example/img`, configdrive: SECRET.configdrive,
    image_url: `http://host.example/${SECRET.imageUrl}`, root_gb: 10, capabilities: { boot_mode: 'uefi' },
  };
}

function nodeBody(id: string, name: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uuid: id, name, driver: 'fake-hardware', driver_info: secretDriverInfo(), instance_info: secretInstanceInfo(),
    // extra is free-form operator data, shown as stored as Ironic shows it: no secret is kept there.
    extra: { note: 'seed', list: [1, 2, { x: 'y' }] }, resource_class: 'fuzz-rc',
    properties: { cpus: 8, memory_mb: 4096, local_gb: 20, cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' },
    lessee: 'fuzz-lessee', description: 'seeded for the API fuzz suite', shard: 'fz-shard', ...more,
  };
}

/** Ordered so every seed's references (chassis, nodes, portgroups) exist before it. */
function seedList(bmcs: Bmcs): Seed[] {
  const seeds: Seed[] = [
    { collection: '/v1/chassis', uuid: uuid(0x10), body: { uuid: uuid(0x10), description: 'rack 1', extra: { row: 'a' } } },
    { collection: '/v1/chassis', uuid: uuid(0x11), body: { uuid: uuid(0x11), description: 'rack 2' } },
    { collection: '/v1/nodes', uuid: NODE_A, body: nodeBody(NODE_A, 'fz-node-a', { chassis_uuid: uuid(0x10) }) },
    { collection: '/v1/nodes', uuid: NODE_B, body: nodeBody(NODE_B, 'fz-node-b') },
    { collection: '/v1/nodes', uuid: NODE_C, body: nodeBody(NODE_C, 'fz-node-c', { maintenance: true }) },
    { collection: '/v1/nodes', uuid: NODE_D, body: nodeBody(NODE_D, 'fz-node-d', { driver_info: {} }) },
    ...bmcNodes(bmcs),
    { collection: '/v1/portgroups', uuid: uuid(0x20), body: { uuid: uuid(0x20), node_uuid: NODE_A, name: 'fz-pg-a', address: '52:54:00:aa:00:01', mode: 'active-backup' } },
    { collection: '/v1/portgroups', uuid: uuid(0x21), body: { uuid: uuid(0x21), node_uuid: NODE_D, name: 'fz-pg-d' } },
    { collection: '/v1/ports', uuid: uuid(0x30), body: { uuid: uuid(0x30), node_uuid: NODE_A, address: '52:54:00:00:00:01', portgroup_uuid: uuid(0x20), local_link_connection: { switch_id: '00:11:22:33:44:55', port_id: 'Eth1' } } },
    { collection: '/v1/ports', uuid: uuid(0x31), body: { uuid: uuid(0x31), node_uuid: NODE_B, address: '52:54:00:00:00:02', pxe_enabled: true } },
    { collection: '/v1/ports', uuid: uuid(0x32), body: { uuid: uuid(0x32), node_uuid: NODE_D, address: '52:54:00:00:00:03', extra: { vif_port_id: 'fz-vif-0' } } },
    { collection: '/v1/volume/connectors', uuid: uuid(0x40), body: { uuid: uuid(0x40), node_uuid: NODE_D, type: 'iqn', connector_id: 'iqn.2024-01.org.fuzz:1' } },
    { collection: '/v1/volume/targets', uuid: uuid(0x41), body: { uuid: uuid(0x41), node_uuid: NODE_D, volume_type: 'iscsi', boot_index: 0, volume_id: 'fz-vol-1', properties: { auth_password: SECRET.volumePassword, target_iqn: 'iqn.x' } } },
    { collection: '/v1/deploy_templates', uuid: uuid(0x50), body: { uuid: uuid(0x50), name: 'CUSTOM_FZ_TEMPLATE', steps: [{ interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'a', value: 'b' }], password: SECRET.templateArg }, priority: 10 }] } },
    { collection: '/v1/deploy_templates', uuid: uuid(0x51), body: { uuid: uuid(0x51), name: 'CUSTOM_FZ_OTHER', steps: [{ interface: 'raid', step: 'apply_configuration', args: {}, priority: 0 }], extra: { k: 'v' } } },
    { collection: '/v1/allocations', uuid: uuid(0x60), body: { uuid: uuid(0x60), name: 'fz-alloc-1', resource_class: 'fuzz-rc', traits: ['CUSTOM_FZ'], extra: { e: 1 } } },
  ];
  return seeds;
}

export async function seedFixtures(server: TestServer, bmcs: Bmcs): Promise<FuzzFixtures> {
  const api: Api = async (method, path, body, ok = [200, 201, 202, 204]) => {
    const res = await server.request(method, path, { version: V, body });
    assert.ok(ok.includes(res.status), `seeding ${method} ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const seeds = seedList(bmcs);
  for (const seed of seeds) {
    // The allocation is seeded last, once node B is available (with a power state and the trait) to take it.
    if (seed.collection === '/v1/allocations') await makeAllocatable(api, NODE_B);
    await api('POST', seed.collection, seed.body, [201]);
  }
  await api('PUT', `/v1/nodes/${NODE_D}/traits`, { traits: ['CUSTOM_FZ', 'HW_CPU_X86_AVX'] }, [204]);
  await api('POST', `/v1/nodes/${NODE_D}/vifs`, { id: 'fz-vif-1' }, [204]);
  await api('POST', '/v1/nodes', nodeBody(SENTINEL, 'fz-sentinel', { shard: 'fz-sentinel-shard' }), [201]);
  await seedDatabaseOnly(server);
  const root = await api('GET', '/v1') as { version: { version: string } };
  const indicators = await api('GET', `/v1/nodes/${NODE_R}/management/indicators`) as { indicators: Array<{ name: string }> };
  const all = pools();
  all.set('indicator', [...all.get('indicator') ?? [], ...indicators.indicators.map((i) => i.name)]);
  return { pools: all, sentinel: { uuid: SENTINEL, name: 'fz-sentinel' }, seeds, maxMinor: Number(root.version.version.split('.')[1]) };
}

type Api = (method: string, path: string, body?: unknown, ok?: number[]) => Promise<unknown>;

/** What an allocation asks of a node: available, a known power state, the requested trait. */
async function makeAllocatable(api: Api, node: string): Promise<void> {
  await api('PUT', `/v1/nodes/${node}/states/provision`, { target: 'manage' }, [202]);
  await waitFor(api, node, 'provision_state', 'manageable');
  await api('PUT', `/v1/nodes/${node}/states/provision`, { target: 'provide' }, [202]);
  await waitFor(api, node, 'provision_state', 'available');
  await api('PUT', `/v1/nodes/${node}/states/power`, { target: 'power off' }, [202]);
  await waitFor(api, node, 'power_state', 'power off');
  await api('PUT', `/v1/nodes/${node}/traits`, { traits: ['CUSTOM_FZ'] }, [204]);
}

async function waitFor(api: Api, node: string, field: string, value: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const shown = await api('GET', `/v1/nodes/${node}?fields=${field}`) as Record<string, unknown>;
    if (Object.hasOwn(shown, field) && shown[field] === value) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`node ${node} never reached ${field} ${value}`);
}

/** What the API cannot create: an agent token, history and BIOS rows, an allocation's error, an active protected node. */
async function seedDatabaseOnly(server: TestServer): Promise<void> {
  const db = server.db;
  const active = await makeNode(db, {
    uuid: uuid(5), name: 'fz-node-e', provision_state: 'active', protected: true, protected_reason: 'fuzz',
    instance_uuid: uuid(0x70), power_state: 'power on', driver_info: secretDriverInfo(), instance_info: secretInstanceInfo(),
    driver_internal_info: { agent_secret_token: SECRET.agentToken, agent_url: 'http://192.0.2.20:9999' },
  });
  await historyRepo.create(db, {
    uuid: uuid(0x80), node_id: active.id, conductor: 'test-conductor', event_type: 'deploy', severity: 'ERROR',
    event: `Failed to reach https://admin:${SECRET.historyUrl}@bmc.example with password=${SECRET.historyUrl}`,
    user: null, project: null, state: 'active', target_provision_state: null, duration_seconds: null,
  } as historyRepo.NodeHistoryValues);
  await biosRepo.create(db, active.id, [{ name: 'fz_setting', value: 'on' }]);
  await inventoryRepo.create(db, active.id, { cpu: { count: 8, architecture: 'x86_64' }, memory: { physical_mb: 4096 },
    bmc_address: '192.0.2.30' }, { root_disk: { name: '/dev/sda' } });
  await allocationsRepo.create(db, {
    uuid: uuid(0x61), name: 'fz-alloc-err', state: 'error', resource_class: 'none-such', owner: null,
    last_error: `image fetch from http://u:${SECRET.allocationError}@host.example failed`, node_id: null, traits: [],
    candidate_nodes: [], extra: {}, conductor_affinity: null,
  } as allocationsRepo.AllocationValues);
}

function pools(): Map<PoolKind, string[]> {
  return new Map<PoolKind, string[]>([
    ['node', [NODE_A, NODE_B, NODE_C, NODE_D, uuid(5), NODE_R, NODE_RU, NODE_I, NODE_IW, 'fz-node-a', 'fz-node-b', 'fz-node-c',
      'fz-node-d', 'fz-node-e', 'fz-node-r', 'fz-node-ru', 'fz-node-i', 'fz-node-iw']],
    ['port', [uuid(0x30), uuid(0x31), uuid(0x32)]],
    ['portgroup', [uuid(0x20), uuid(0x21), 'fz-pg-a', 'fz-pg-d']],
    ['chassis', [uuid(0x10), uuid(0x11)]],
    ['allocation', [uuid(0x60), uuid(0x61), 'fz-alloc-1', 'fz-alloc-err']],
    ['template', [uuid(0x50), uuid(0x51), 'CUSTOM_FZ_TEMPLATE', 'CUSTOM_FZ_OTHER']],
    ['volume', [uuid(0x40), uuid(0x41)]],
    ['driver', ['fake-hardware', 'ipmi', 'redfish', 'manual-management', 'snmp', 'idrac']],
    ['conductor', ['test-conductor']],
    ['shard', ['fz-shard']],
    ['trait', ['CUSTOM_FZ', 'HW_CPU_X86_AVX', 'CUSTOM_NEW']],
    ['vif', ['fz-vif-0', 'fz-vif-1']],
    ['indicator', ['led@system', 'led-0@chassis']],
    ['bios', ['fz_setting']],
    ['history', [uuid(0x80)]],
    ['vendor_method', ['first_method', 'second_method', 'third_method_sync', 'fourth_method_shared_lock']],
  ]);
}
