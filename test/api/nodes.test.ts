/**
 * /v1/nodes create, show, lists, filters, fields, pagination and delete against a real server (API
 * over HTTP + in-process conductor + SQLite), with the reference Ironic 21.4.4 answers as expectations.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer as startNodeServer } from './support/server';
import type { TestServer } from './support/server';
import * as nodesRepo from '../../src/db/repositories/nodes';

const V = '1.82';

function fault(res: { json: any }): string {
  return JSON.parse(res.json.error_message).faultstring;
}

describe('nodes API', () => {
  let s: TestServer;
  let count: () => Promise<number>;

  before(async () => {
    s = await startNodeServer();
    count = () => nodesRepo.count(s.db);
  });
  after(async () => { await s.stop(); });

  it('creates a node in enroll with the conductor\'s default interfaces, 201 and Location', async () => {
    const res = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'n1' } });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('location'), `${s.url}/v1/nodes/${res.json.uuid}`);
    assert.equal(res.json.provision_state, 'enroll');
    assert.equal(res.json.deploy_interface, 'fake');
    assert.equal(res.json.network_interface, 'noop');
    assert.deepEqual(res.json.traits, []);
    assert.equal(res.json.conductor, 'test-conductor');
    const keys = Object.keys(res.json);
    assert.deepEqual(keys.slice(0, 4), ['uuid', 'created_at', 'updated_at', 'automated_clean']);
    assert.deepEqual(keys.slice(-8), ['links', 'conductor', 'allocation_uuid', 'chassis_uuid', 'ports', 'states',
      'portgroups', 'volume']);
    assert.match(res.json.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  });

  it('creates in available at 1.10 and shows it as null below 1.2', async () => {
    const old = await s.request('POST', '/v1/nodes', { version: '1.10', body: { driver: 'fake-hardware' } });
    assert.equal(old.status, 201);
    assert.equal(old.json.provision_state, 'available');
    const v11 = await s.request('GET', `/v1/nodes/${old.json.uuid}`);
    assert.equal(v11.json.provision_state, null);
    assert.equal('name' in v11.json, false);
    assert.equal('states' in v11.json, false);
    await s.request('DELETE', `/v1/nodes/${old.json.uuid}`, { version: V });
  });

  it('masks driver_info secrets and instance_info configdrive/image_url', async () => {
    const res = await s.request('POST', '/v1/nodes', { version: V, body: {
      driver: 'fake-hardware', name: 'masked',
      driver_info: { ipmi_password: 'secret', ipmi_username: 'admin', nested: { auth_token: 't' }, ipmi_terminal_port: 1 },
      instance_info: { configdrive: 'abc', image_url: 'http://x/y', image_source: 'glance' },
    } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json.driver_info, { ipmi_password: '******', ipmi_username: 'admin', nested: { auth_token: '******' },
      ipmi_terminal_port: 1 });
    assert.deepEqual(res.json.instance_info, { configdrive: '******', image_url: '******', image_source: 'glance' });
    const stored = await nodesRepo.get(s.db, res.json.uuid);
    assert.equal(stored.driver_info?.ipmi_password, 'secret');
  });

  it('refuses bad create bodies with Ironic\'s messages and writes nothing', async () => {
    const before = await count();
    const cases: [unknown, number, string][] = [
      [{ driver: 'fake-hardware', foo: 1 }, 400, "Schema error for node: Additional properties are not allowed ('foo' was unexpected)"],
      [[1], 400, "Schema error for node: [1] is not of type 'object'"],
      [{}, 400, "Schema error for node: 'driver' is a required property"],
      [{ driver: 'fake-hardware', name: 5 }, 400, "Schema error for node: 5 is not of type 'string', 'null'"],
      [{ driver: 'fake-hardware', name: 'bad name' }, 400, "Cannot create node with invalid name 'bad name'"],
      [{ driver: 'fake-hardware', name: 'detail' }, 400, 'The word "detail" is reserved and can not be used as a node name. ' +
        'Reserved words are: maintenance, management, states, vendor_passthru, detail, validate.'],
      [{ driver: 'fake-hardware', uuid: 'notauuid' }, 400, 'Expected UUID for uuid: notauuid'],
      [{ driver: 'fake-hardware', maintenance: 'maybe' }, 400, "Invalid maintenance: Unrecognized value 'maybe', acceptable " +
        "values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'"],
      [{ driver: 'fake-hardware', name: 'n1' }, 409, 'A node with name n1 already exists.'],
      [{ driver: 'fake-hardware', owner: 'p1' }, 400,
        'Cannot create a node as a project scoped admin with an owner other than your own project.'],
      [{ driver: 'fake-hardware', chassis_uuid: '1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1' }, 400,
        'Chassis 1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1 could not be found.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await s.request('POST', '/v1/nodes', { version: V, body });
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(fault(res), message);
    }
    const malformed = await s.request('POST', '/v1/nodes', { version: V, body: '{"driver": "fake-hardware",' });
    assert.ok(malformed.status >= 400);
    assert.equal(await count(), before);
  });

  it('refuses fields newer than the version with 406', async () => {
    const res = await s.request('POST', '/v1/nodes', { version: '1.4', body: { driver: 'fake-hardware', name: 'x' } });
    assert.equal(res.status, 406);
    const shard = await s.request('POST', '/v1/nodes', { version: '1.81', body: { driver: 'fake-hardware', shard: 'a' } });
    assert.equal(shard.status, 406);
    const traits = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', traits: [] } });
    assert.equal(traits.status, 400);
  });

  it('shows a node by uuid or name, with fields, and the ident rules of each version', async () => {
    const byName = await s.request('GET', '/v1/nodes/n1?fields=uuid,name,traits,conductor', { version: V });
    assert.equal(byName.status, 200);
    assert.deepEqual(Object.keys(byName.json), ['uuid', 'name', 'traits', 'links', 'conductor']);
    assert.equal((await s.request('GET', '/v1/nodes/n1?fields=uuid', { version: '1.7' })).status, 406);
    assert.equal((await s.request('GET', '/v1/nodes/n1?fields=shard', { version: '1.80' })).status, 406);
    const bogus = await s.request('GET', '/v1/nodes/n1?fields=bogus', { version: V });
    assert.equal(bogus.status, 400);
    assert.equal(fault(bogus), 'Field bogus is not a valid field.');
    const old = await s.request('GET', '/v1/nodes/n1', { version: '1.4' });
    assert.equal(old.status, 404);
    assert.equal(fault(old), 'Node n1 could not be found.');
    const bad = await s.request('GET', '/v1/nodes/bad%20name', { version: V });
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.json.error_message).description, 'Expected UUID or name for node: bad name');
    assert.equal(bad.headers.get('x-openstack-ironic-api-version'), null);
    assert.equal((await s.request('GET', '/v1/nodes/ports', { version: V })).status, 404);
  });

  it('lists with default fields, detail, filters and next links in Ironic\'s argument order', async () => {
    for (const name of ['l1', 'l2', 'l3']) {
      await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name, resource_class: 'rc-l',
        description: `about ${name}` } });
    }
    const page = await s.request('GET', '/v1/nodes?limit=2&resource_class=rc-l', { version: V });
    assert.equal(page.status, 200);
    assert.deepEqual(Object.keys(page.json.nodes[0]),
      ['uuid', 'instance_uuid', 'maintenance', 'power_state', 'provision_state', 'name', 'links']);
    assert.equal(page.json.next, `${s.url}/v1/nodes?sort_key=id&sort_dir=asc&fields=instance_uuid,maintenance,power_state,` +
      `provision_state,uuid,name&limit=2&marker=${page.json.nodes[1].uuid}`);
    const rest = await s.request('GET', `/v1/nodes?resource_class=rc-l&limit=2&marker=${page.json.nodes[1].uuid}`, { version: V });
    assert.deepEqual(rest.json.nodes.map((n: any) => n.name), ['l3']);
    assert.equal(rest.json.next, undefined);
    const desc = await s.request('GET', '/v1/nodes?resource_class=rc-l&sort_key=name&sort_dir=desc&fields=name', { version: V });
    assert.deepEqual(desc.json.nodes.map((n: any) => n.name), ['l3', 'l2', 'l1']);
    const detail = await s.request('GET', '/v1/nodes/detail?resource_class=rc-l&limit=1', { version: V });
    assert.equal(detail.json.nodes[0].driver, 'fake-hardware');
    assert.match(detail.json.next, /\/v1\/nodes\/detail\?sort_key=id&sort_dir=asc&limit=1&marker=/);
    const detailQ = await s.request('GET', '/v1/nodes?detail=True&resource_class=rc-l&limit=1', { version: V });
    assert.match(detailQ.json.next, /\/v1\/nodes\?sort_key=id&sort_dir=asc&detail=True&limit=1&marker=/);
    const contains = await s.request('GET', '/v1/nodes?description_contains=about%20l2&fields=name', { version: V });
    assert.deepEqual(contains.json.nodes.map((n: any) => n.name), ['l2']);
    const conductor = await s.request('GET', '/v1/nodes?conductor=elsewhere&resource_class=rc-l', { version: V });
    assert.deepEqual(conductor.json.nodes, []);
    const mine = await s.request('GET', '/v1/nodes?conductor=test-conductor&resource_class=rc-l&fields=name', { version: V });
    assert.equal(mine.json.nodes.length, 3);
    const assoc = await s.request('GET', '/v1/nodes?associated=true&maintenance=false&limit=1', { version: V });
    assert.deepEqual(assoc.json, { nodes: [] });
  });

  it('applies list argument checks in Ironic\'s order with its messages', async () => {
    const cases: [string, string, number, string | null][] = [
      ['/v1/nodes?foo=1', V, 400, 'Unexpected arguments: foo'],
      ['/v1/nodes?limit=0', V, 400, 'Limit must be positive'],
      ['/v1/nodes?limit=abc', V, 400, 'Expected an integer for limit: abc'],
      ['/v1/nodes?sort_key=driver_info', V, 400, 'The sort_key value driver_info is an invalid field for sorting'],
      ['/v1/nodes?sort_key=bogus', V, 400, 'The sort_key value "bogus" is an invalid field for sorting'],
      ['/v1/nodes?sort_dir=up', V, 400, "Invalid sort direction: up. Acceptable values are 'asc' or 'desc'"],
      ['/v1/nodes?marker=abc', V, 400, 'Expected UUID for marker: abc'],
      ['/v1/nodes?marker=1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1', V, 404, 'Node 1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1 could not be found.'],
      ['/v1/nodes?provision_state=bogus', V, 400, 'Provision state "bogus" is not valid'],
      ['/v1/nodes?provision_state=enroll', '1.8', 406, null],
      ['/v1/nodes?driver=x', '1.15', 406, 'Request not acceptable. The minimal required API version should be 1.16'],
      ['/v1/nodes?fault=bogus', V, 400, `Unrecognized fault "bogus" is specified, allowed faults are ('power failure', ` +
        `'clean failure', 'rescue abort failure', 'service failure')`],
      ['/v1/nodes?owner=x', '1.49', 406, 'Request not acceptable. The minimal required API version should be 1.50'],
      ['/v1/nodes?shard=x', '1.81', 406, 'Request not acceptable. The minimal required API version should be 1.82'],
      ['/v1/nodes?detail=True', '1.42', 400, 'Invalid query parameter ?detail=True received.'],
      ['/v1/nodes?detail=True&fields=uuid', V, 400, 'Can not specify ?detail=True and fields in the same request.'],
      ['/v1/nodes?fields=bogus', V, 400, 'Field(s) "bogus" are not valid'],
      ['/v1/nodes/detail?fields=uuid', V, 400, 'Unexpected arguments: fields'],
      ['/v1/nodes?chassis_uuid=1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1', V, 404,
        'Chassis 1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1 could not be found.'],
    ];
    for (const [path, version, status, message] of cases) {
      const res = await s.request('GET', path, { version });
      assert.equal(res.status, status, path);
      if (message !== null) assert.equal(fault(res), message, path);
    }
  });

  it('lists a chassis\'s nodes through the same handler', async () => {
    const chassis = await s.request('POST', '/v1/chassis', { version: V, body: { description: 'rack' } });
    assert.equal(chassis.status, 201);
    const c = chassis.json.uuid as string;
    for (const name of ['c-1', 'c-2']) {
      await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name, chassis_uuid: c } });
    }
    const list = await s.request('GET', `/v1/chassis/${c}/nodes?limit=1`, { version: V });
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.nodes.map((n: any) => n.name), ['c-1']);
    assert.match(list.json.next, /\/v1\/nodes\?sort_key=id&sort_dir=asc&fields=/);
    const detail = await s.request('GET', `/v1/chassis/${c}/nodes/detail`, { version: V });
    assert.deepEqual(detail.json.nodes.map((n: any) => n.chassis_uuid), [c, c]);
    assert.equal(fault(await s.request('GET', '/v1/chassis/bogus/nodes', { version: V })), 'Expected UUID for chassis_uuid: bogus');
    assert.equal((await s.request('GET', `/v1/chassis/${c}/nodes/c-1`, { version: V })).status, 403);
    const filtered = await s.request('GET', `/v1/nodes?chassis_uuid=${c}&fields=name,chassis_uuid`, { version: V });
    assert.equal(filtered.status, 400);
    assert.equal(fault(filtered), 'Field(s) "chassis_uuid" cannot be selected with fields in a node list');
    const byChassis = await s.request('GET', `/v1/nodes?chassis_uuid=${c}&fields=name`, { version: V });
    assert.deepEqual(byChassis.json.nodes.map((n: any) => n.name), ['c-1', 'c-2']);
  });

  it('deletes a node (204); protection is refused outside active/rescue and changes nothing', async () => {
    const made = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'gone' } });
    const del = await s.request('DELETE', '/v1/nodes/gone', { version: V });
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    assert.equal((await s.request('GET', `/v1/nodes/${made.json.uuid}`, { version: V })).status, 404);
    assert.equal((await s.request('DELETE', '/v1/nodes/gone', { version: V })).status, 404);
    const prot = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'prot' } });
    const patch = await s.request('PATCH', '/v1/nodes/prot', { version: V, body: [{ op: 'replace', path: '/protected', value: true }] });
    assert.equal(patch.status, 409);
    assert.match(fault(patch), /protected|Protection/);
    assert.equal((await nodesRepo.get(s.db, prot.json.uuid)).protected, false);
    assert.equal((await s.request('DELETE', '/v1/nodes/prot', { version: V })).status, 204);
  });
});
