// In-band inspection (1.84) and inspection rules (1.96) of Ironic 2025.1: the rules' CRUD with its
// schema and argument checks, sensitive masking and next links; continue_inspection's answers to
// bad bodies, old versions, unknown nodes and nodes in the wrong state.
import type { CaseGroup } from '../types';
import { del, get, MAX, op, patch, post, put, raw, settle } from './build';

const V = '1.96';
const rules = '/v1/inspection_rules';
const ci = '/v1/continue_inspection';
const R1 = '5d1c0b1e-0000-4000-8000-000000000001';
const R2 = '5d1c0b1e-0000-4000-8000-000000000002';
const R3 = '5d1c0b1e-0000-4000-8000-000000000003';
const R4 = '5d1c0b1e-0000-4000-8000-000000000004';
const N1 = '5d1c0b1e-0000-4000-8000-0000000000a1';
const MAC = '52:54:00:5d:1c:01';
const trait = (name: string): Record<string, unknown> => ({ op: 'add-trait', args: [name] });
const inventory = (interfaces: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ inventory: { interfaces, ...extra } });

export const v2025Inspection: CaseGroup = {
  group: 'v2025-inspection',
  onlyRelease: '2025.1',
  cases: [
    get('rules at 1.95 (unknown)', rules, '1.95'),
    post('create at 1.95 (unknown)', rules, '1.95', { actions: [trait('CUSTOM_A')] }),
    get('empty list', rules, V),
    post('create', rules, V, {
      uuid: R1, priority: 5, description: 'first',
      conditions: [{ op: '!eq', args: { values: [1, 2] }, loop: [1], extra: 'kept' }, { op: 'contains', args: { value: '{inventory[cpu]}', regex: 'x86' } }],
      actions: [{ op: 'set-plugin-data', args: { path: 'a.b', value: '{inventory[cpu][count]}' } }, trait('CUSTOM_B')],
    }),
    post('create sensitive', rules, V, { uuid: R2, sensitive: true, actions: [trait('CUSTOM_S')], conditions: [] }),
    post('create with null sensitive', rules, V, { uuid: R3, actions: [trait('CUSTOM_N')], conditions: [], sensitive: null, priority: 9999 }),
    post('too few list arguments', rules, V, { actions: [{ op: 'add-trait', args: [] }] }),
    post('missing and unexpected arguments', rules, V, { actions: [{ op: 'add-trait', args: { colour: 'red' } }] }),
    post('duplicate uuid', rules, V, { uuid: R1, actions: [trait('CUSTOM_A')], conditions: [] }),
    post('no actions', rules, V, { conditions: [] }),
    post('empty actions', rules, V, { actions: [] }),
    post('unknown action', rules, V, { actions: [{ op: 'colour', args: {} }] }),
    post('unknown operator', rules, V, { actions: [trait('CUSTOM_A')], conditions: [{ op: '!!eq', args: [] }] }),
    post('args of the wrong type', rules, V, { actions: [{ op: 'add-trait', args: 'CUSTOM_A' }] }),
    post('action without args', rules, V, { actions: [{ op: 'add-trait' }] }),
    post('bad uuid', rules, V, { uuid: 'nope', actions: [trait('CUSTOM_A')] }),
    post('bad phase and priority', rules, V, { actions: [trait('CUSTOM_A')], priority: 10000, phase: 'late' }),
    post('null phase', rules, V, { actions: [trait('CUSTOM_A')], phase: null }),
    post('negative priority', rules, V, { actions: [trait('CUSTOM_A')], priority: -1 }),
    post('description too long', rules, V, { actions: [trait('CUSTOM_A')], description: 'x'.repeat(256) }),
    post('unknown field', rules, V, { actions: [trait('CUSTOM_A')], scope: 'x' }),
    post('bad multiple', rules, V, { actions: [trait('CUSTOM_A')], conditions: [{ op: 'eq', args: { values: [] }, multiple: 'some' }] }),
    raw('POST', 'body not an object', rules, V, '[1]'),
    get('show', `${rules}/${R1}`, V),
    get('show sensitive', `${rules}/${R2}`, V),
    get('show with fields', `${rules}/${R1}?fields=uuid,actions`, V),
    get('show with a bad field', `${rules}/${R1}?fields=uuid,colour`, V),
    get('show not a uuid', `${rules}/nope`, V),
    get('show unknown', `${rules}/5d1c0b1e-0000-4000-8000-00000000ffff`, V),
    get('list', rules, V),
    get('list detail', `${rules}?detail=True`, V),
    get('list with phase and limit', `${rules}?phase=main&limit=1`, V),
    get('list detail sorted by uuid, limit 1', `${rules}?detail=True&sort_key=uuid&limit=1`, V),
    get('list with fields and a marker', `${rules}?fields=uuid,priority&marker=${R1}`, V),
    get('list with an unknown marker', `${rules}?marker=nope`, V),
    get('list sorted by actions', `${rules}?sort_key=actions`, V),
    get('list sorted by an unknown key', `${rules}?sort_key=colour`, V),
    get('list with detail and fields', `${rules}?detail=True&fields=uuid`, V),
    get('list with an unknown argument', `${rules}?colour=red`, V),
    patch('patch priority and description', `${rules}/${R1}`, V, [op('replace', '/priority', 7), op('add', '/description', 'changed')]),
    patch('patch an action argument', `${rules}/${R1}`, V, [op('replace', '/actions/0/args/path', 'c.d')]),
    patch('patch a new root attribute', `${rules}/${R1}`, V, [op('add', '/colour', 'red')]),
    patch('patch a negative priority', `${rules}/${R1}`, V, [op('replace', '/priority', -1)]),
    patch('patch a bad phase', `${rules}/${R1}`, V, [op('replace', '/phase', 'late')]),
    patch('patch remove priority', `${rules}/${R1}`, V, [op('remove', '/priority')]),
    patch('patch unset sensitive', `${rules}/${R2}`, V, [op('replace', '/sensitive', false)]),
    patch('patch uuid', `${rules}/${R1}`, V, [op('replace', '/uuid', '5d1c0b1e-0000-4000-8000-00000000eeee')]),
    patch('patch not a list', `${rules}/${R1}`, V, { op: 'replace' }),
    get('after patches', `${rules}/${R1}`, V),
    // Last, as the reference's 500 leaves its uuid unseen by the comparison's uuid labels.
    post('create without conditions', rules, V, { uuid: R4, actions: [trait('CUSTOM_C')] }),
    patch('patch remove conditions', `${rules}/${R4}`, V, [op('remove', '/conditions')]),
    del('delete the collection', rules, V),
    del('delete', `${rules}/${R1}`, V),
    del('delete again', `${rules}/${R1}`, V),
    del('delete sensitive', `${rules}/${R2}`, V),
    del('delete the third', `${rules}/${R3}`, V),
    del('delete the fourth', `${rules}/${R4}`, V),

    post('continue: no body', ci, V, undefined),
    post('continue: no interfaces', ci, V, inventory([])),
    post('continue: interface without MAC', ci, V, inventory([{ name: 'eth0' }])),
    post('continue: inventory not an object', ci, V, { inventory: [] }),
    post('continue: at 1.83', ci, '1.83', inventory([{ mac_address: MAC }])),
    post('continue: at 1.1, unknown MAC', ci, '1.1', inventory([{ mac_address: MAC }])),
    post('continue: node_uuid at 1.1', `${ci}?node_uuid=${N1}`, '1.1', inventory([{ mac_address: MAC }])),
    post('continue: bad node_uuid', `${ci}?node_uuid=nope`, V, inventory([{ mac_address: MAC }])),
    post('continue: unknown argument', `${ci}?colour=red`, V, inventory([{ mac_address: MAC }])),
    post('continue: no lookup information', ci, V, inventory([{ mac_address: 'not-a-mac' }])),
    post('continue: unknown MAC', ci, V, inventory([{ mac_address: MAC }])),
    post('continue: unknown BMC', ci, V, inventory([{ mac_address: 'not-a-mac' }], { bmc_address: '192.0.2.99' })),
    get('continue: GET', ci, V),
    // Created at 1.82: the newer node and port fields are other groups' business.
    post('node for continue', '/v1/nodes', MAX, { uuid: N1, driver: 'fake-hardware' }),
    post('port for continue', '/v1/ports', MAX, { node_uuid: N1, address: MAC }),
    post('continue: node in enroll by MAC', ci, V, inventory([{ mac_address: MAC.toUpperCase() }])),
    post('continue: node in enroll by uuid', `${ci}?node_uuid=${N1}`, V, inventory([{ mac_address: 'not-a-mac' }])),
    put('manage the node', `/v1/nodes/${N1}/states/provision`, V, { target: 'manage' }),
    settle('node manageable', N1, ['manageable']),
    post('continue: manageable node', ci, V, inventory([{ mac_address: MAC }], { bmc_address: '192.0.2.99' })),
    get('inventory of a node never inspected', `/v1/nodes/${N1}/inventory`, V),
    del('delete the node', `/v1/nodes/${N1}`, V),
  ],
};
