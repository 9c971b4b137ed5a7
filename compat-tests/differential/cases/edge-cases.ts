// Smaller corners that are easy to get subtly wrong: text encoding, JSON-pointer escapes, odd query values.
// (No sort_key=uuid case: uuids are random, so that order differs even between two reference runs.)
import type { CaseGroup } from '../types';
import { get, MAX, op, patch, post } from './build';

const node = '/v1/nodes/{E1}';

export const edgeCases: CaseGroup = {
  group: 'edge-cases',
  cases: [
    post('non-ASCII description and extra', '/v1/nodes', MAX, {
      driver: 'fake-hardware', name: 'edge-node', description: 'café ☃ 日本', extra: { 'ключ': 'значение', quote: 'a "b" \\ c' },
    }, { capture: { E1: 'uuid' } }),
    get('show non-ASCII node', `${node}?fields=uuid,description,extra`, MAX),
    post('non-ASCII name', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'nöde' }),
    post('name of 255 characters', '/v1/nodes', MAX, { driver: 'fake-hardware', name: `n${'a'.repeat(254)}` }),
    patch('JSON pointer escapes', node, MAX, [op('add', '/extra/a~1b', 1), op('add', '/extra/c~0d', 2)]),
    patch('remove escaped key', node, MAX, [op('remove', '/extra/a~1b')]),
    patch('add into a list by index', node, MAX, [op('add', '/extra/list', [1, 2]), op('add', '/extra/list/1', 9)]),
    patch('add to end of list', node, MAX, [op('add', '/extra/list/-', 7)]),
    patch('replace root extra with non-object', node, MAX, [op('replace', '/extra', 'text')]),
    patch('add float and nested null', node, MAX, [op('add', '/properties/ratio', 1.5), op('add', '/properties/none', null)]),
    get('fields duplicated', `${node}?fields=uuid,uuid,name`, MAX),
    get('maintenance=True (capitalised)', '/v1/nodes?maintenance=True&fields=uuid', MAX),
    get('huge limit', '/v1/nodes?limit=99999999999999999999', MAX),
    get('limit=1000 exactly', '/v1/nodes?limit=1000&fields=uuid', MAX),
    get('detail next link', '/v1/nodes/detail?limit=1', MAX),
    get('fields next link', '/v1/nodes?fields=uuid&limit=1', MAX),
    get('ports unknown field', '/v1/ports?fields=uuid,bogus', MAX),
    get('chassis unknown field in list', '/v1/chassis?fields=bogus', MAX),
    get('empty marker', '/v1/nodes?marker=', MAX),
    get('empty sort_key', '/v1/nodes?sort_key=', MAX),
    get('repeated query parameter', '/v1/nodes?limit=1&limit=2', MAX),
    get('percent-encoded name in path', '/v1/nodes/edge%2Dnode', MAX),
  ],
};
