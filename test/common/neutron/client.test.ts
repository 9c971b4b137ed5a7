/**
 * The Neutron client's wire behaviour against a scripted HTTP server: the versioned root, filters
 * as repeated query parameters, openstacksdk's wording of errors, 503 retries, and Neutron
 * unreachable reported as keystoneauth's DiscoveryFailure.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { NeutronClient } from '../../../src/common/neutron/client';
import { NeutronApiError, NeutronNotFound, NeutronUnreachable } from '../../../src/common/neutron/errors';
import { Config } from '../../../src/conf/config';

let server: Server;
let base = '';
const seen: string[] = [];
let unavailable = 0;

function reply(req: IncomingMessage): [number, unknown] {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/v2.0/ports/missing') {
    return [404, { NeutronError: { type: 'PortNotFound', message: 'Port missing could not be found.', detail: '' } }];
  }
  if (url.pathname === '/v2.0/ports/busy') {
    if (unavailable-- > 0) return [503, { message: 'try later' }];
    return [200, { port: { id: 'busy', fixed_ips: [] } }];
  }
  if (url.pathname === '/v2.0/ports') return [200, { ports: [{ id: 'p1' }] }];
  return [500, { message: 'unexpected' }];
}

before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const [status, body] = reply(req);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((r) => server.close(() => r())));

const client = (neutron: Record<string, string | number>) => new NeutronClient(new Config([], { neutron }));

test('filters go as repeated query parameters on the /v2.0 root', async () => {
  seen.length = 0;
  const ports = await client({ endpoint_override: base }).ports({ network_id: 'n1', mac_address: ['a', 'b'] });
  assert.deepEqual(ports.map((p) => p.id), ['p1']);
  assert.deepEqual(seen, ['GET /v2.0/ports?network_id=n1&mac_address=a&mac_address=b']);
});

test('a 404 is ResourceNotFound worded as openstacksdk words it', async () => {
  const err = await client({ endpoint_override: `${base}/v2.0` }).getPort('missing').catch((e: unknown) => e);
  assert.ok(err instanceof NeutronNotFound);
  assert.equal((err as Error).message,
    `NotFoundException: 404: Client Error for url: ${base}/v2.0/ports/missing, Port missing could not be found.`);
});

test('a 503 is retried [neutron]status_code_retries times, then raised', async () => {
  unavailable = 1;
  const ok = await client({ endpoint_override: base, status_code_retries: 1, status_code_retry_delay: 0 }).getPort('busy');
  assert.equal(ok.id, 'busy');
  unavailable = 2;
  const err = await client({ endpoint_override: base, status_code_retries: 1, status_code_retry_delay: 0 }).getPort('busy').catch((e: unknown) => e);
  assert.ok(err instanceof NeutronApiError && !(err instanceof NeutronNotFound));
  assert.match((err as Error).message, /^HttpException: 503: Server Error for url: .*\/v2\.0\/ports\/busy, try later$/);
  unavailable = 0;
});

test('Neutron unreachable: DiscoveryFailure for an unversioned endpoint, ConnectFailure for a versioned one', async () => {
  const dead = 'http://127.0.0.1:9';
  const discovery = await client({ endpoint_override: dead }).getPort('x').catch((e: unknown) => e);
  assert.ok(discovery instanceof NeutronUnreachable && !(discovery instanceof NeutronApiError));
  assert.equal((discovery as Error).message, `Unable to find a version discovery document at ${dead}, the service is unavailable or misconfigured. ` +
    'Required version range (any - any), version hack disabled.');
  assert.equal((discovery as Error).name, 'DiscoveryFailure', 'keystoneauth\'s class, as Ironic names it in messages');
  const connect = await client({ endpoint_override: `${dead}/v2.0` }).getPort('x').catch((e: unknown) => e);
  assert.match((connect as Error).message, /^Unable to establish connection to http:\/\/127\.0\.0\.1:9\/v2\.0\/ports\/x: /);
  assert.equal((connect as Error).name, 'ConnectFailure');
});
