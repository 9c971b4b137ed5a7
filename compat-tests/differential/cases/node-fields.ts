// Node fields at their edges: interface choices on create and patch (with reset_interfaces), field
// types and lengths, network_data, retirement and protection, owner/lessee and conductor groups.
import type { CaseGroup } from '../types';
import { get, MAX, patch, post, put, settle } from './build';

const nodes = '/v1/nodes';
const node = `${nodes}/{F1}`;
const replace = (path: string, value: unknown) => [{ op: 'replace', path, value }];

const physLink = { id: 'eth0', type: 'phy', ethernet_mac_address: '52:54:00:aa:00:01', mtu: 1500 };
const bondLink = { id: 'bond0', type: 'bond', ethernet_mac_address: '52:54:00:aa:00:02', bond_mode: 'active-backup', bond_links: ['eth0'] };
const vlanLink = { id: 'vlan10', type: 'vlan', vlan_mac_address: '52:54:00:aa:00:03', vlan_link: 'bond0', vlan_id: 10 };
const ipv4 = {
  id: 'net4', type: 'ipv4', link: 'vlan10', network_id: 'n4', ip_address: '192.0.2.10', netmask: '255.255.255.0',
  routes: [{ network: '0.0.0.0', netmask: '0.0.0.0', gateway: '192.0.2.1', services: [{ type: 'dns', address: '192.0.2.53' }] }],
};
const ipv6 = { id: 'net6', type: 'ipv6_slaac', link: 'eth0', network_id: 'n6', ip_address: '2001:db8::10', netmask: 'ffff:ffff:ffff:ffff::' };
const networkData = {
  links: [physLink, bondLink, vlanLink], networks: [ipv4, ipv6],
  services: [{ type: 'dns', address: '192.0.2.53' }, { type: 'dns', address: '2001:db8::53' }],
};
const withOne = (key: 'links' | 'networks' | 'services', item: unknown) => ({ ...networkData, [key]: [item] });

export const nodeFieldsGroup: CaseGroup = {
  group: 'node-fields',
  cases: [
    post('create with a disabled interface', nodes, MAX, { driver: 'fake-hardware', power_interface: 'ipmitool' }),
    post('create with an unknown interface', nodes, MAX, { driver: 'fake-hardware', deploy_interface: 'colour' }),
    post('create with an unknown driver', nodes, MAX, { driver: 'no-such-driver' }),
    post('create without driver', nodes, MAX, { name: 'no-driver' }),
    post('create with properties a string', nodes, MAX, { driver: 'fake-hardware', properties: 'x' }),
    post('create with extra a list', nodes, MAX, { driver: 'fake-hardware', extra: [1] }),
    post('create with maintenance a string', nodes, MAX, { driver: 'fake-hardware', maintenance: 'yes' }),
    post('create with a long description', nodes, MAX, { driver: 'fake-hardware', description: 'd'.repeat(4097) }),
    post('create with a long resource_class', nodes, MAX, { driver: 'fake-hardware', resource_class: 'r'.repeat(81) }),
    post('create with a bad conductor_group', nodes, MAX, { driver: 'fake-hardware', conductor_group: 'bad group!' }),
    post('create with network_data links not a list', nodes, MAX, { driver: 'fake-hardware', network_data: { links: 'x' } }),
    post('create with network_data missing services', nodes, MAX,
      { driver: 'fake-hardware', network_data: { links: [], networks: [] } }),
    post('create with a whole network_data', nodes, MAX, { driver: 'fake-hardware', name: 'netdata-node', network_data: networkData }),
    get('network_data as stored', '/v1/nodes/netdata-node?fields=network_data', MAX),
    post('create with network_data link of an unknown type', nodes, MAX,
      { driver: 'fake-hardware', network_data: withOne('links', { ...physLink, type: 'wifi' }) }),
    post('create with network_data link with a bad mac', nodes, MAX,
      { driver: 'fake-hardware', network_data: withOne('links', { ...physLink, ethernet_mac_address: 'nope' }) }),
    post('create with network_data network with a numeric address', nodes, MAX,
      { driver: 'fake-hardware', network_data: withOne('networks', { ...ipv4, routes: undefined, ip_address: 42 }) }),
    post('create with network_data service of another type', nodes, MAX,
      { driver: 'fake-hardware', network_data: withOne('services', { type: 'ntp', address: '192.0.2.1' }) }),
    post('create with network_data vlan without its id', nodes, MAX,
      { driver: 'fake-hardware', network_data: withOne('links', { ...vlanLink, vlan_id: undefined }) }),
    post('create with network_data at 1.65 (too old)', nodes, '1.65', { driver: 'fake-hardware', network_data: {} }),
    post('create with automated_clean a string', nodes, MAX, { driver: 'fake-hardware', automated_clean: 'sometimes' }),
    post('create with a bad chassis_uuid', nodes, MAX, { driver: 'fake-hardware', chassis_uuid: 'not-a-uuid' }),
    post('create with retired', nodes, MAX, { driver: 'fake-hardware', retired: true }),
    post('create with traits', nodes, MAX, { driver: 'fake-hardware', traits: ['CUSTOM_A'] }),
    post('create with a long owner', nodes, MAX, { driver: 'fake-hardware', owner: 'o'.repeat(256) }),
    post('create with a null name', nodes, MAX, { driver: 'fake-hardware', name: null }),
    post('node for field patches', nodes, MAX, { driver: 'fake-hardware', name: 'fields-node', network_interface: 'noop' },
      { capture: { F1: 'uuid' } }),
    patch('driver and interface together', node, MAX,
      [{ op: 'replace', path: '/driver', value: 'fake-hardware' }, { op: 'replace', path: '/boot_interface', value: 'fake' }]),
    patch('reset_interfaces at 1.44 (too old)', `${node}?reset_interfaces=True`, '1.44', replace('/driver', 'fake-hardware')),
    patch('reset_interfaces without a driver change', `${node}?reset_interfaces=True`, MAX, replace('/description', 'x')),
    patch('reset_interfaces with a driver change', `${node}?reset_interfaces=True`, MAX, replace('/driver', 'fake-hardware')),
    get('interfaces after reset', `${node}?fields=boot_interface,deploy_interface,network_interface,power_interface`, MAX),
    patch('network_data valid', node, MAX, replace('/network_data', { links: [], networks: [], services: [] })),
    patch('network_data empty', node, MAX, replace('/network_data', {})),
    patch('network_data links item missing fields', node, MAX, replace('/network_data', { links: [{ colour: 'red' }] })),
    patch('network_data whole document', node, MAX, replace('/network_data', networkData)),
    patch('network_data bond with a bad mode', node, MAX,
      replace('/network_data', withOne('links', { ...bondLink, bond_mode: 'sideways' }))),
    patch('network_data route without gateway', node, MAX,
      replace('/network_data', withOne('networks', { ...ipv4, routes: [{ network: '0.0.0.0', netmask: '0.0.0.0' }] }))),
    patch('network_data mtu out of range', node, MAX, replace('/network_data', withOne('links', { ...physLink, mtu: 0 }))),
    patch('network_data sub-path (not validated)', node, MAX, [{ op: 'add', path: '/network_data/links', value: 'x' }]),
    patch('retired_reason without retired', node, MAX, replace('/retired_reason', 'old')),
    patch('retired with reason', node, MAX, [{ op: 'replace', path: '/retired', value: true }, { op: 'replace', path: '/retired_reason', value: 'old' }]),
    patch('unretire keeps reason?', node, MAX, replace('/retired', false)),
    get('after unretire', `${node}?fields=retired,retired_reason`, MAX),
    patch('protected_reason without protected', node, MAX, replace('/protected_reason', 'why')),
    patch('owner and lessee', node, MAX, [{ op: 'add', path: '/owner', value: 'project-a' }, { op: 'add', path: '/lessee', value: 'project-b' }]),
    patch('lessee at 1.64 (too old)', node, '1.64', replace('/lessee', 'project-c')),
    patch('automated_clean false', node, MAX, replace('/automated_clean', false)),
    patch('automated_clean a string', node, MAX, replace('/automated_clean', 'no')),
    patch('conductor_group upper case', node, MAX, replace('/conductor_group', 'Group-B')),
    patch('conductor_group with a dot', node, MAX, replace('/conductor_group', 'group.b')),
    patch('description too long', node, MAX, replace('/description', 'd'.repeat(4097))),
    patch('properties with nested values', node, MAX, replace('/properties', { capabilities: 'boot_mode:uefi', root_device: { size: 10 } })),
    patch('boot_mode (read only)', node, MAX, replace('/boot_mode', 'uefi')),
    patch('secure_boot (read only)', node, MAX, replace('/secure_boot', true)),
    patch('traits (read only)', node, MAX, replace('/traits', ['CUSTOM_A'])),
    patch('conductor (read only)', node, MAX, replace('/conductor', 'x')),
    patch('allocation_uuid (read only)', node, MAX, replace('/allocation_uuid', '1be26c0b-03f2-4d2e-ae87-c02d7f33c123')),
    get('node after field patches', node, MAX),
    put('manage for interface rules', `${node}/states/provision`, MAX, { target: 'manage' }),
    settle('manageable for interface rules', '{F1}', ['manageable']),
    put('provide for interface rules', `${node}/states/provision`, MAX, { target: 'provide' }),
    settle('available for interface rules', '{F1}', ['available']),
    patch('interface in available', node, MAX, replace('/boot_interface', 'fake')),
    patch('resource_class in available', node, MAX, replace('/resource_class', 'other')),
    put('deploy for interface rules', `${node}/states/provision`, MAX, { target: 'active' }),
    settle('active for interface rules', '{F1}', ['active']),
    patch('interface when active', node, MAX, replace('/boot_interface', 'fake')),
    patch('resource_class when active', node, MAX, replace('/resource_class', 'third')),
    patch('driver when active', node, MAX, replace('/driver', 'fake-hardware')),
    patch('instance_info when active', node, MAX, [{ op: 'add', path: '/instance_info/foo', value: 'bar' }]),
    patch('protected when active', node, MAX, [{ op: 'replace', path: '/protected', value: true }, { op: 'replace', path: '/protected_reason', value: 'prod' }]),
    put('undeploy protected (refused)', `${node}/states/provision`, MAX, { target: 'deleted' }),
    put('rebuild protected (refused)', `${node}/states/provision`, MAX, { target: 'rebuild' }),
    patch('unprotect', node, MAX, replace('/protected', false)),
    get('after unprotect', `${node}?fields=protected,protected_reason`, MAX),
  ],
};
