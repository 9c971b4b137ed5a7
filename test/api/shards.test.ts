import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, makeNode } from './support/fixtures';

const V = '1.82';
const bind = { event: 'network.bind_port', port_id: '11111111-1111-4111-8111-111111111111', mac_address: 'AA:bb:cc:dd:ee:ff', status: 'ACTIVE' };

describe('/v1/shards and /v1/events', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await makeNode(s.db, { shard: 's1' });
    await makeNode(s.db, { shard: 's1' });
    await makeNode(s.db, { shard: 's2' });
    await makeNode(s.db);
  });
  after(async () => { await s.stop(); });

  it('counts nodes per shard, largest first', async () => {
    const r = await s.request('GET', '/v1/shards', { version: V });
    assert.equal(r.json.shards[0].name, 's1');
    assert.equal(r.json.shards[0].count, 2);
    assert.deepEqual(r.json.shards.slice(1).map((x: { name: string }) => x.name).sort(), ['None', 's2']);
    const old = await s.request('GET', '/v1/shards', { version: '1.81' });
    assert.equal(old.status, 404);
    assert.equal(faultOf(old.json), 'The API version does not allow shards');
  });

  it('accepts valid events with 204 and validates the rest', async () => {
    const ok = await s.request('POST', '/v1/events', { version: V, body: { events: [bind] } });
    assert.equal(ok.status, 204);
    const cases: [unknown, string, number, string][] = [
      [{ events: [] }, V, 400, 'Schema error for evts: [] is too short'],
      [{}, V, 400, "Schema error for evts: 'events' is a required property"],
      [{ events: [{ event: 'x' }] }, V, 400,
        "Schema error for evts: 'x' is not one of ['network.bind_port', 'network.unbind_port', 'network.delete_port']"],
      [{ events: [{ ...bind, port_id: 'x' }] }, V, 400, 'Expected UUID for port_id: x'],
      [{ events: [{ ...bind, foo: 1 }] }, V, 400, "Schema error for evts: Additional properties are not allowed ('foo' was unexpected)"],
      [{ events: [bind] }, '1.53', 404, 'Resource could not be found.'],
    ];
    for (const [body, version, status, message] of cases) {
      const r = await s.request('POST', '/v1/events', { version, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
  });
});
