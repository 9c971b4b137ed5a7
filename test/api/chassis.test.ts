import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf, makeNode } from './support/fixtures';

const V = '1.82';
const C1 = 'd0000000-0000-4000-8000-000000000001';
const C2 = 'd0000000-0000-4000-8000-000000000002';

describe('/v1/chassis', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('creates chassis with the nested nodes links', async () => {
    const r = await s.request('POST', '/v1/chassis', { version: V, body: { uuid: C1, description: 'rack 1', extra: { a: 1 } } });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${s.url}/v1/chassis/${C1}`);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'description', 'extra', 'links', 'nodes']);
    assert.deepEqual(r.json.nodes, [[
      { href: `${s.url}/v1/chassis/${C1}/nodes`, rel: 'self' }, { href: `${s.url}/chassis/${C1}/nodes`, rel: 'bookmark' },
    ]]);
    assert.equal((await s.request('POST', '/v1/chassis', { version: V, body: { uuid: C2 } })).status, 201);
  });

  it('refuses bad bodies without writing', async () => {
    const before = await countRows(s.db, 'chassis');
    const cases: [unknown, number, string][] = [
      [{ uuid: C1 }, 409, `A chassis with UUID ${C1} already exists.`],
      [{ uuid: 'x' }, 400, 'Expected UUID for uuid: x'],
      [{ description: 5, bogus: 1 }, 400, "Schema error for chassis: Additional properties are not allowed ('bogus' was unexpected)"],
      [{ description: 'x'.repeat(256) }, 400, `Schema error for chassis: '${'x'.repeat(256)}' is too long`],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.request('POST', '/v1/chassis', { version: V, body });
      assert.equal(r.status, status);
      assert.equal(faultOf(r.json), message);
    }
    assert.equal(await countRows(s.db, 'chassis'), before);
  });

  it('lists with defaults, detail, fields and pagination', async () => {
    const list = await s.request('GET', '/v1/chassis', { version: V });
    assert.deepEqual(list.json.chassis.map((c: { uuid: string; description: string | null }) => [c.uuid, c.description]),
      [[C1, 'rack 1'], [C2, null]]);
    const page = await s.request('GET', '/v1/chassis?limit=1', { version: V });
    assert.equal(page.json.next, `${s.url}/v1/chassis?sort_key=id&sort_dir=asc&fields=uuid,description&limit=1&marker=${C1}`);
    const detail = await s.request('GET', '/v1/chassis/detail', { version: V });
    assert.equal(detail.json.chassis[0].extra.a, 1);
    assert.equal((await s.request('GET', '/v1/chassis?fields=extra', { version: '1.7' })).status, 406);
    assert.equal(faultOf((await s.request('GET', '/v1/chassis?sort_key=extra', { version: V })).json),
      'The sort_key value extra is an invalid field for sorting');
    assert.equal((await s.request('GET', `/v1/chassis/${C1}?fields=description`, { version: V })).json.description, 'rack 1');
    assert.equal(faultOf((await s.request('GET', '/v1/chassis/foo', { version: V })).json), 'Expected UUID for chassis_uuid: foo');
  });

  it('patches description and extra, refusing uuid changes', async () => {
    const r = await s.request('PATCH', `/v1/chassis/${C1}`, {
      version: V, body: [{ op: 'replace', path: '/description', value: 'rack 2' }, { op: 'add', path: '/extra/b', value: 2 }],
    });
    assert.equal(r.status, 200);
    assert.deepEqual([r.json.description, r.json.extra], ['rack 2', { a: 1, b: 2 }]);
    const uuid = await s.request('PATCH', `/v1/chassis/${C1}`, { version: V, body: [{ op: 'replace', path: '/uuid', value: C2 }] });
    assert.equal(faultOf(uuid.json), 'Cannot overwrite UUID for an existing Chassis.');
    const nodes = await s.request('PATCH', `/v1/chassis/${C1}`, { version: V, body: [{ op: 'replace', path: '/nodes', value: 1 }] });
    assert.equal(faultOf(nodes.json), 'Cannot patch /nodes. Only the following can be updated: uuid, extra, description');
  });

  it('refuses to delete a chassis that holds nodes', async () => {
    const chassis = await s.db.knex('chassis').where({ uuid: C1 }).first('id') as { id: number };
    await makeNode(s.db, { chassis_id: chassis.id });
    const r = await s.request('DELETE', `/v1/chassis/${C1}`, { version: V });
    assert.equal(r.status, 400);
    assert.equal(faultOf(r.json), `Cannot complete the requested action because chassis ${C1} contains nodes.`);
    assert.equal((await s.request('DELETE', `/v1/chassis/${C2}`, { version: V })).status, 204);
    assert.equal(await countRows(s.db, 'chassis'), 1);
  });
});
