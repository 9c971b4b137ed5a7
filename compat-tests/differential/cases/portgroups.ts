// Portgroups: CRUD, filters, and the /portgroups/X/ports and /nodes/X/portgroups sub-collections.
import type { CaseGroup } from '../types';
import { del, get, MAX, op, patch, post } from './build';

const pgs = '/v1/portgroups';

export const portgroupsGroup: CaseGroup = {
  group: 'portgroups',
  cases: [
    post('node for portgroups', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'pg-node' }, { capture: { GN: 'uuid' } }),
    post('create', pgs, MAX, { node_uuid: '{GN}', address: '52:54:00:cc:dd:01', name: 'pg-one', mode: '802.3ad', properties: { miimon: '100' } }, { capture: { PG1: 'uuid' } }),
    post('create minimal', pgs, MAX, { node_uuid: '{GN}' }, { capture: { PG2: 'uuid' } }),
    post('create at 1.22 (too old)', pgs, '1.22', { node_uuid: '{GN}' }),
    post('create at 1.23', pgs, '1.23', { node_uuid: '{GN}', name: 'pg-123' }, { capture: { PG3: 'uuid' } }),
    post('create duplicate name', pgs, MAX, { node_uuid: '{GN}', name: 'pg-one' }),
    post('create duplicate address', pgs, MAX, { node_uuid: '{GN}', address: '52:54:00:cc:dd:01' }),
    post('create bad address', pgs, MAX, { node_uuid: '{GN}', address: 'nope' }),
    post('create invalid name', pgs, MAX, { node_uuid: '{GN}', name: 'bad name' }),
    post('create unknown node', pgs, MAX, { node_uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }),
    post('create unknown field', pgs, MAX, { node_uuid: '{GN}', bogus: 1 }),
    get('show', `${pgs}/{PG1}`, MAX),
    get('show by name', `${pgs}/pg-one`, MAX),
    get('show at 1.22 (too old)', `${pgs}/{PG1}`, '1.22'),
    get('show at 1.23', `${pgs}/{PG1}`, '1.23'),
    get('show at 1.26', `${pgs}/{PG1}`, '1.26'),
    get('show with fields', `${pgs}/{PG1}?fields=uuid,name,mode`, MAX),
    get('list', pgs, MAX),
    get('list detail', `${pgs}/detail`, MAX),
    get('filter address', `${pgs}?address=52:54:00:cc:dd:01`, MAX),
    get('filter node', `${pgs}?node=pg-node`, MAX),
    post('port in portgroup', '/v1/ports', MAX, { node_uuid: '{GN}', address: '52:54:00:cc:dd:11', portgroup_uuid: '{PG1}' }, { capture: { GP1: 'uuid' } }),
    post('port in portgroup of another node', '/v1/ports', MAX, { node_uuid: '{GN}', address: '52:54:00:cc:dd:12', portgroup_uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }),
    get('portgroup ports', `${pgs}/{PG1}/ports`, MAX),
    get('portgroup ports detail', `${pgs}/{PG1}/ports/detail`, MAX),
    get('portgroup ports at 1.23 (too old)', `${pgs}/{PG1}/ports`, '1.23'),
    get('ports filtered by portgroup', '/v1/ports?portgroup=pg-one', MAX),
    get('node portgroups', '/v1/nodes/{GN}/portgroups', MAX),
    get('node portgroups detail', '/v1/nodes/{GN}/portgroups/detail', MAX),
    patch('patch name', `${pgs}/{PG1}`, MAX, [op('replace', '/name', 'pg-renamed')]),
    patch('patch mode', `${pgs}/{PG2}`, MAX, [op('replace', '/mode', 'balance-rr')]),
    patch('patch invalid path', `${pgs}/{PG1}`, MAX, [op('replace', '/bogus', 1)]),
    del('delete port', '/v1/ports/{GP1}', MAX),
    del('delete portgroup', `${pgs}/{PG1}`, MAX),
    del('delete portgroup by name', `${pgs}/pg-123`, MAX),
    get('show deleted', `${pgs}/{PG1}`, MAX),
  ],
};
