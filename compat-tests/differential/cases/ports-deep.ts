// Ports and portgroups beyond CRUD: local_link_connection rules, smart NICs, portgroup membership
// rules (standalone ports, node mismatch, deleting a used portgroup), portgroup properties and modes.
import type { CaseGroup } from '../types';
import { del, get, MAX, patch, post } from './build';

const ports = '/v1/ports';
const groups = '/v1/portgroups';
const llc = { switch_id: '0a:1b:2c:3d:4e:5f', port_id: 'Ethernet3/1', switch_info: 'switch1' };

export const portsDeepGroup: CaseGroup = {
  group: 'ports-deep',
  cases: [
    post('node for deep ports', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'deep-ports', network_interface: 'noop' },
      { capture: { DP: 'uuid' } }),
    post('other node for deep ports', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'deep-ports-2' }, { capture: { DQ: 'uuid' } }),
    post('port with local_link_connection', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:01', local_link_connection: llc },
      { capture: { PA: 'uuid' } }),
    post('llc with a bad switch_id', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:02', local_link_connection: { ...llc, switch_id: 'nope' } }),
    post('llc without port_id', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:03', local_link_connection: { switch_id: llc.switch_id } }),
    post('llc with an unknown key', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:04', local_link_connection: { ...llc, colour: 'red' } }),
    post('llc network_type at 1.63 (too old)', ports, '1.63', { node_uuid: '{DP}', address: '52:54:00:00:10:05', local_link_connection: { network_type: 'managed' } }),
    post('llc unmanaged network_type', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:06', local_link_connection: { network_type: 'unmanaged' } }),
    post('llc a string', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:07', local_link_connection: 'x' }),
    post('smartnic at 1.52 (too old)', ports, '1.52', { node_uuid: '{DP}', address: '52:54:00:00:10:08', is_smartnic: true }),
    post('smartnic without hostname', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:09', is_smartnic: true, local_link_connection: llc }),
    post('smartnic', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:0a', is_smartnic: true,
      local_link_connection: { port_id: 'rep0-0', hostname: 'host-0' } }),
    post('pxe_enabled a string', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:0b', pxe_enabled: 'sometimes' }),
    post('physical_network too long', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:0c', physical_network: 'p'.repeat(65) }),
    post('portgroup with properties', groups, MAX, { node_uuid: '{DP}', name: 'deep-pg', address: '52:54:00:00:20:01', mode: '802.3ad',
      properties: { miimon: '100' }, standalone_ports_supported: false }, { capture: { PG: 'uuid' } }),
    post('portgroup with a bad mode type', groups, MAX, { node_uuid: '{DP}', name: 'deep-pg-2', mode: 5 }),
    post('portgroup properties at 1.25 (too old)', groups, '1.25', { node_uuid: '{DP}', name: 'deep-pg-3', properties: {} }),
    post('portgroup on the other node', groups, MAX, { node_uuid: '{DQ}', name: 'deep-pg-other' }, { capture: { PO: 'uuid' } }),
    post('port into a portgroup of another node', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:10', portgroup_uuid: '{PO}' }),
    post('port into an unknown portgroup', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:11', portgroup_uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }),
    post('pxe port into a portgroup without standalone ports', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:12', portgroup_uuid: '{PG}', pxe_enabled: true }),
    post('non-pxe port into that portgroup', ports, MAX, { node_uuid: '{DP}', address: '52:54:00:00:10:13', portgroup_uuid: '{PG}', pxe_enabled: false },
      { capture: { PM: 'uuid' } }),
    patch('move a port into the portgroup', `${ports}/{PA}`, MAX, [{ op: 'add', path: '/portgroup_uuid', value: '{PG}' }]),
    patch('turn pxe off then move it', `${ports}/{PA}`, MAX,
      [{ op: 'replace', path: '/pxe_enabled', value: false }, { op: 'add', path: '/portgroup_uuid', value: '{PG}' }]),
    patch('allow standalone ports while members have pxe off', `${groups}/{PG}`, MAX, [{ op: 'replace', path: '/standalone_ports_supported', value: true }]),
    patch('disallow standalone ports again', `${groups}/{PG}`, MAX, [{ op: 'replace', path: '/standalone_ports_supported', value: false }]),
    patch('portgroup properties add', `${groups}/{PG}`, MAX, [{ op: 'add', path: '/properties/xmit_hash_policy', value: 'layer3+4' }]),
    patch('portgroup address duplicate of a port', `${groups}/{PG}`, MAX, [{ op: 'replace', path: '/address', value: '52:54:00:00:10:13' }]),
    patch('portgroup to the other node with members', `${groups}/{PG}`, MAX, [{ op: 'replace', path: '/node_uuid', value: '{DQ}' }]),
    patch('llc on a port in a portgroup', `${ports}/{PM}`, MAX, [{ op: 'add', path: '/local_link_connection', value: llc }]),
    patch('llc bad on patch', `${ports}/{PM}`, MAX, [{ op: 'add', path: '/local_link_connection', value: { switch_id: 'nope', port_id: 'x' } }]),
    get('portgroup members', `${groups}/{PG}/ports?detail=True`, MAX),
    get('ports filtered by portgroup name', `${ports}?portgroup=deep-pg`, MAX),
    get('ports with llc fields', `${ports}?node=deep-ports&fields=address,local_link_connection,is_smartnic,portgroup_uuid`, MAX),
    del('delete a portgroup with ports', `${groups}/{PG}`, MAX),
    patch('take the ports out', `${ports}/{PM}`, MAX, [{ op: 'remove', path: '/portgroup_uuid' }]),
    patch('take the other port out', `${ports}/{PA}`, MAX, [{ op: 'remove', path: '/portgroup_uuid' }]),
    del('delete the emptied portgroup', `${groups}/{PG}`, MAX),
    get('ports after the portgroup went', `${ports}?node=deep-ports&fields=address,portgroup_uuid,pxe_enabled`, MAX),
  ],
};
