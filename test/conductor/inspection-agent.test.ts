/**
 * In-band inspection end to end on fake-hardware with the agent inspect interface: the conductor
 * starts the inspection (unmanaged boot), the test plays the ramdisk and posts a real inventory
 * to /v1/continue_inspection over the API's socket, and the hooks, the inspection rules and the
 * inventory storage run in the conductor.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultOf } from '../api/support/fixtures';
import { startTestServer, TestServer } from '../api/support/server';

const V = '1.96';
const MAC = '52:54:00:12:34:56';
const OTHER_MAC = '52:54:00:ab:cd:ef';

function inventory(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    interfaces: [
      { name: 'eth0', mac_address: MAC.toUpperCase(), ipv4_address: '192.0.2.20' },
      { name: 'eth1', mac_address: OTHER_MAC, ipv4_address: '198.51.100.7', client_id: 'cid-1' },
      { name: 'lo', mac_address: '00:00:00:00:00:00', ipv4_address: '127.0.0.1' },
    ],
    cpu: { architecture: 'aarch64', count: 8, flags: ['aes', 'pdpe1gb', 'sse4_2'] },
    memory: { physical_mb: 16384 },
    boot: { current_boot_mode: 'uefi', pxe_interface: `01-${MAC.replace(/:/g, '-')}` },
    disks: [{ name: '/dev/sda', size: 64 * 1024 ** 3, serial: 'S1' }],
    bmc_address: '192.0.2.200',
    ...extra,
  };
}

describe('agent inspection over /v1/continue_inspection', () => {
  let s: TestServer;

  before(async () => {
    s = await startTestServer({
      DEFAULT: { enabled_inspect_interfaces: 'agent,fake,no-inspect' },
      inspector: { require_managed_boot: 'false', hooks: '$default_hooks,memory,cpu-capabilities,boot-mode,root-device' },
    });
  });

  after(async () => s.stop());

  async function node(ident: string): Promise<Record<string, any>> {
    const r = await s.request('GET', `/v1/nodes/${ident}`, { version: V });
    assert.equal(r.status, 200, r.text);
    return r.json;
  }

  async function waitState(ident: string, state: string): Promise<Record<string, any>> {
    for (let i = 0; i < 200; i++) {
      const n = await node(ident);
      if (n.provision_state === state) return n;
      await sleep(25);
    }
    throw new Error(`node ${ident} never reached ${state}: ${JSON.stringify(await node(ident))}`);
  }

  /** A manageable agent-inspected node with one port, driven into `inspect wait`. */
  async function inspectWaitNode(name: string, driverInfo: Record<string, unknown> = {}, mac = MAC,
    properties: Record<string, unknown> = {}): Promise<string> {
    const created = await s.request('POST', '/v1/nodes', {
      version: V, body: { name, driver: 'fake-hardware', inspect_interface: 'agent', driver_info: driverInfo, properties },
    });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.uuid as string;
    if (mac) assert.equal((await s.request('POST', '/v1/ports', { version: V, body: { node_uuid: uuid, address: mac } })).status, 201);
    assert.equal((await s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'manage' } })).status, 202);
    await waitState(uuid, 'manageable');
    assert.equal((await s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'inspect' } })).status, 202);
    const waiting = await waitState(uuid, 'inspect wait');
    assert.equal(waiting.power_state, 'power on');
    assert.equal(waiting.driver_internal_info.inspector_manage_boot, false);
    return uuid;
  }

  it('processes the inventory: properties, ports, rules and the stored inventory', async () => {
    const rule = await s.request('POST', '/v1/inspection_rules', {
      version: V,
      body: {
        priority: 50,
        conditions: [{ op: 'contains', args: { value: '{inventory[cpu][flags]}', regex: 'aes' } }],
        actions: [
          { op: 'add-trait', args: ['CUSTOM_AES'] },
          { op: 'set-attribute', args: { path: 'extra/bmc', value: '{inventory[bmc_address]}' } },
          { op: 'set-plugin-data', args: { path: 'rule.seen', value: '{inventory[memory][physical_mb]}' } },
        ],
      },
    });
    assert.equal(rule.status, 201, rule.text);
    const uuid = await inspectWaitNode('inspected-1');
    const posted = await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inventory(), logs: 'Zm9v', extra_field: 1 } });
    assert.equal(posted.status, 202, posted.text);
    assert.equal(posted.json.node.uuid, uuid);
    assert.equal(typeof posted.json.config.agent_token, 'string');
    const done = await waitState(uuid, 'manageable');
    assert.equal(done.last_error, null);
    assert.equal(done.power_state, 'power off');
    assert.deepEqual(done.properties, {
      cpu_arch: 'aarch64', memory_mb: 16384, capabilities: 'cpu_aes:true,cpu_hugepages_1g:true,boot_mode:uefi', local_gb: '0',
    });
    assert.deepEqual(done.extra, { bmc: '192.0.2.200' });
    assert.deepEqual(done.traits, ['CUSTOM_AES']);
    assert.equal(done.driver_internal_info.inspector_manage_boot, undefined);
    const ports = await s.request('GET', `/v1/nodes/${uuid}/ports?detail=True`, { version: V });
    assert.deepEqual(ports.json.ports.map((p: { address: string; pxe_enabled: boolean }) => [p.address, p.pxe_enabled]), [[MAC, true]]);
    const stored = await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V });
    assert.equal(stored.status, 200, stored.text);
    assert.deepEqual(stored.json.inventory, inventory());
    assert.equal(stored.json.plugin_data.logs, undefined);
    assert.equal(stored.json.plugin_data.extra_field, 1);
    assert.deepEqual(stored.json.plugin_data.macs, [MAC.toUpperCase()]);
    assert.deepEqual(stored.json.plugin_data.rule, { seen: '16384' });
    assert.equal((await s.request('DELETE', `/v1/inspection_rules/${rule.json.uuid}`, { version: V })).status, 204);
  });

  it('adds every reported NIC as a port when [inspector]add_ports says all', async () => {
    s.conf.set('inspector', 'add_ports', 'all');
    try {
      const uuid = await inspectWaitNode('inspected-all', {}, '52:54:00:00:00:01');
      // A NIC named like a prototype key is a NIC like any other.
      const inv = inventory({ interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:01' }, { name: '__proto__', mac_address: '52:54:00:00:00:02' }] });
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } })).status, 202);
      await waitState(uuid, 'manageable');
      const ports = await s.request('GET', `/v1/nodes/${uuid}/ports?detail=True`, { version: V });
      assert.deepEqual(ports.json.ports.map((p: { address: string }) => p.address).sort(), ['52:54:00:00:00:01', '52:54:00:00:00:02']);
    } finally {
      s.conf.set('inspector', 'add_ports', 'pxe');
    }
  });

  it('fills ports\' local link connection from LLDP and their physical network from the CIDR map', async () => {
    s.conf.set('inspector', 'hooks', '$default_hooks,local-link-connection,physical-network');
    s.conf.set('inspector', 'physical_network_cidr_map', ['10.0.0.0/24:physnet1', '2001:db8::/64:physnet6']);
    s.conf.set('inspector', 'add_ports', 'all');
    try {
      const uuid = await inspectWaitNode('lldp', {}, '52:54:00:00:00:31');
      const inv = inventory({
        boot: {},
        interfaces: [
          // Chassis ID subtype 4 (MAC), port ID subtype 5 (ifName "Ethernet1/1").
          { name: 'eth0', mac_address: '52:54:00:00:00:31', ipv4_address: '10.0.0.5', lldp: [[1, '04aabbccddeeff'], [2, '0545746865726e6574312f31']] },
          // Port ID subtype 4 (IANA IPv6 address); chassis ID subtype 7 (local) is not a switch_id.
          { name: 'eth1', mac_address: '52:54:00:00:00:32', ipv6_address: '2001:db8::9', lldp: [[1, '07737731'], [2, '040220010db8000000000000000000000001']] },
          // An unknown port ID subtype leaves the port alone.
          { name: 'eth2', mac_address: '52:54:00:00:00:33', lldp: [[2, '09ff']] },
        ],
      });
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } })).status, 202);
      await waitState(uuid, 'manageable');
      const ports = await s.request('GET', `/v1/nodes/${uuid}/ports?detail=True`, { version: V });
      const byMac = Object.fromEntries(ports.json.ports.map((p: Record<string, unknown>) =>
        [p.address, [p.local_link_connection, p.physical_network]]));
      assert.deepEqual(byMac, {
        '52:54:00:00:00:31': [{ switch_id: 'aa:bb:cc:dd:ee:ff', port_id: 'Ethernet1/1' }, 'physnet1'],
        '52:54:00:00:00:32': [{ port_id: '2001:db8::1' }, 'physnet6'],
        '52:54:00:00:00:33': [{}, null],
      });
    } finally {
      s.conf.set('inspector', 'hooks', '$default_hooks,memory,cpu-capabilities,boot-mode,root-device');
      s.conf.set('inspector', 'physical_network_cidr_map', []);
      s.conf.set('inspector', 'add_ports', 'pxe');
    }
  });

  it('parses LLDP into plugin data and picks the root disk by hints with operators', async () => {
    s.conf.set('inspector', 'hooks', '$default_hooks,parse-lldp,root-device');
    try {
      const hints = { root_device: { size: '>= 100', model: '<in> fast' }, skip_block_devices: [{ name: '/dev/sdb' }] };
      const uuid = await inspectWaitNode('parsed-lldp', {}, '52:54:00:00:00:61', hints);
      const disks = [
        { name: '/dev/sda', size: 64 * 1024 ** 3, model: 'Fast SSD' },
        { name: '/dev/sdb', size: 200 * 1024 ** 3, model: 'Fast NVMe' },
        { name: '/dev/sdc', size: 500 * 1024 ** 3, model: 'FAST HDD', rotational: true },
      ];
      const inv = inventory({
        boot: {},
        disks,
        interfaces: [{
          name: 'eth0', mac_address: '52:54:00:00:00:61',
          // Chassis ID (MAC), port ID (local "734"), system name, management IPv4, 802.1 untagged VLAN 102, 802.3 MTU 1514.
          lldp: [[1, '04112233aabbcc'], [2, '07373334'], [5, '737730312d646973742d31622d623132'],
            [8, '0501c000020f020000000000'], [127, '0080c2010066'], [127, '00120f0405ea']],
        }],
      });
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } })).status, 202);
      const done = await waitState(uuid, 'manageable');
      assert.equal(done.last_error, null);
      assert.equal(done.properties.local_gb, '499');
      const stored = await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V });
      assert.deepEqual(stored.json.plugin_data.root_disk, disks[2]);
      assert.deepEqual(stored.json.plugin_data.parsed_lldp, {
        eth0: {
          switch_chassis_id: '11:22:33:aa:bb:cc', switch_port_id: '734', switch_system_name: 'sw01-dist-1b-b12',
          switch_mgmt_addresses: ['192.0.2.15'], switch_port_untagged_vlan_id: 102, switch_port_mtu: 1514,
        },
      });

      const bad = await inspectWaitNode('bad-hints', {}, '52:54:00:00:00:62', { root_device: { size: '>= big' } });
      const badInv = inventory({ boot: {}, disks, interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:62' }] });
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: badInv } })).status, 202);
      const failed = await waitState(bad, 'inspect failed');
      assert.match(failed.last_error, new RegExp('No disks could be found using root device hints \\{\'size\': \'>= big\'\\} ' +
        `for node ${bad} because they failed to validate. Error: Root device hint "size" is not an integer value. Current value: >= big`));
    } finally {
      s.conf.set('inspector', 'hooks', '$default_hooks,memory,cpu-capabilities,boot-mode,root-device');
    }
  });

  it('turns hardware-detect records into plugin data and known GPUs into the accelerators property', async () => {
    s.conf.set('inspector', 'hooks', '$default_hooks,extra-hardware,accelerators');
    try {
      const uuid = await inspectWaitNode('extra', {}, '52:54:00:00:00:41');
      const inv = inventory({ boot: {}, interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:41' }] });
      const body = {
        inventory: inv,
        data: [['cpu', 'logical', 'number', '8'], ['disk', 'sda', 'size'], [], ['memory', 'total', 'size', 4.5]],
        pci_devices: [{ vendor_id: '10de', product_id: '1eb8', bus: '0000:01:00.0' }, { vendor_id: '8086', product_id: '1', bus: 'x' }],
      };
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body })).status, 202);
      const done = await waitState(uuid, 'manageable');
      assert.deepEqual(done.properties.accelerators, [
        { vendor_id: '10de', device_id: '1eb8', type: 'GPU', device_info: 'NVIDIA Corporation Tesla T4', pci_address: '0000:01:00.0' },
      ]);
      const stored = await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V });
      assert.deepEqual(stored.json.plugin_data.extra, { cpu: { logical: { number: 8 } }, disk: { sda: {} }, memory: { total: { size: 4 } } });
      assert.equal(stored.json.plugin_data.data, undefined);
    } finally {
      s.conf.set('inspector', 'hooks', '$default_hooks,memory,cpu-capabilities,boot-mode,root-device');
    }
  });

  it('answers an ironic-inspector ramdisk (version 1.1) with the node\'s UUID only', async () => {
    const uuid = await inspectWaitNode('at-1.1', {}, '52:54:00:00:00:51');
    const inv = inventory({ boot: {}, interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:51' }] });
    const posted = await s.request('POST', '/v1/continue_inspection', { body: { inventory: inv } });
    assert.equal(posted.status, 202, posted.text);
    assert.deepEqual(posted.json, { uuid });
    await waitState(uuid, 'manageable');
  });

  it('finds a node by the BMC address cached when inspection started', async () => {
    const uuid = await inspectWaitNode('by-bmc', { ipmi_address: '192.0.2.77' }, '');
    const info = (await node(uuid)).driver_internal_info;
    assert.deepEqual(info.lookup_bmc_addresses, ['192.0.2.77']);
    const inv = inventory({ interfaces: [{ name: 'eth0', mac_address: '52:54:00:99:99:99' }], bmc_address: '192.0.2.77', boot: {} });
    const posted = await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } });
    assert.equal(posted.status, 202, posted.text);
    assert.equal(posted.json.node.uuid, uuid);
    const done = await waitState(uuid, 'manageable');
    // Only an abort clears the cache (agent.py), as in Ironic.
    assert.equal(posted.json.config.agent_token_required, true);
    assert.deepEqual(done.driver_internal_info.lookup_bmc_addresses, ['192.0.2.77']);
  });

  it('fails the inspection when the ramdisk reports an error or a rule says so', async () => {
    const uuid = await inspectWaitNode('ramdisk-error', {}, '52:54:00:00:00:10');
    const inv = inventory({ interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:10' }], boot: {} });
    assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv, error: 'disk on fire' } })).status, 202);
    const failed = await waitState(uuid, 'inspect failed');
    assert.equal(failed.last_error, 'Failed to finish inspection: Failed to inspect hardware. Reason: failed to run inspection hooks: ' +
      'Failed to inspect hardware. Reason: The following failures happened while running preprocess hooks for node ' +
      `${uuid}:\nError in preprocess hook ramdisk-error: Failed to inspect hardware. Reason: Ramdisk reported error: disk on fire`);
    assert.equal((await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V })).status, 404);

    const rule = await s.request('POST', '/v1/inspection_rules', {
      version: V, body: { actions: [{ op: 'fail', args: { msg: 'too small' } }], conditions: [{ op: 'is-true', args: { value: true } }] },
    });
    assert.equal(rule.status, 201, rule.text);
    assert.equal((await s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'inspect' } })).status, 202);
    await waitState(uuid, 'inspect wait');
    assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } })).status, 202);
    const ruled = await waitState(uuid, 'inspect failed');
    assert.equal(ruled.last_error, 'Failed to finish inspection: Failed to inspect hardware. Reason: too small');
    assert.equal((await s.request('DELETE', `/v1/inspection_rules/${rule.json.uuid}`, { version: V })).status, 204);
  });

  it('runs the built-in rules file after the stored rules, and rules read secrets masked', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'builtin-rules-')), 'rules.yaml');
    fs.writeFileSync(file, [
      '- description: built in, below any user rule',
      '  priority: -10',
      '  conditions:',
      '    - op: is-false',
      '      args: {value: "{plugin_data[flags][off]}"}',
      '  actions:',
      '    - op: add-trait',
      '      args: [CUSTOM_BUILTIN]',
      '    - op: set-plugin-data',
      '      args: {path: copied, value: "{plugin_data[creds][password]}"}',
    ].join('\n'));
    s.conf.set('inspection_rules', 'built_in_rules', file);
    try {
      const uuid = await inspectWaitNode('built-in', {}, '52:54:00:00:00:20');
      const inv = inventory({ interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:20' }], boot: {} });
      const body = { inventory: inv, flags: { off: 'no' }, creds: { password: 'hunter2' } };
      assert.equal((await s.request('POST', '/v1/continue_inspection', { version: V, body })).status, 202);
      const done = await waitState(uuid, 'manageable');
      assert.deepEqual(done.traits, ['CUSTOM_BUILTIN']);
      const stored = await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V });
      assert.equal(stored.json.plugin_data.copied, '***');
    } finally {
      s.conf.set('inspection_rules', 'built_in_rules', null);
    }
  });

  it('answers the same bare 404 for unknown nodes and nodes in other states', async () => {
    const unknown = await s.request('POST', '/v1/continue_inspection', {
      version: V, body: { inventory: { interfaces: [{ mac_address: '52:54:00:de:ad:00' }] } },
    });
    assert.equal(unknown.status, 404);
    assert.equal(faultOf(unknown.json), 'Resource could not be found.');
    const manageable = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware' } });
    const wrong = await s.request('POST', `/v1/continue_inspection?node_uuid=${manageable.json.uuid}`, {
      version: V, body: { inventory: { interfaces: [{ mac_address: 'bad' }] } },
    });
    assert.equal(wrong.status, 404);
    assert.equal(faultOf(wrong.json), 'Resource could not be found.');
    const noInfo = await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: { interfaces: [{ mac_address: 'bad' }] } } });
    assert.equal(faultOf(noInfo.json), 'No lookup information provided');
    const old = await s.request('POST', '/v1/continue_inspection', { version: '1.83', body: { inventory: { interfaces: [{ mac_address: MAC }] } } });
    assert.equal(faultOf(old.json), 'API version 1.84 or newer is required');
  });

  it('enrolls an unknown machine when auto-discovery is on', async () => {
    s.conf.set('auto_discovery', 'enabled', true);
    s.conf.set('auto_discovery', 'driver', 'fake-hardware');
    s.conf.set('DEFAULT', 'default_inspect_interface', 'agent');
    try {
      const inv = inventory({ interfaces: [{ name: 'eth0', mac_address: '52:54:00:77:77:77' }], bmc_address: null, boot: {} });
      const posted = await s.request('POST', '/v1/continue_inspection', { version: V, body: { inventory: inv } });
      assert.equal(posted.status, 202, posted.text);
      const uuid = posted.json.node.uuid as string;
      for (let i = 0; i < 200 && (await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V })).status !== 200; i++) await sleep(25);
      const stored = await s.request('GET', `/v1/nodes/${uuid}/inventory`, { version: V });
      assert.equal(stored.json.plugin_data.auto_discovered, true);
      const n = await node(uuid);
      assert.equal(n.provision_state, 'enroll');
      assert.equal(n.driver, 'fake-hardware');
      assert.equal(n.inspect_interface, 'agent');
      assert.equal(n.properties.cpu_arch, 'aarch64');
    } finally {
      s.conf.set('auto_discovery', 'enabled', false);
      s.conf.set('DEFAULT', 'default_inspect_interface', null);
    }
  });
});
