import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { createConductorClient, serveConductorRpc, ConductorClient } from '../../src/rpc';
import { RingManager } from '../../src/rpc/ring-manager';
import { InvalidStateRequested, NodeTraitNotFound } from '../../src/common/errors';
import { makeConf, sqliteDb, TempDb, waitForNode } from '../conductor/support';
import { brokerAvailable, createVhost, dropConnections } from './broker';
import { CallLog, checkRingRouting, recording } from './support';

const available = brokerAvailable();
let tmp: TempDb;
let vhost: ReturnType<typeof createVhost>;
const services: ConductorService[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
let client: ConductorClient;
const calls: CallLog = new Map();
const suffix = randomUUID().slice(0, 8);
const HOSTS = [`rpc-a-${suffix}`, `rpc-b-${suffix}`];

function rpcConf(host: string) {
  return makeConf(host, { DEFAULT: { rpc_transport: 'oslo', transport_url: vhost.url, rpc_response_timeout: 30 } });
}

before(async () => {
  if (!available) return;
  vhost = createVhost('ironic-ts-conductor-rpc');
  tmp = await sqliteDb();
  for (const host of HOSTS) {
    const svc = await startConductorService({ conf: rpcConf(host), db: tmp.db });
    services.push(svc);
    servers.push(await serveConductorRpc(rpcConf(host), recording(calls, host, svc.api)));
  }
  client = await createConductorClient({ conf: rpcConf(`api-${suffix}`), db: tmp.db });
});

after(async () => {
  if (!available) return;
  await client.close();
  for (const s of servers) await s.close();
  for (const s of services) await s.stop();
  await tmp.cleanup();
  vhost.remove();
});

test('calls are routed to the conductor owning the node on the hash ring', { skip: !available }, async () => {
  const rings = new RingManager(rpcConf('observer'), tmp.db);
  const { uuids, owners } = await checkRingRouting(client, rings, tmp.db, calls, HOSTS);
  assert.deepEqual([...owners].sort(), [...HOSTS].sort(), 'both conductors own some nodes');
  assert.equal(await client.topicFor({ uuid: uuids[0], driver: 'fake-hardware', conductor_group: '' }),
    `ironic.conductor_manager.${await rings.hostFor({ uuid: uuids[0], driver: 'fake-hardware', conductor_group: '' })}`);
  // The batch lookup node lists use agrees node by node, and has no host for a driver no conductor runs.
  const batch = [...uuids.map((uuid) => ({ uuid, driver: 'fake-hardware', conductor_group: '' })),
    { uuid: uuids[0], driver: 'no-such-driver', conductor_group: '' }];
  const hosts = await client.conductorHostsFor(batch);
  assert.deepEqual(hosts.slice(0, -1), await Promise.all(batch.slice(0, -1).map((n) => rings.hostFor(n))));
  assert.equal(hosts[hosts.length - 1], null);
});

test('errors come back as the same typed Ironic errors', { skip: !available }, async () => {
  const uuid = randomUUID();
  await client.createNode({ uuid, driver: 'fake-hardware' });
  await assert.rejects(client.doProvisioningAction(uuid, 'provide'), (err: Error) => {
    assert.ok(err instanceof InvalidStateRequested);
    assert.equal((err as InstanceType<typeof InvalidStateRequested>).code, 400);
    assert.equal(err.message, `The requested action "provide" can not be performed on node "${uuid}" while it is in state "enroll".`);
    return true;
  });
  await assert.rejects(client.removeNodeTraits(uuid, ['CUSTOM_MISSING']), (err: Error) => {
    assert.ok(err instanceof NodeTraitNotFound);
    assert.equal(err.message, `Node ${uuid} doesn't have a trait 'CUSTOM_MISSING'`);
    return true;
  });
  const node = await client.updateNode(uuid, { extra: { k: 'v' } });
  assert.ok(node.created_at instanceof Date, 'dates survive the wire');
  assert.deepEqual(node.extra, { k: 'v' });
});

test('a request survives the owner\'s broker connection being dropped', { skip: !available }, async () => {
  const rings = new RingManager(rpcConf('observer'), tmp.db);
  let uuid = randomUUID();
  while (await rings.hostFor({ uuid, driver: 'fake-hardware', conductor_group: '' }) !== HOSTS[1]) uuid = randomUUID();
  await client.createNode({ uuid, driver: 'fake-hardware' });
  assert.ok(dropConnections(`ironic-ts conductor ${HOSTS[1]}`) >= 1);
  // Published while the owner is reconnecting: the durable queue keeps it until the consumer is back.
  const result = await client.validateDriverInterfaces(uuid);
  assert.equal(result.power.result, true);
  assert.ok(dropConnections(`ironic-ts rpc client`) >= 1);
  await client.changeNodePowerState(uuid, 'power on');
  await waitForNode(tmp.db, uuid, (n) => n.power_state === 'power on');
});
