import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf, makeNode } from './support/fixtures';
import type { NodeRecord } from '../../src/db/models';

const V = '1.82';

describe('/v1/ports', () => {
  let s: TestServer;
  let n1: NodeRecord;
  let n2: NodeRecord;

  before(async () => {
    s = await startTestServer();
    n1 = await makeNode(s.db, { name: 'node-1' });
    n2 = await makeNode(s.db, { name: 'node-2', shard: 'shard-a' });
  });
  after(async () => { await s.stop(); });

  it('creates a port, normalising the MAC, with defaults and a Location', async () => {
    const r = await s.request('POST', '/v1/ports', {
      version: V, body: { uuid: 'a0000000-0000-4000-8000-000000000001', address: '52:54:00:AA:BB:01', node_uuid: n1.uuid },
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${s.url}/v1/ports/a0000000-0000-4000-8000-000000000001`);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'address', 'extra', 'internal_info',
      'is_smartnic', 'local_link_connection', 'physical_network', 'pxe_enabled', 'node_uuid', 'links', 'portgroup_uuid']);
    assert.equal(r.json.address, '52:54:00:aa:bb:01');
    assert.equal(r.json.pxe_enabled, true);
    assert.equal(r.json.is_smartnic, false);
    assert.deepEqual(r.json.local_link_connection, {});
    assert.equal(r.json.node_uuid, n1.uuid);
    assert.match(r.json.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  });

  it('stores advanced fields and normalises the switch id', async () => {
    const r = await s.request('POST', '/v1/ports', {
      version: V,
      body: {
        uuid: 'a0000000-0000-4000-8000-000000000002', address: '52:54:00:aa:bb:02', node_uuid: n2.uuid, pxe_enabled: 'false',
        physical_network: 'physnet1', extra: { a: 1 }, local_link_connection: { port_id: 'Eth1', switch_id: 'AA:BB:CC:DD:EE:FF' },
      },
    });
    assert.equal(r.status, 201);
    assert.equal(r.json.pxe_enabled, false);
    assert.deepEqual(r.json.local_link_connection, { port_id: 'Eth1', switch_id: 'aa:bb:cc:dd:ee:ff' });
  });

  it('refuses bad bodies with Ironic messages and writes nothing', async () => {
    const before = await countRows(s.db, 'ports');
    const cases: [unknown, number, string][] = [
      [{ address: '52:54:00:aa:bb:01', node_uuid: n1.uuid }, 409, 'A port with MAC address 52:54:00:aa:bb:01 already exists.'],
      [{ address: 'zz', node_uuid: n1.uuid }, 400, 'Expected valid MAC address for address: zz'],
      [{ address: 5, node_uuid: n1.uuid }, 400, "Schema error for port: 5 is not of type 'string'"],
      [{ address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, bogus: 1 }, 400,
        "Schema error for port: Additional properties are not allowed ('bogus' was unexpected)"],
      [{ address: '52:54:00:aa:bb:09', node_uuid: 'node-1' }, 400, 'Expected UUID for node_uuid: node-1'],
      [{ address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, uuid: 'nope' }, 400, 'Expected UUID for uuid: nope'],
      [{ node_uuid: n1.uuid }, 400, "Schema error for port: 'address' is a required property"],
      [{ address: '52:54:00:aa:bb:09', node_uuid: 'b0000000-0000-4000-8000-000000000009' }, 400,
        'Node b0000000-0000-4000-8000-000000000009 could not be found.'],
      [{ address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, pxe_enabled: 'maybe' }, 400,
        "Invalid pxe_enabled: Unrecognized value 'maybe', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'"],
      [{ address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, local_link_connection: { port_id: 'x' } }, 400,
        "Schema error for local_link_connection: {'port_id': 'x'} is not valid under any of the given schemas. Possible root cause: 'switch_id' is a required property"],
      [{ address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, physical_network: '' }, 400,
        'A non-empty value is required when setting physical_network'],
      [[1], 400, "Schema error for port: [1] is not of type 'object'"],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.request('POST', '/v1/ports', { version: V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    const malformed = await s.request('POST', '/v1/ports', { version: V, body: '{"address": ' });
    assert.ok(malformed.status >= 400);
    assert.equal(await countRows(s.db, 'ports'), before);
  });

  it('gates fields by version', async () => {
    const smartnic = await s.request('POST', '/v1/ports', {
      version: '1.52', body: { address: '52:54:00:aa:bb:09', node_uuid: n1.uuid, is_smartnic: true },
    });
    assert.equal(smartnic.status, 406);
    assert.equal((await s.request('GET', '/v1/ports?fields=uuid', { version: '1.7' })).status, 406);
    assert.equal((await s.request('GET', '/v1/ports?fields=pxe_enabled', { version: '1.18' })).status, 406);
    assert.equal((await s.request('GET', '/v1/ports?shard=x', { version: '1.81' })).status, 406);
    const old = await s.request('GET', '/v1/ports/detail', { version: '1.1' });
    assert.deepEqual(Object.keys(old.json.ports[0]), ['uuid', 'created_at', 'updated_at', 'address', 'extra', 'node_uuid', 'links']);
  });

  it('lists with fields, detail, pagination and next links', async () => {
    const list = await s.request('GET', '/v1/ports', { version: V });
    assert.deepEqual(list.json.ports.map((p: { address: string }) => p.address), ['52:54:00:aa:bb:01', '52:54:00:aa:bb:02']);
    assert.deepEqual(Object.keys(list.json.ports[0]), ['uuid', 'address', 'links']);
    const page = await s.request('GET', '/v1/ports?limit=1&fields=address,extra&sort_key=address&sort_dir=desc', { version: V });
    assert.deepEqual(page.json.ports, [{ address: '52:54:00:aa:bb:02', extra: { a: 1 }, links: page.json.ports[0].links }]);
    assert.equal(page.json.next,
      `${s.url}/v1/ports?sort_key=address&sort_dir=desc&fields=address,extra&limit=1&marker=a0000000-0000-4000-8000-000000000002`);
    const detail = await s.request('GET', '/v1/ports?detail=True&limit=1', { version: V });
    assert.equal(detail.json.next, `${s.url}/v1/ports?sort_key=id&sort_dir=asc&detail=True&limit=1&marker=a0000000-0000-4000-8000-000000000001`);
    const next = await s.request('GET', '/v1/ports/detail?limit=1&marker=a0000000-0000-4000-8000-000000000001', { version: V });
    assert.equal(next.json.ports[0].uuid, 'a0000000-0000-4000-8000-000000000002');
    const bad = await s.request('GET', '/v1/ports?fields=bogus', { version: V });
    assert.equal(faultOf(bad.json), 'Field(s) "bogus" are not valid');
    assert.equal(faultOf((await s.request('GET', '/v1/ports?sort_key=extra', { version: V })).json),
      'The sort_key value extra is an invalid field for sorting');
    assert.equal(faultOf((await s.request('GET', '/v1/ports?limit=x', { version: V })).json), 'Expected an integer for limit: x');
    assert.equal(faultOf((await s.request('GET', '/v1/ports?foo=1', { version: V })).json), 'Unexpected arguments: foo');
  });

  it('filters by node, node_uuid, address and shard', async () => {
    const uuids = async (q: string, version = V) =>
      ((await s.request('GET', `/v1/ports?${q}`, { version })).json.ports as { uuid: string }[]).map((p) => p.uuid);
    assert.deepEqual(await uuids('node=node-1'), ['a0000000-0000-4000-8000-000000000001']);
    assert.deepEqual(await uuids(`node_uuid=${n2.uuid}`), ['a0000000-0000-4000-8000-000000000002']);
    assert.deepEqual(await uuids('address=52:54:00:AA:BB:02'), ['a0000000-0000-4000-8000-000000000002']);
    assert.deepEqual(await uuids('address=52:54:00:aa:bb:99'), []);
    assert.deepEqual(await uuids('shard=shard-a'), ['a0000000-0000-4000-8000-000000000002']);
    const both = await s.request('GET', '/v1/ports?node=node-1&shard=shard-a', { version: V });
    assert.equal(both.status, 403);
    const missing = await s.request('GET', '/v1/ports?node=nosuch', { version: V });
    assert.equal(faultOf(missing.json), 'Node nosuch could not be found.');
  });

  it('shows one port and refuses bad identifiers', async () => {
    const r = await s.request('GET', '/v1/ports/a0000000-0000-4000-8000-000000000002?fields=extra', { version: V });
    assert.deepEqual(Object.keys(r.json), ['extra', 'links']);
    // Ports are found by name (1.88) at every version; a MAC is neither a UUID nor a name.
    assert.equal(faultOf((await s.request('GET', '/v1/ports/node-1', { version: V })).json), 'Port node-1 could not be found.');
    assert.equal(faultOf((await s.request('GET', '/v1/ports/52:54:00:aa:bb:02', { version: V })).json),
      'Expected UUID or name for port_ident: 52:54:00:aa:bb:02');
    const gone = await s.request('GET', '/v1/ports/a0000000-0000-4000-8000-000000000099', { version: V });
    assert.equal(gone.status, 404);
  });

  it('patches allowed fields and refuses the rest without writing', async () => {
    const url = '/v1/ports/a0000000-0000-4000-8000-000000000002';
    const ok = await s.request('PATCH', url, {
      version: V, body: [{ op: 'replace', path: '/address', value: '52:54:00:AA:BB:22' }, { op: 'add', path: '/extra/b', value: '2' }],
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.address, '52:54:00:aa:bb:22');
    assert.deepEqual(ok.json.extra, { a: 1, b: '2' });
    const snapshot = JSON.stringify(await s.db.knex('ports').orderBy('id'));
    const refusals: [unknown, number, string][] = [
      [[{ op: 'replace', path: '/internal_info', value: {} }], 400,
        'Cannot patch /internal_info. Only the following can be updated: address, extra, is_smartnic, local_link_connection, node_ident, node_uuid, physical_network, portgroup_uuid, pxe_enabled, name'],
      [[{ op: 'replace', path: '/address', value: '52:54:00:aa:bb:01' }], 409, 'A port with MAC address 52:54:00:aa:bb:01 already exists.'],
      [[{ op: 'replace', path: '/address', value: 'zz' }], 400, 'Expected valid MAC address for address: zz'],
      [[{ op: 'add', path: '/foo', value: 1 }], 400, 'Cannot patch /foo. Only the following can be updated: address, extra, is_smartnic, local_link_connection, node_ident, node_uuid, physical_network, portgroup_uuid, pxe_enabled, name'],
      [[{ op: 'remove', path: '/extra/nokey' }], 400, "Couldn't apply patch '{'op': 'remove', 'path': '/extra/nokey'}'. Reason: can't remove a non-existent object 'nokey'"],
      [[{ op: 'replace', path: '/extra', value: [1] }], 400, "Schema error for patch: [1] is not of type 'object', 'null'"],
      [{ op: 'replace' }, 400, "Schema error for patch: {'op': 'replace'} is not of type 'array'"],
      [[{ op: 'replace', path: '/portgroup_uuid', value: 'b0000000-0000-4000-8000-000000000009' }], 400,
        'Portgroup b0000000-0000-4000-8000-000000000009 could not be found.'],
    ];
    for (const [body, status, message] of refusals) {
      const r = await s.request('PATCH', url, { version: V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    const oldVersion = await s.request('PATCH', url, { version: '1.18', body: [{ op: 'replace', path: '/pxe_enabled', value: true }] });
    assert.equal(oldVersion.status, 406);
    assert.equal(JSON.stringify(await s.db.knex('ports').orderBy('id')), snapshot);
  });

  it('deletes a port', async () => {
    const r = await s.request('DELETE', '/v1/ports/a0000000-0000-4000-8000-000000000001', { version: V });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    const again = await s.request('DELETE', '/v1/ports/a0000000-0000-4000-8000-000000000001', { version: V });
    assert.equal(faultOf(again.json), 'Port a0000000-0000-4000-8000-000000000001 could not be found.');
    assert.equal(await countRows(s.db, 'ports'), 1);
  });
});
