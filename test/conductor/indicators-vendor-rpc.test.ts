/**
 * The indicator and vendor passthru calls travel over the AMQP transport like every other
 * ConductorApi method: results, typed errors and the vendor method's return value.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { createConductorClient, serveConductorRpc, ConductorClient } from '../../src/rpc';
import { MissingParameterValue, UnsupportedDriverExtension } from '../../src/common/errors';
import { brokerAvailable, createVhost } from '../rpc/broker';
import { makeConf, sqliteDb, TempDb } from './support';

const available = brokerAvailable();
const suffix = randomUUID().slice(0, 8);
let tmp: TempDb;
let vhost: ReturnType<typeof createVhost>;
let svc: ConductorService;
let server: { close(): Promise<void> };
let client: ConductorClient;

function rpcConf(host: string) {
  return makeConf(host, { DEFAULT: { rpc_transport: 'oslo', transport_url: vhost.url, rpc_response_timeout: 30 } });
}

before(async () => {
  if (!available) return;
  vhost = createVhost('ironic-ts-vendor-rpc');
  tmp = await sqliteDb();
  svc = await startConductorService({ conf: rpcConf(`vend-${suffix}`), db: tmp.db });
  server = await serveConductorRpc(rpcConf(`vend-${suffix}`), svc.api);
  client = await createConductorClient({ conf: rpcConf(`api-${suffix}`), db: tmp.db });
});

after(async () => {
  if (!available) return;
  await client.close();
  await server.close();
  await svc.stop();
  await tmp.cleanup();
  vhost.remove();
});

test('indicator and vendor calls over RabbitMQ', { skip: !available }, async () => {
  const uuid = randomUUID();
  await client.createNode({ uuid, driver: 'fake-hardware' });
  assert.deepEqual(Object.keys(await client.getSupportedIndicators(uuid)), ['chassis', 'system']);
  assert.equal(await client.getIndicatorState(uuid, 'chassis', 'led-0'), 'on');
  await assert.rejects(client.setIndicatorState(uuid, 'system', 'led', 'off'), UnsupportedDriverExtension);
  const methods = await client.getNodeVendorPassthruMethods(uuid);
  assert.deepEqual(Object.keys(methods), ['fourth_method_shared_lock', 'log_passthrough', 'second_method', 'third_method_sync']);
  assert.deepEqual(await client.vendorPassthru(uuid, 'third_method_sync', 'POST', { bar: 'meow' }),
    { return: true, async: false, attach: false });
  await assert.rejects(client.vendorPassthru(uuid, 'second_method', 'POST', {}), (e: Error) =>
    e instanceof MissingParameterValue && e.message === "Parameter 'bar' not passed to method 'second_method'.");
});
