// Chassis CRUD and the /chassis/X/nodes sub-collection.
import type { CaseGroup } from '../types';
import { del, get, MAX, op, patch, post } from './build';

const chassis = '/v1/chassis';

export const chassisGroup: CaseGroup = {
  group: 'chassis',
  cases: [
    post('create at 1.1', chassis, undefined, { description: 'ch one', extra: { row: 1 } }, { capture: { CH1: 'uuid' } }),
    post('create at max', chassis, MAX, { description: 'ch two' }, { capture: { CH2: 'uuid' } }),
    post('create empty', chassis, MAX, {}, { capture: { CH3: 'uuid' } }),
    post('create with client uuid', chassis, MAX, { uuid: '8b1c2d3e-4f50-4162-8a7b-9c0d1e2f3a4b' }),
    post('create duplicate uuid', chassis, MAX, { uuid: '8b1c2d3e-4f50-4162-8a7b-9c0d1e2f3a4b' }),
    post('create unknown field', chassis, MAX, { bogus: 1 }),
    post('create description too long', chassis, MAX, { description: 'x'.repeat(256) }),
    post('create extra wrong type', chassis, MAX, { extra: 'x' }),
    get('show at 1.1', `${chassis}/{CH1}`),
    get('show at max', `${chassis}/{CH1}`, MAX),
    get('show with fields', `${chassis}/{CH1}?fields=uuid,description`, MAX),
    get('show with unknown field', `${chassis}/{CH1}?fields=bogus`, MAX),
    get('list', chassis, MAX),
    get('list detail', `${chassis}/detail`, MAX),
    get('list detail=True', `${chassis}?detail=True`, MAX),
    get('list limit=1', `${chassis}?limit=1`, MAX),
    get('list sort desc', `${chassis}?sort_dir=desc`, MAX),
    get('list sort_key invalid', `${chassis}?sort_key=bogus`, MAX),
    patch('patch description', `${chassis}/{CH1}`, MAX, [op('replace', '/description', 'renamed')]),
    patch('patch extra add', `${chassis}/{CH1}`, MAX, [op('add', '/extra/col', 'c')]),
    patch('patch uuid', `${chassis}/{CH1}`, MAX, [op('replace', '/uuid', '1be26c0b-03f2-4d2e-ae87-c02d7f33c123')]),
    patch('patch invalid path', `${chassis}/{CH1}`, MAX, [op('replace', '/bogus', 1)]),
    post('node in chassis', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'in-chassis', chassis_uuid: '{CH1}' }, { capture: { CHN: 'uuid' } }),
    get('chassis nodes', `${chassis}/{CH1}/nodes`, MAX),
    get('chassis nodes detail', `${chassis}/{CH1}/nodes/detail`, MAX),
    get('chassis nodes at 1.1', `${chassis}/{CH1}/nodes`),
    get('chassis nodes of unknown chassis', `${chassis}/1be26c0b-03f2-4d2e-ae87-c02d7f33c123/nodes`, MAX),
    get('node shows chassis_uuid', '/v1/nodes/{CHN}?fields=uuid,chassis_uuid', MAX),
    del('delete chassis with nodes', `${chassis}/{CH1}`, MAX),
    patch('move node out of chassis', '/v1/nodes/{CHN}', MAX, [op('remove', '/chassis_uuid')]),
    patch('move node into chassis 2', '/v1/nodes/{CHN}', MAX, [op('replace', '/chassis_uuid', '{CH2}')]),
    del('delete empty chassis', `${chassis}/{CH1}`, MAX),
    get('show deleted chassis', `${chassis}/{CH1}`, MAX),
    del('delete unknown chassis', `${chassis}/1be26c0b-03f2-4d2e-ae87-c02d7f33c123`, MAX),
  ],
};
