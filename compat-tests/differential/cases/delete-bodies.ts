// DELETE requests with bodies. pecan hands a DELETE handler the query string merged with a JSON-object body
// (Content-Type application/json) or with form fields (application/x-www-form-urlencoded); a body of any
// other shape or type is ignored. So a body can name a handler's own argument (a trait to remove), and a
// name the handler does not take is refused as an unexpected argument.
import type { CaseGroup } from '../types';
import { del, delBody as delWith, get, MAX, post, put, raw } from './build';

const node = '/v1/nodes/{DB1}';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const delBody = (name: string, path: string, body: unknown) => delWith(name, path, MAX, body);

export const deleteBodiesGroup: CaseGroup = {
  group: 'delete-bodies',
  cases: [
    post('node', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'delete-bodies-node' }, { capture: { DB1: 'uuid' } }),
    put('traits', `${node}/traits`, MAX, { traits: ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C', 'CUSTOM_D'] }),
    delBody('remove one trait named in the body', `${node}/traits`, { trait: 'CUSTOM_A' }),
    get('traits after body removal', `${node}/traits`, MAX),
    delBody('remove a missing trait named in the body', `${node}/traits`, { trait: 'CUSTOM_MISSING' }),
    delBody('trait in the body not a string', `${node}/traits`, { trait: 5 }),
    delBody('unexpected argument in a traits body', `${node}/traits`, { traits: ['CUSTOM_B'] }),
    raw('DELETE', 'remove one trait named in a form body', `${node}/traits`, MAX, 'trait=CUSTOM_B', { headers: FORM }),
    get('traits after form removal', `${node}/traits`, MAX),
    raw('DELETE', 'form body with an unexpected field', `${node}/traits`, MAX, 'bogus=1', { headers: FORM }),
    raw('DELETE', 'form body of another content type is ignored', `${node}/traits`, MAX, 'trait=CUSTOM_C',
      { headers: { 'Content-Type': 'text/plain' } }),
    get('traits after a text body', `${node}/traits`, MAX),
    put('traits again', `${node}/traits`, MAX, { traits: ['CUSTOM_A', 'CUSTOM_B'] }),
    raw('DELETE', 'malformed JSON body is ignored', `${node}/traits/CUSTOM_A`, MAX, '{"trait": '),
    delBody('JSON list body is ignored', `${node}/traits/CUSTOM_B`, ['CUSTOM_B']),
    get('traits after ignored bodies', `${node}/traits`, MAX),
    delBody('query and body both name the trait', `${node}/traits?trait=CUSTOM_X`, { trait: 'CUSTOM_Y' }),
    delBody('unexpected argument deleting maintenance', `${node}/maintenance`, { reason: 'x' }),
    delBody('empty body deleting maintenance', `${node}/maintenance`, {}),
    delBody('unexpected argument detaching a vif', `${node}/vifs/a1b2c3d4-0000-4000-8000-000000000001`, { force: true }),
    delBody('unexpected argument deleting an allocation of a node', `${node}/allocation`, { bogus: 1 }),
    // Vendor passthru reads the body as the method's data (@method.body); the fake methods take POST only.
    delBody('vendor passthru DELETE with a body', `${node}/vendor_passthru/first_method`, { bar: 'woof' }),
    delBody('driver vendor passthru DELETE with a body', '/v1/drivers/fake-hardware/vendor_passthru/first_method', { bar: 'woof' }),

    post('chassis', '/v1/chassis', MAX, { description: 'delete bodies' }, { capture: { DBC: 'uuid' } }),
    delBody('unexpected argument deleting a chassis', '/v1/chassis/{DBC}', { bogus: 1 }),
    post('port', '/v1/ports', MAX, { node_uuid: '{DB1}', address: '52:54:00:db:00:01' }, { capture: { DBP: 'uuid' } }),
    delBody('unexpected argument deleting a port', '/v1/ports/{DBP}', { bogus: 1 }),
    delBody('unexpected argument with a null value', '/v1/ports/{DBP}', { bogus: null }),
    post('portgroup', '/v1/portgroups', MAX, { node_uuid: '{DB1}', name: 'db-pg' }, { capture: { DBG: 'uuid' } }),
    delBody('unexpected argument deleting a portgroup', '/v1/portgroups/{DBG}', { bogus: 1 }),
    post('deploy template', '/v1/deploy_templates', MAX,
      { name: 'CUSTOM_DELETE_BODIES', steps: [{ interface: 'bios', step: 'apply_configuration', args: {}, priority: 10 }] },
      { capture: { DBT: 'uuid' } }),
    delBody('unexpected argument deleting a deploy template', '/v1/deploy_templates/{DBT}', { bogus: 1 }),
    post('volume connector', '/v1/volume/connectors', MAX, { node_uuid: '{DB1}', type: 'iqn', connector_id: 'iqn.db.1' },
      { capture: { DBV: 'uuid' } }),
    delBody('unexpected argument deleting a volume connector', '/v1/volume/connectors/{DBV}', { bogus: 1 }),
    post('allocation', '/v1/allocations', MAX, { resource_class: 'delete-bodies' }, { capture: { DBA: 'uuid' } }),
    delBody('unexpected argument deleting an allocation', '/v1/allocations/{DBA}', { bogus: 1 }),
    post('second port', '/v1/ports', MAX, { node_uuid: '{DB1}', address: '52:54:00:db:00:02' }, { capture: { DBP2: 'uuid' } }),
    del('port named in the query of the collection', '/v1/ports?port_uuid={DBP2}', MAX),
    get('port deleted through the query', '/v1/ports/{DBP2}', MAX),
    post('third port', '/v1/ports', MAX, { node_uuid: '{DB1}', address: '52:54:00:db:00:03' }, { capture: { DBP3: 'uuid' } }),
    delBody('port named in the body of the collection', '/v1/ports', { port_uuid: '{DBP3}' }),
    get('port deleted through the body', '/v1/ports/{DBP3}', MAX),
    delBody('port named in the path and the body', '/v1/ports/{DBP}', { port_uuid: '{DBP}' }),
    del('collection without a port', '/v1/ports', MAX),
    delBody('portgroup named in the body', '/v1/portgroups', { portgroup_ident: 'db-pg' }),
    delBody('chassis named in the body, not a uuid', '/v1/chassis', { chassis_uuid: 'nope' }),
    del('chassis collection without one', '/v1/chassis', MAX),
    delBody('volume connector named in the body', '/v1/volume/connectors', { connector_uuid: '{DBV}' }),
    del('volume targets collection without one', '/v1/volume/targets', MAX),
    del('deploy templates collection without one', '/v1/deploy_templates', MAX),
    del('allocations collection without one', '/v1/allocations', MAX),
    delBody('vif named in the body', `${node}/vifs`, { vif_id: 'a1b2c3d4-0000-4000-8000-000000000001' }),
    del('vifs without a vif', `${node}/vifs`, MAX),
    delBody('trait named in the path and the body', `${node}/traits/CUSTOM_A`, { trait: 'CUSTOM_A' }),
    delBody('node named in the path and the body', node, { node_ident: '{DB1}' }),
    delBody('unexpected argument deleting a node', node, { bogus: 1 }),
    delBody('empty JSON body deleting a node', node, {}),
    get('node is gone', node, MAX),
    del('chassis deleted without a body', '/v1/chassis/{DBC}', MAX),
    del('deploy template deleted without a body', '/v1/deploy_templates/{DBT}', MAX),
    del('allocation deleted without a body', '/v1/allocations/{DBA}', MAX),
  ],
};
