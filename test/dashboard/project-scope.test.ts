/**
 * A project-scoped user against a real Keystone (Debian's python3-keystone): the event stream
 * (with a token, and through a dashboard session logged in with the user's password) carries only
 * the nodes the API shows that user (owned or leased by its project), with last_error redacted
 * where node_sanitize redacts it (a leased node); a system admin sees every node.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { encodeDate } from '../../src/db/codec';
import { openDatabase } from '../../src/db/connection';
import { openSse, type SseClient } from './support/sse';
import { api, createNode } from './support/nodes';
import { startKeystoneDashboard, type KeystoneDashboard } from './support/servers';

let ironic: KeystoneDashboard;
const uuids: Record<string, string> = {};
let admin: Record<string, string>;
let ownerA: Record<string, string>;

before(async () => {
  ironic = await startKeystoneDashboard();
  admin = ironic.apiHeaders;
  const { username, password, project } = ironic.users.ownerA;
  ownerA = { 'X-Auth-Token': await ironic.keystone.token({ user: username, password, project }) };
  const [projectA, projectB] = [ironic.projects['proj-a'], ironic.projects['proj-b']];
  uuids.owned = await createNode(ironic.url, { name: 'owned-by-a', owner: projectA }, admin);
  uuids.leased = await createNode(ironic.url, { name: 'leased-to-a', owner: projectB, lessee: projectA }, admin);
  uuids.other = await createNode(ironic.url, { name: 'owned-by-b', owner: projectB }, admin);
  uuids.none = await createNode(ironic.url, { name: 'unowned' }, admin);
});

after(async () => {
  await ironic?.stop();
});

async function dashboardLogin(): Promise<string> {
  const res = await fetch(`${ironic.url}/dashboard/session`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ironic.users.ownerA),
  });
  assert.equal(res.status, 201);
  const body = await res.json() as { project: string; roles: string[] };
  assert.equal(body.project, 'proj-a');
  assert.ok(body.roles.includes('member'));
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

/** Sets last_error on two nodes and maintenance on all four: what a project user may see of it. */
async function changeEveryNode(): Promise<void> {
  // Written by another process than the server, as a conductor elsewhere would: the feed reads the database.
  const db = await openDatabase(`sqlite:///${path.join(ironic.dir, 'ironic.sqlite')}`);
  try {
    const stamp = encodeDate(new Date(), 'sqlite');
    for (const key of ['owned', 'leased']) {
      await db.knex('nodes').where({ uuid: uuids[key] }).update({ last_error: `failure of ${key}`, updated_at: stamp });
    }
  } finally {
    await db.close();
  }
  for (const uuid of Object.values(uuids)) {
    assert.equal((await api(ironic.url, 'PUT', `/v1/nodes/${uuid}/maintenance`, { reason: 'check' }, admin)).status, 202);
  }
}

function namesIn(stream: SseClient): string[] {
  return [...new Set(stream.events.map((e) => String(e.node.name)))].sort();
}

describe('project-scoped event stream', () => {
  it('refuses a stream without a token and a dashboard login with a wrong password', async () => {
    const none = await openSse(`${ironic.url}/events/nodes`);
    assert.equal(none.status, 401);
    none.close();
    const bad = await fetch(`${ironic.url}/dashboard/session`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'owner-a', password: 'nope', project: 'proj-a' }),
    });
    assert.equal(bad.status, 401);
  });

  it('logs the system admin in without a project (system scope) and shows it every node', async () => {
    const res = await fetch(`${ironic.url}/dashboard/session`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ironic.users.admin),
    });
    assert.equal(res.status, 201);
    const body = await res.json() as { project: string | null; roles: string[] };
    assert.equal(body.project, null);
    assert.ok(body.roles.includes('admin'));
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    const listed = await fetch(`${ironic.url}/dashboard/api/v1/nodes`, { headers: { Cookie: cookie, 'X-OpenStack-Ironic-API-Version': '1.96' } });
    const names = (await listed.json() as { nodes: Array<{ name: string }> }).nodes.map((n) => n.name).sort();
    assert.deepEqual(names, ['leased-to-a', 'owned-by-a', 'owned-by-b', 'unowned']);
  });

  it('shows a project user only its owned and leased nodes, as the API does', async () => {
    const cookie = await dashboardLogin();
    const listed = await fetch(`${ironic.url}/dashboard/api/v1/nodes`, { headers: { Cookie: cookie, 'X-OpenStack-Ironic-API-Version': '1.96' } });
    assert.equal(listed.status, 200);
    const apiNames = (await listed.json() as { nodes: Array<{ name: string }> }).nodes.map((n) => n.name).sort();
    assert.deepEqual(apiNames, ['leased-to-a', 'owned-by-a']);

    const viaToken = await openSse(`${ironic.url}/events/nodes`, ownerA);
    const viaSession = await openSse(`${ironic.url}/dashboard/api/events/nodes`, { Cookie: cookie });
    const everything = await openSse(`${ironic.url}/events/nodes`, admin);
    try {
      assert.deepEqual([viaToken.status, viaSession.status, everything.status], [200, 200, 200]);
      await changeEveryNode();
      for (const key of Object.keys(uuids)) {
        await everything.waitFor((e) => e.type === 'maintenance' && e.node.uuid === uuids[key], 20000, `admin: maintenance of ${key}`);
      }
      for (const stream of [viaToken, viaSession]) {
        await stream.waitFor((e) => e.type === 'maintenance' && e.node.uuid === uuids.owned, 20000, 'maintenance of owned');
        await stream.waitFor((e) => e.type === 'maintenance' && e.node.uuid === uuids.leased, 20000, 'maintenance of leased');
      }
      // The admin stream has seen every change, so the project streams have had theirs.
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(namesIn(everything), ['leased-to-a', 'owned-by-a', 'owned-by-b', 'unowned']);
      for (const stream of [viaToken, viaSession]) {
        assert.deepEqual(namesIn(stream), apiNames);
        const errors = new Map(stream.events.filter((e) => e.type === 'last_error').map((e) => [e.node.name, e.node.last_error]));
        assert.equal(errors.get('owned-by-a'), 'failure of owned');
        assert.match(String(errors.get('leased-to-a')), /Redacted/);
      }
      const adminErrors = everything.events.filter((e) => e.type === 'last_error').map((e) => e.node.last_error).sort();
      assert.deepEqual(adminErrors, ['failure of leased', 'failure of owned']);
    } finally {
      viaToken.close();
      viaSession.close();
      everything.close();
    }
  });
  it('tells a project user when a node enters or leaves its view (owner changed)', async () => {
    const stream = await openSse(`${ironic.url}/events/nodes?type=created,deleted`, ownerA);
    const everything = await openSse(`${ironic.url}/events/nodes?type=updated`, admin);
    try {
      const setOwner = async (owner: string): Promise<void> => {
        const res = await api(ironic.url, 'PATCH', `/v1/nodes/${uuids.other}`, [{ op: 'replace', path: '/owner', value: owner }], admin);
        assert.equal(res.status, 200, JSON.stringify(res.json));
        await everything.waitFor((e) => e.node.uuid === uuids.other && e.node.owner === owner, 20000, `owner ${owner}`);
      };
      await setOwner(ironic.projects['proj-a']);
      const entered = await stream.waitFor((e) => e.node.uuid === uuids.other, 20000, 'the node entering the view');
      assert.equal(entered.type, 'created');
      assert.equal(entered.node.owner, ironic.projects['proj-a']);
      await setOwner(ironic.projects['proj-b']);
      const left = await stream.waitFor((e) => e.node.uuid === uuids.other && e.type === 'deleted', 20000, 'the node leaving the view');
      assert.equal(left.node.owner, ironic.projects['proj-a'], 'the fields the user saw last, not the new owner');
      assert.deepEqual(stream.events.map((e) => e.type), ['created', 'deleted']);
    } finally {
      stream.close();
      everything.close();
    }
  });
});
