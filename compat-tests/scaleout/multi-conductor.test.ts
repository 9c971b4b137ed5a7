/**
 * Scale-out behaviour of ironic-ts as separate processes: one ironic-api and two ironic-conductors
 * on MariaDB and RabbitMQ. A conductor is SIGKILLed mid-provisioning, the broker is restarted under
 * load, and the database is stopped and started again; nodes must never be lost or left locked.
 *
 * It stops and starts the machine's MariaDB and RabbitMQ: both are restarted in `finally` blocks.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster, TIMING } from './cluster';
import { ensureMariaDbRunning, sql, stopMariaDb } from './mariadb';
import { ensureRabbitRunning, stopRabbitApp } from './rabbitmq';
import { sleep } from './ports';
import { createNode, getNode, listNodes, NodeView, Reply, request, setProvisionState } from './rest';
import { DriveResult, driveNode, MANAGE_PROVIDE_DEPLOY, STABLE_STATES, Step } from './provision-driver';
import { pool } from '../../bench/support';

const MANAGE_ONLY: Step[] = [MANAGE_PROVIDE_DEPLOY[0]];

after(async () => {
  await ensureMariaDbRunning();
  await ensureRabbitRunning();
});

async function createNodes(url: string, count: number, prefix: string): Promise<string[]> {
  const uuids: string[] = new Array(count);
  await pool(count, 10, async (i) => {
    uuids[i] = await createNode(url, `${prefix}-${i}`);
  });
  return uuids;
}

/** Node show for each (the list cannot return `conductor`: Ironic 500s on fields=conductor). */
async function showNodes(url: string, uuids: string[]): Promise<NodeView[]> {
  const out: NodeView[] = [];
  await pool(uuids.length, 20, async (i) => {
    const node = await getNode(url, uuids[i]);
    if (node) out.push(node);
  });
  return out;
}

/** Polls the node list until `done` holds for it or the deadline passes; returns the last list. */
async function settle(url: string, ms: number, done: (nodes: NodeView[]) => boolean): Promise<NodeView[]> {
  const deadline = Date.now() + ms;
  let last: NodeView[] = [];
  while (Date.now() < deadline) {
    const nodes = await listNodes(url);
    if (nodes) {
      last = nodes;
      if (done(nodes)) break;
    }
    await sleep(1000);
  }
  return last;
}

// A failed deploy keeps target_provision_state = active, as in Ironic: only the state and the lock count.
const unsettled = (nodes: NodeView[]) => nodes.filter((n) => n.reservation !== null || !STABLE_STATES.has(n.provision_state));

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/**
 * Runs `body` against a fresh cluster. On failure the logs' tails go to stderr; with
 * IRONIC_TS_KEEP_LOGS=1 the whole scratch folder is kept.
 */
async function withCluster(conductors: string[], body: (c: Cluster) => Promise<void>): Promise<void> {
  const cluster = await Cluster.start(conductors);
  const keep = process.env.IRONIC_TS_KEEP_LOGS === '1';
  let failed = true;
  try {
    await body(cluster);
    failed = false;
  } finally {
    if (failed) {
      for (const name of ['api', ...conductors]) process.stderr.write(`--- ${name}.log\n${cluster.logOf(name).slice(-2000)}\n`);
      if (keep) process.stderr.write(`scale-out logs kept in ${cluster.dir}\n`);
    }
    await cluster.stop(failed && keep);
  }
}

test('a conductor SIGKILLed mid-provisioning: 200 nodes settle unlocked and are taken over', { timeout: 240000 }, async (t) => {
  await withCluster(['scaleout-a', 'scaleout-b'], async (cluster) => {
    const uuids = await createNodes(cluster.url, 200, 'kill');
    let accepted = 0;
    let killing: Promise<NodeView[]> | null = null;
    // Kill after about a third of the 600 actions were accepted, with the rest in flight.
    const killVictim = async (): Promise<NodeView[]> => {
      const before = await showNodes(cluster.url, uuids);
      await cluster.kill('scaleout-a', 'SIGKILL');
      return before;
    };
    const onAccepted = () => {
      accepted++;
      if (accepted >= 200 && !killing) killing = killVictim();
    };
    const deadline = Date.now() + 150000;
    const results: DriveResult[] = new Array(uuids.length);
    await pool(uuids.length, 25, async (i) => {
      results[i] = await driveNode(cluster.url, uuids[i], MANAGE_PROVIDE_DEPLOY, deadline, onAccepted);
    });
    assert.ok(killing, `the conductor was never killed (${accepted} actions accepted)`);
    const before = await (killing as Promise<NodeView[]>);
    assert.equal(cluster.alive('scaleout-a'), false);
    const victimNodes = before.filter((n) => n.conductor === 'scaleout-a').map((n) => n.uuid);
    assert.ok(victimNodes.length > 0, 'the killed conductor owned no node');

    const settleMs = (TIMING.heartbeatTimeout + TIMING.deployCallbackTimeout + 4 * TIMING.checkProvisionStateInterval) * 1000;
    const nodes = await settle(cluster.url, settleMs, (ns) => unsettled(ns).length === 0);
    assert.deepEqual(nodes.map((n) => n.uuid).sort(), [...uuids].sort(), 'nodes were lost');
    assert.deepEqual(unsettled(nodes).map((n) => `${n.uuid} ${n.provision_state}->${n.target_provision_state} ${n.reservation}`), [],
      `nodes stuck: ${JSON.stringify(countBy(nodes, (n) => n.provision_state))}`);
    const timedOut = results.filter((r) => r.timedOut).map((r) => `${r.uuid} ${r.state}`);
    assert.deepEqual(timedOut, [], 'the client could not drive these nodes before its deadline');
    const states = countBy(nodes, (n) => n.provision_state);
    t.diagnostic(`final states ${JSON.stringify(states)}; ${victimNodes.length} nodes were on the killed conductor`);
    assert.ok((states.active ?? 0) > 100, `too few nodes deployed: ${JSON.stringify(states)}`);

    for (const uuid of victimNodes) {
      const node = await getNode(cluster.url, uuid);
      assert.equal(node?.conductor, 'scaleout-b', `node ${uuid} of the dead conductor was not taken over`);
    }
    await assertActiveNodesAdopted(cluster, 'scaleout-b');
  });
});

/** _sync_local_state: every active node ends with the survivor's conductor_affinity (the real take-over). */
async function assertActiveNodesAdopted(cluster: Cluster, survivor: string): Promise<void> {
  const survivorId = sql(`SELECT id FROM conductors WHERE hostname = '${survivor}'`, cluster.dbName).trim();
  const query = `SELECT uuid FROM nodes WHERE provision_state = 'active' AND (conductor_affinity IS NULL OR conductor_affinity <> ${survivorId})`;
  const deadline = Date.now() + 30000;
  let left = sql(query, cluster.dbName).trim();
  while (left && Date.now() < deadline) {
    await sleep(1000);
    left = sql(query, cluster.dbName).trim();
  }
  assert.equal(left, '', `active nodes not taken over by ${survivor}`);
}

test('a RabbitMQ restart loses no accepted request', { timeout: 180000 }, async (t) => {
  await withCluster(['scaleout-a', 'scaleout-b'], async (cluster) => {
    const uuids = await createNodes(cluster.url, 60, 'rabbit');
    const replies: Promise<Reply>[] = [];
    let restarted = false;
    let brokerDown = false;
    let sentWhileDown = 0;
    try {
      // One manage per node, spread over the outage: before, during and after the broker is down.
      const firing = (async () => {
        for (const uuid of uuids) {
          replies.push(setProvisionState(cluster.url, uuid, 'manage'));
          if (brokerDown) sentWhileDown++;
          await sleep(150);
        }
      })();
      await sleep(1000);
      await stopRabbitApp();
      brokerDown = true;
      await sleep(2000);
      await ensureRabbitRunning();
      brokerDown = false;
      restarted = true;
      await firing;
    } finally {
      if (!restarted) await ensureRabbitRunning();
    }
    const answers = await Promise.all(replies);
    const statuses = answers.map((r) => r.status);
    const acceptedUuids = uuids.filter((_, i) => statuses[i] === 202);
    t.diagnostic(`replies around the broker restart: ${JSON.stringify(countBy(statuses.map(String), (x) => x))}, ` +
      `${sentWhileDown} sent while it was down`);
    assert.ok(sentWhileDown > 0, 'no request was sent while the broker was down');
    assert.ok(acceptedUuids.length > 0, `no request accepted: ${statuses.join(',')}`);
    // A 4xx here means the conductor ran the same call twice (a redelivered message) and the
    // client was told a request that took effect had failed.
    const unexpected = answers.map((r, i) => ({ uuid: uuids[i], status: r.status, error: r.body.error_message }))
      .filter((a) => a.status !== 202 && a.status !== 500 && a.status !== 503);
    assert.deepEqual(unexpected, [], 'a request got an answer other than 202 or a server error');

    const nodes = await settle(cluster.url, 60000, (ns) => ns.filter((n) => acceptedUuids.includes(n.uuid))
      .every((n) => n.provision_state === 'manageable' && n.reservation === null));
    const lost = nodes.filter((n) => acceptedUuids.includes(n.uuid) && n.provision_state !== 'manageable');
    assert.deepEqual(lost.map((n) => `${n.uuid} ${n.provision_state}`), [], 'accepted manage requests without effect');

    // The rest only failed while the broker was away: they go through now, without restarting anything.
    const deadline = Date.now() + 60000;
    const retried = await Promise.all(uuids.filter((u) => !acceptedUuids.includes(u))
      .map((uuid) => driveNode(cluster.url, uuid, MANAGE_ONLY, deadline)));
    assert.deepEqual(retried.filter((r) => r.state !== 'manageable').map((r) => `${r.uuid} ${r.state}`), []);
    for (const name of ['api', 'scaleout-a', 'scaleout-b']) assert.ok(cluster.alive(name), `${name} died`);
  });
});

test('with MariaDB stopped the API answers 503, and recovers by itself when it is back', { timeout: 180000 }, async (t) => {
  await withCluster(['scaleout-a', 'scaleout-b'], async (cluster) => {
    const uuids = await createNodes(cluster.url, 4, 'db');
    const during: Array<[string, number]> = [];
    try {
      await stopMariaDb();
      for (const path of ['/v1/nodes', `/v1/nodes/${uuids[0]}`, '/v1/nodes/detail', '/v1/conductors']) {
        during.push([path, (await request(cluster.url, 'GET', path, undefined, 30000)).status]);
      }
      during.push(['PUT manage', (await setProvisionState(cluster.url, uuids[1], 'manage')).status]);
    } finally {
      await ensureMariaDbRunning();
    }
    t.diagnostic(`replies while the database was down: ${JSON.stringify(during)}`);

    const back = await settle(cluster.url, 30000, (ns) => ns.length === uuids.length);
    assert.equal(back.length, uuids.length, 'the API did not recover after the database came back');
    const deadline = Date.now() + 60000;
    const results = await Promise.all(uuids.map((uuid) => driveNode(cluster.url, uuid, MANAGE_PROVIDE_DEPLOY, deadline)));
    assert.deepEqual(results.filter((r) => r.state !== 'active').map((r) => `${r.uuid} ${r.state}`), [],
      'conductors did not recover after the database came back');
    const conductors = await settleConductors(cluster.url, 2);
    assert.equal(conductors, 2, 'both conductors alive again');
    for (const name of ['api', 'scaleout-a', 'scaleout-b']) assert.ok(cluster.alive(name), `${name} died`);
    // Checked last so that a wrong status code does not hide whether recovery works.
    assert.deepEqual(during.filter(([, s]) => s !== 503), [], 'requests while the database is down must answer 503');
  });
});

async function settleConductors(url: string, want: number): Promise<number> {
  const deadline = Date.now() + (TIMING.heartbeatTimeout + 10) * 1000;
  let alive = 0;
  while (Date.now() < deadline) {
    const reply = await request(url, 'GET', '/v1/conductors?detail=true');
    alive = reply.status === 200 ? (reply.body.conductors as Array<{ alive: boolean }>).filter((c) => c.alive).length : 0;
    if (alive === want) break;
    await sleep(1000);
  }
  return alive;
}
