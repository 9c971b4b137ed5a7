// Behaviour at the old microversions (≤ 1.82) that Ironic 29.0.5 changed since 21.4.4: how the version
// headers are read, node links of ports, portgroups and volume objects, the fake vendor's new method,
// masking and refusals. Against 21.4.4 the differences are accepted with 29.0.5's answer as the reason.
import type { CaseGroup } from '../types';
import { del, get, MAX, patch, post, put } from './build';

const nodes = '/v1/nodes';
const os = (value: string): Record<string, string> => ({ 'OpenStack-API-Version': value });
const legacy = (value: string): Record<string, string> => ({ 'X-OpenStack-Ironic-API-Version': value });
const UNKNOWN = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const replaceNode = (value: unknown): unknown[] => [{ op: 'replace', path: '/node_uuid', value }];

export const oldVersions: CaseGroup = {
  group: 'old-versions',
  cases: [
    // Version headers as microversion_parse reads them.
    get('legacy header, comma-separated (last counts)', nodes, undefined, { headers: legacy('1.5, 1.31') }),
    get('legacy header, whitespace only', nodes, undefined, { headers: legacy('   ') }),
    get('legacy header with underscores', nodes, undefined, { headers: legacy('1.3_1') }),
    get('generic header, two services', nodes, undefined, { headers: os('compute 2.1, baremetal 1.31') }),
    get('generic header, two baremetal entries (last counts)', nodes, undefined, { headers: os('baremetal 1.5, baremetal 1.31') }),
    get('generic header, version with a trailing word', nodes, undefined, { headers: os('baremetal 1.5 x') }),
    get('generic header, service without a version', nodes, undefined, { headers: os('baremetal') }),
    get('root with the generic header', '/', undefined, { headers: os('baremetal 1.31') }),
    get('root with an empty legacy header', '/', undefined, { headers: legacy('') }),
    get('root below the minimum', '/', '1.0'),
    get('root, wrong major', '/', '2.1'),
    // Shards below 1.82, by method.
    get('a shard by name at 1.81', '/v1/shards/x', '1.81'),
    post('POST shards at 1.81', '/v1/shards', '1.81', {}),
    del('DELETE shards at 1.81', '/v1/shards', '1.81'),
    // Node links: what a PATCH may point a port, portgroup or volume connector at.
    post('node A', nodes, MAX, { driver: 'fake-hardware', name: 'link-a' }, { capture: { LA: 'uuid' } }),
    post('node B, another owner', nodes, MAX, { driver: 'fake-hardware', name: 'link-b', owner: 'other-project' },
      { capture: { LB: 'uuid' } }),
    post('port on A', '/v1/ports', MAX, { node_uuid: '{LA}', address: '52:54:00:00:31:01' }, { capture: { LP: 'uuid' } }),
    post('portgroup on A', '/v1/portgroups', MAX, { node_uuid: '{LA}', name: 'link-pg' }, { capture: { LG: 'uuid' } }),
    post('connector on A', '/v1/volume/connectors', MAX, { node_uuid: '{LA}', type: 'iqn', connector_id: 'iqn.link' },
      { capture: { LC: 'uuid' } }),
    patch('port to an unknown node', '/v1/ports/{LP}', MAX, replaceNode(UNKNOWN)),
    patch('port to a node by name', '/v1/ports/{LP}', MAX, replaceNode('link-a')),
    patch('port to a number', '/v1/ports/{LP}', MAX, replaceNode(5)),
    patch('port to a node of another owner', '/v1/ports/{LP}', MAX, replaceNode('{LB}')),
    patch('port removing node_uuid', '/v1/ports/{LP}', MAX, [{ op: 'remove', path: '/node_uuid' }]),
    patch('portgroup to an unknown node', '/v1/portgroups/{LG}', MAX, replaceNode(UNKNOWN)),
    patch('portgroup to garbage', '/v1/portgroups/{LG}', MAX, replaceNode('garbage')),
    patch('portgroup removing node_uuid', '/v1/portgroups/{LG}', MAX, [{ op: 'remove', path: '/node_uuid' }]),
    patch('connector to a node of another owner', '/v1/volume/connectors/{LC}', MAX, replaceNode('{LB}')),
    patch('connector removing node_uuid', '/v1/volume/connectors/{LC}', MAX, [{ op: 'remove', path: '/node_uuid' }]),
    get('port after the refusals', '/v1/ports/{LP}?fields=uuid,node_uuid', MAX),
    // The fake vendor's log_passthrough and masking of the SNMP keys and driver_internal_info.
    post('log_passthrough with any arguments', '/v1/nodes/{LA}/vendor_passthru?method=log_passthrough', MAX, { colour: 'red' }),
    patch('SNMP keys set', '/v1/nodes/{LA}', MAX, [{ op: 'add', path: '/driver_info/snmp_auth_key', value: 'k1' },
      { op: 'add', path: '/driver_info/snmp_priv_key', value: '' }]),
    get('SNMP keys masked when set', '/v1/nodes/{LA}?fields=driver_info', MAX),
    put('manage A', '/v1/nodes/{LA}/states/provision', MAX, { target: 'manage' }),
  ],
};
