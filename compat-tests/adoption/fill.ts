/**
 * Fills a reference Ironic through its API with one of everything an operator has: nodes in several
 * provision states, a maintenance node, secrets in driver_info, traits, a chassis, ports with switch
 * data, a portgroup, VIFs and a deploy template.
 */
import { LATEST_2025, ok, waitProvisionState } from './api';

export interface Inventory {
  chassis: string;
  nodes: string[];
  ports: string[];
  portgroup: string;
  template: string;
  /** What only Ironic 2025.1 can hold, when the reference is 29.0.5. */
  v2025?: Inventory2025;
}

export interface Inventory2025 {
  /** A child node of adopt-available (hidden from default node lists). */
  child: string;
  namedPort: string;
  runbook: string;
  rule: string;
}

const PROPERTIES = { cpus: 8, memory_mb: 16384, local_gb: 100, cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' };

async function createNode(base: string, name: string, chassis: string | null, extra: Record<string, unknown>): Promise<string> {
  const node = await ok(base, 'POST', '/v1/nodes', {
    name, driver: 'fake-hardware', ...(chassis ? { chassis_uuid: chassis } : {}),
    driver_info: { deploy_kernel: 'http://images.example/k', ipmi_username: 'admin', ipmi_password: 's3cr3t-pw' },
    properties: PROPERTIES, extra, resource_class: 'baremetal', description: `adoption ${name}`,
  });
  return String(node.uuid);
}

async function provision(base: string, uuid: string, target: string, reached: string): Promise<void> {
  await ok(base, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target });
  await waitProvisionState(base, uuid, reached);
}

async function createNetwork(base: string, node: string): Promise<{ ports: string[]; portgroup: string }> {
  const pg = await ok(base, 'POST', '/v1/portgroups', {
    node_uuid: node, address: '52:54:00:aa:00:01', name: 'adopt-bond0', mode: '802.3ad',
    properties: { miimon: '100' }, extra: { note: 'bond' }, standalone_ports_supported: true,
  });
  const ports: string[] = [];
  for (const [i, mac] of ['52:54:00:aa:00:02', '52:54:00:aa:00:03', '52:54:00:aa:00:04'].entries()) {
    const port = await ok(base, 'POST', '/v1/ports', {
      node_uuid: node, address: mac, pxe_enabled: i === 0, physical_network: 'physnet1',
      local_link_connection: { switch_id: '0a:1b:2c:3d:4e:5f', port_id: `Ethernet1/${i + 1}`, switch_info: 'tor-1' },
      extra: { slot: i }, ...(i < 2 ? { portgroup_uuid: String(pg.uuid) } : {}),
    });
    ports.push(String(port.uuid));
  }
  return { ports, portgroup: String(pg.uuid) };
}

export async function fillReference(base: string): Promise<Inventory> {
  const chassis = String((await ok(base, 'POST', '/v1/chassis', { description: 'rack 12', extra: { row: 'B' } })).uuid);
  const enroll = await createNode(base, 'adopt-enroll', chassis, { owner_team: 'infra' });
  const manageable = await createNode(base, 'adopt-manageable', null, {});
  const available = await createNode(base, 'adopt-available', chassis, { tags: ['a', 'b'], nested: { k: 1 } });
  const active = await createNode(base, 'adopt-active', chassis, { rack_unit: 7 });
  const maint = await createNode(base, 'adopt-maintenance', null, { note: 'flaky psu' });
  for (const n of [manageable, available, active, maint]) await provision(base, n, 'manage', 'manageable');
  for (const n of [available, active, maint]) await provision(base, n, 'provide', 'available');
  const net = await createNetwork(base, active);
  await ok(base, 'PUT', `/v1/nodes/${active}/traits`, { traits: ['CUSTOM_GPU', 'HW_CPU_X86_VMX'] });
  await ok(base, 'PUT', `/v1/nodes/${available}/traits/CUSTOM_RAID1`);
  await ok(base, 'PATCH', `/v1/nodes/${active}`, [
    { op: 'add', path: '/instance_info', value: { image_source: 'http://images.example/img.qcow2', root_gb: '10' } },
  ]);
  await provision(base, active, 'active', 'active');
  for (const vif of ['6f1c2d3e-0000-4000-8000-00000000a001', '6f1c2d3e-0000-4000-8000-00000000a002']) {
    await ok(base, 'POST', `/v1/nodes/${active}/vifs`, { id: vif });
  }
  await ok(base, 'PUT', `/v1/nodes/${maint}/maintenance`, { reason: 'PSU replacement, ticket 4711' });
  const template = await ok(base, 'POST', '/v1/deploy_templates', {
    name: 'CUSTOM_HYPERTHREADING_ON', extra: { by: 'adoption' },
    steps: [{ interface: 'bios', step: 'apply_configuration', priority: 150, args: { settings: [{ name: 'LogicalProc', value: 'Enabled' }] } }],
  });
  return { chassis, nodes: [enroll, manageable, available, active, maint], ports: net.ports, portgroup: net.portgroup, template: String(template.uuid) };
}

/** Ironic 2025.1's additions: a child node, a named port, a runbook and an inspection rule. */
export async function fill2025(base: string, inv: Inventory): Promise<Inventory2025> {
  const [parent] = [inv.nodes[2]];
  const child = await ok(base, 'POST', '/v1/nodes', {
    name: 'adopt-child', driver: 'fake-hardware', parent_node: parent, disable_power_off: true, description: 'a DPU',
  }, LATEST_2025);
  const port = await ok(base, 'POST', '/v1/ports', { node_uuid: parent, address: '52:54:00:aa:00:05', name: 'adopt-port-named' }, LATEST_2025);
  const runbook = await ok(base, 'POST', '/v1/runbooks', {
    name: 'CUSTOM_ADOPT_RUNBOOK', extra: { by: 'adoption' },
    steps: [{ interface: 'deploy', step: 'erase_devices_metadata', args: {}, order: 1 }],
  }, LATEST_2025);
  const rule = await ok(base, 'POST', '/v1/inspection_rules', {
    description: 'adoption rule', priority: 10,
    conditions: [{ op: 'is-true', args: { value: '{inventory[interfaces][0][has_carrier]}' } }],
    actions: [{ op: 'set-attribute', args: { path: '/extra/inspected', value: true } }],
  }, LATEST_2025);
  return { child: String(child.uuid), namedPort: String(port.uuid), runbook: String(runbook.uuid), rule: String(rule.uuid) };
}
