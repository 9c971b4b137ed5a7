/**
 * The node event stream over real sockets: provision_state events while a fake-hardware node is
 * managed and provided, in the embedded topology (API and conductor in one process) and in an
 * ironic-api + ironic-conductor split over RabbitMQ and MariaDB; filters by node and type;
 * created/deleted/maintenance events; 401 without credentials; the per-address stream limit.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import bcrypt from 'bcrypt';
import { startTestServer, type TestServer } from '../api/support/server';
import { Cluster } from '../../compat-tests/scaleout/cluster';
import { ensureRabbitRunning } from '../../compat-tests/scaleout/rabbitmq';
import { ensureMariaDbRunning } from '../../compat-tests/scaleout/mariadb';
import { openSse, type SseClient } from './support/sse';
import { api, createNode, provisionVerb } from './support/nodes';
import { encodeDate } from '../../src/db/codec';

/** manage then provide; the stream must show manageable and then available for this node. */
async function manageAndProvide(base: string, stream: SseClient, name: string, headers: Record<string, string> = {}): Promise<void> {
  const uuid = await createNode(base, { name }, headers);
  await stream.waitFor((e) => e.type === 'created' && e.node.uuid === uuid, 20000, `created of ${name}`);
  await provisionVerb(base, uuid, 'manage', headers);
  await stream.waitFor((e) => e.type === 'provision_state' && e.node.uuid === uuid && e.node.provision_state === 'manageable'
    && e.node.target_provision_state === null, 20000, `${name} manageable`);
  await provisionVerb(base, uuid, 'provide', headers);
  const available = await stream.waitFor((e) => e.type === 'provision_state' && e.node.uuid === uuid
    && e.node.provision_state === 'available', 20000, `${name} available`);
  assert.equal(available.node.name, name);
  assert.equal(available.node.driver, 'fake-hardware');
  const states = stream.events.filter((e) => e.node.uuid === uuid && e.type === 'provision_state').map((e) => e.node.provision_state);
  assert.ok(states.indexOf('manageable') < states.lastIndexOf('available'), states.join(','));
  assert.ok(stream.events.every((e, i) => i === 0 || Number(e.id) > Number(stream.events[i - 1].id)), 'ids increase');
}

describe('embedded topology (API and conductor in one process)', () => {
  let server: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-stream-'));
  const htpasswd = path.join(dir, 'htpasswd');
  fs.writeFileSync(htpasswd, `operator:${bcrypt.hashSync('pw', 4)}\n`);
  const auth = { Authorization: `Basic ${Buffer.from('operator:pw').toString('base64')}` };

  before(async () => {
    server = await startTestServer({
      DEFAULT: { auth_strategy: 'http_basic', http_basic_auth_user_file: htpasswd },
      dashboard: { event_max_streams_per_address: '4', event_heartbeat_interval: '1' },
    });
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses unauthenticated and wrongly authenticated streams with 401', async () => {
    const none = await openSse(`${server.url}/events/nodes`);
    assert.equal(none.status, 401);
    assert.match(String(none.headers['content-security-policy']), /default-src 'self'/);
    none.close();
    const wrong = await openSse(`${server.url}/events/nodes`, { Authorization: `Basic ${Buffer.from('operator:no').toString('base64')}` });
    assert.equal(wrong.status, 401);
    wrong.close();
  });

  it('streams provision_state events while a node is managed and provided', async () => {
    const stream = await openSse(`${server.url}/events/nodes`, auth);
    try {
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      assert.match(String(stream.headers['content-security-policy']), /default-src 'self'/);
      await manageAndProvide(server.url, stream, 'embedded-1', auth);
      await stream.waitFor(() => stream.comments.includes('heartbeat'), 5000, 'heartbeat');
    } finally {
      stream.close();
    }
  });

  it('filters by node and type, and reports maintenance and deletion', async () => {
    const a = await createNode(server.url, { name: 'filter-a' }, auth);
    const b = await createNode(server.url, { name: 'filter-b' }, auth);
    const onlyA = await openSse(`${server.url}/events/nodes?node=filter-a&type=maintenance,deleted`, auth);
    const all = await openSse(`${server.url}/events/nodes`, auth);
    try {
      for (const uuid of [a, b]) {
        assert.equal((await api(server.url, 'PUT', `/v1/nodes/${uuid}/maintenance`, { reason: 'disk <b>' }, auth)).status, 202);
      }
      const m = await all.waitFor((e) => e.type === 'maintenance' && e.node.uuid === b, 20000, 'maintenance of b');
      assert.equal(m.node.maintenance, true);
      assert.equal(m.node.maintenance_reason, 'disk <b>');
      await onlyA.waitFor((e) => e.type === 'maintenance' && e.node.uuid === a, 20000, 'maintenance of a');
      assert.equal((await api(server.url, 'DELETE', `/v1/nodes/${a}`, undefined, auth)).status, 204);
      await onlyA.waitFor((e) => e.type === 'deleted' && e.node.uuid === a, 20000, 'deletion of a');
      await all.waitFor((e) => e.type === 'deleted' && e.node.uuid === a, 20000, 'deletion of a (all)');
      assert.ok(onlyA.events.every((e) => e.node.uuid === a && (e.type === 'maintenance' || e.type === 'deleted')),
        JSON.stringify(onlyA.events.map((e) => [e.type, e.node.name])));
    } finally {
      onlyA.close();
      all.close();
    }
  });

  it('refuses an unknown event type (400) and streams beyond the per-address limit (429)', async () => {
    const bad = await openSse(`${server.url}/events/nodes?type=provision_state,bogus`, auth);
    assert.equal(bad.status, 400);
    bad.close();
    const open = [];
    for (let i = 0; i < 4; i += 1) open.push(await openSse(`${server.url}/events/nodes`, auth));
    try {
      assert.deepEqual(open.map((s) => s.status), [200, 200, 200, 200]);
      const fifth = await openSse(`${server.url}/events/nodes`, auth);
      assert.equal(fifth.status, 429);
      fifth.close();
    } finally {
      for (const s of open) s.close();
    }
    // Closed streams give their places back.
    await new Promise((r) => setTimeout(r, 200));
    const again = await openSse(`${server.url}/events/nodes`, auth);
    assert.equal(again.status, 200);
    again.close();
  });
});

describe('bursts', () => {
  it('sends a 2.5 MB flush whole to a client that reads, with a 4 KiB buffer bound', async () => {
    const server = await startTestServer({ dashboard: { event_client_buffer_bytes: '4096' } });
    try {
      const uuids: string[] = [];
      for (let i = 0; i < 300; i += 30) {
        uuids.push(...await Promise.all(Array.from({ length: 30 }, (_, j) => createNode(server.url, { name: `burst-${i + j}` }))));
      }
      const stream = await openSse(`${server.url}/events/nodes?type=maintenance`);
      // One UPDATE of every row, as another conductor's writes arrive: one flush of 300 events of
      // 8 KB each, far more than the kernel takes at once, so most of it waits in Node's buffer.
      await server.db.knex('nodes').update({
        maintenance: 1, maintenance_reason: 'burst '.repeat(1300), updated_at: encodeDate(new Date(), server.db.dialect),
      });
      for (const uuid of uuids) await stream.waitFor((e) => e.node.uuid === uuid && e.node.maintenance === true, 20000, `maintenance of ${uuid}`);
      const ended = await Promise.race([stream.ended.then(() => true), new Promise((r) => setTimeout(() => r(false), 500))]);
      assert.equal(ended, false, 'the reading client was not cut off');
      stream.close();
    } finally {
      await server.stop();
    }
  });
});

describe('shutdown', () => {
  it('ends the open streams, so the API server closes at once', async () => {
    const server = await startTestServer();
    const stream = await openSse(`${server.url}/events/nodes`);
    assert.equal(stream.status, 200);
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the server did not close with a stream open')), 5000);
    });
    try {
      await Promise.race([Promise.all([server.stop(), stream.ended]), hung]);
    } finally {
      clearTimeout(timer);
    }
  });
});

describe('ironic-api and ironic-conductor in separate processes over RabbitMQ', () => {
  let cluster: Cluster;

  before(async () => {
    await ensureRabbitRunning();
    await ensureMariaDbRunning();
    cluster = await Cluster.start(['stream-conductor-1']);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('streams the conductor\'s changes from the API process', async () => {
    const stream = await openSse(`${cluster.url}/events/nodes`);
    try {
      assert.equal(stream.status, 200);
      await manageAndProvide(cluster.url, stream, 'split-1');
      assert.match(cluster.logOf('stream-conductor-1'), /manageable|available|provision/i);
    } finally {
      stream.close();
    }
  });
});
