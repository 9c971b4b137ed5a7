// A hostile BMC: huge, truncated, garbage, slow and reset responses must end in typed errors within
// the request timeout: never a crash, a hang or unbounded memory. Seeded, so failures reproduce.

import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  RedfishClient, RedfishClientOptions, RedfishConnectionError, RedfishError, RedfishInvalidResponseError,
  RedfishResponseTooLargeError, RedfishServerError, RedfishSystemResolutionError, RedfishTimeoutError, RedfishTlsError,
} from '../../../src/protocols/redfish';
import { startRedfishEmulator } from '../../../src/emulators/redfish';
import { HostileServer, httpHead, respond, startHostileServer } from './helpers/hostile-server';
import { seededRandom } from '../seeded-random';

const MAX_BYTES = 32 * 1024;
const TIMEOUT_MS = 250;
const SYSTEM = {
  '@odata.id': '/redfish/v1/Systems/1',
  Id: '1',
  PowerState: 'On',
  Boot: { BootSourceOverrideTarget: 'None', BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideMode: 'UEFI' },
  Actions: { '#ComputerSystem.Reset': { target: '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset' } },
};
const SYSTEM_JSON = JSON.stringify(SYSTEM);

let bmc: HostileServer;

function client(extra: Partial<RedfishClientOptions> = {}): RedfishClient {
  return new RedfishClient({
    address: bmc.url, username: 'u', password: 'p', authType: 'basic', systemId: '/redfish/v1/Systems/1',
    connectionAttempts: 1, retryIntervalMs: 5, timeoutMs: TIMEOUT_MS, maxResponseBytes: MAX_BYTES, ...extra,
  });
}

/** Fails the test if the operation does not settle well past its own deadline (a hang). */
async function settle<T>(op: Promise<T>, limitMs = 5000): Promise<{ value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`operation hung for ${limitMs} ms`)), limitMs);
  });
  try {
    return { value: await Promise.race([op, guard]) };
  } catch (error) {
    if (error instanceof Error && /operation hung/.test(error.message)) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

function drip(socket: Socket, intervalMs: number): void {
  socket.write(httpHead(200, { 'Content-Type': 'application/json', 'Content-Length': MAX_BYTES - 1 }));
  const t = setInterval(() => {
    if (socket.destroyed) clearInterval(t);
    else socket.write(' ');
  }, intervalMs);
  socket.on('close', () => clearInterval(t));
}

function flood(socket: Socket): void {
  socket.write(httpHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }));
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  const pump = (): void => {
    while (!socket.destroyed && socket.write(`${chunk.length.toString(16)}\r\n`) && socket.write(chunk) && socket.write('\r\n'));
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

before(async () => {
  bmc = await startHostileServer();
});
after(() => bmc.stop());

describe('hostile responses', () => {
  it('a declared huge body is refused before reading it', async () => {
    bmc.setBehaviour((s) => s.write(httpHead(200, { 'Content-Length': 500_000_000 })));
    const { error } = await settle(client().getSystem());
    assert.ok(error instanceof RedfishResponseTooLargeError);
    assert.equal(error.limitBytes, MAX_BYTES);
  });

  it('an endless chunked body stops at the cap', async () => {
    bmc.setBehaviour(flood);
    const { error } = await settle(client().getSystem());
    assert.ok(error instanceof RedfishResponseTooLargeError);
  });

  it('truncated JSON and garbage bytes are invalid responses', async () => {
    bmc.setBehaviour((s) => respond(s, 200, SYSTEM_JSON.slice(0, 40)));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
    bmc.setBehaviour((s) => respond(s, 200, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x01])));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
    bmc.setBehaviour((s) => respond(s, 200, '[1,2,3]'));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
  });

  it('deeply nested JSON within the cap is an invalid response, not a stack overflow', async () => {
    const depth = 15_000;
    bmc.setBehaviour((s) => respond(s, 200, '['.repeat(depth) + ']'.repeat(depth)));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
  });

  it('a body cut short of its Content-Length is a connection error', async () => {
    bmc.setBehaviour((s) => s.end(httpHead(200, { 'Content-Length': 5000 }) + SYSTEM_JSON.slice(0, 100)));
    const { error } = await settle(client().getSystem());
    assert.ok(error instanceof RedfishConnectionError, String(error));
  });

  it('a dripping or silent BMC times out', async () => {
    bmc.setBehaviour((s) => drip(s, 20));
    const dripped = await settle(client().getSystem());
    assert.ok(dripped.error instanceof RedfishTimeoutError);
    assert.equal(dripped.error.timeoutMs, TIMEOUT_MS);
    bmc.setBehaviour(() => undefined);
    assert.ok((await settle(client().getSystem())).error instanceof RedfishTimeoutError);
  });

  it('resets are retried for reads up to connection_attempts', async () => {
    bmc.setBehaviour((s) => s.resetAndDestroy());
    const before = bmc.connections();
    const { error } = await settle(client({ connectionAttempts: 3 }).getSystem());
    assert.ok(error instanceof RedfishConnectionError);
    assert.equal(bmc.connections() - before, 3);
  });

  it('a closed port is a connection error; TLS against plain HTTP is a TLS error', async () => {
    const gone = await startHostileServer();
    const url = gone.url;
    await gone.stop();
    const refused = await settle(client({ address: url, connectionAttempts: 2 }).getSystem());
    assert.ok(refused.error instanceof RedfishConnectionError);
    assert.equal(refused.error.code, 'ECONNREFUSED');
    const plain = await startRedfishEmulator({ systems: 1 });
    try {
      const tls = await settle(client({ address: plain.url.replace('http:', 'https:'), verifyCa: false }).getSystem());
      assert.ok(tls.error instanceof RedfishTlsError, String(tls.error));
    } finally {
      await plain.stop();
    }
  });

  it('a reset during a POST action is not replayed', async () => {
    let posts = 0;
    bmc.setBehaviour((s, head) => {
      if (head.startsWith('POST')) {
        posts += 1;
        s.resetAndDestroy();
      } else {
        respond(s, 200, SYSTEM_JSON);
      }
    });
    const { error } = await settle(client({ connectionAttempts: 3 }).reset('On'));
    assert.ok(error instanceof RedfishConnectionError);
    assert.equal(posts, 1);
  });

  it('a garbage status line or header flood is an invalid response', async () => {
    bmc.setBehaviour((s) => s.end('SSH-2.0-OpenSSH_9.2\r\n\r\n'));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
    bmc.setBehaviour((s) => s.end(`HTTP/1.1 200 OK\r\nX-Junk: ${'a'.repeat(100_000)}\r\n\r\n`));
    assert.ok((await settle(client().getSystem())).error instanceof RedfishInvalidResponseError);
  });

  it('server errors with junk bodies are typed, and reads are retried', async () => {
    bmc.setBehaviour((s) => respond(s, 500, '{"error": {"@Message.ExtendedInfo": [7, {"Message": 5}]}}'));
    const before = bmc.connections();
    const { error } = await settle(client({ connectionAttempts: 2 }).getSystem());
    assert.ok(error instanceof RedfishServerError);
    assert.equal(error.status, 500);
    assert.equal(bmc.connections() - before, 2);
  });

  it('wrong shapes degrade to nulls instead of crashing', async () => {
    bmc.setBehaviour((s) => respond(s, 200, JSON.stringify({ Id: 5, PowerState: ['On'], Boot: 'x', Links: { ManagedBy: 'y' }, Actions: null })));
    const { value } = await settle(client().getSystem());
    assert.equal(value?.powerState, null);
    assert.equal(value?.boot.target, null);
    assert.deepEqual(value?.managerPaths, []);
    bmc.setBehaviour((s) => respond(s, 200, JSON.stringify({ Systems: { '@odata.id': '/redfish/v1/Systems' }, Members: [{ '@odata.id': 5 }, 'x'] })));
    const { error } = await settle(client({ systemId: null }).getSystem());
    assert.ok(error instanceof RedfishSystemResolutionError);
  });

  it('follows collection pages, but not in a loop', async () => {
    const page = (body: object) => JSON.stringify({ '@odata.id': '/redfish/v1/Systems', ...body });
    bmc.setBehaviour((s, head) => {
      if (head.startsWith('GET /redfish/v1/ ')) respond(s, 200, JSON.stringify({ Systems: { '@odata.id': '/redfish/v1/Systems' } }));
      else if (head.startsWith('GET /redfish/v1/Systems?page=2 ')) respond(s, 200, page({ Members: [{ '@odata.id': '/redfish/v1/Systems/9' }] }));
      else respond(s, 200, page({ Members: [], 'Members@odata.nextLink': '/redfish/v1/Systems?page=2' }));
    });
    assert.equal(await client({ systemId: null }).systemPath(), '/redfish/v1/Systems/9');
    bmc.setBehaviour((s, head) => {
      if (head.startsWith('GET /redfish/v1/ ')) respond(s, 200, JSON.stringify({ Systems: { '@odata.id': '/redfish/v1/Systems' } }));
      else respond(s, 200, page({ Members: [], 'Members@odata.nextLink': '/redfish/v1/Systems' }));
    });
    const { error } = await settle(client({ systemId: null }).systemPath());
    assert.ok(error instanceof RedfishInvalidResponseError);
    assert.match(error.message, /loop/);
  });

  it('never follows a task monitor to another host', async () => {
    bmc.setBehaviour((s, head) => {
      if (head.startsWith('POST')) respond(s, 202, '', { Location: 'http://192.0.2.1/redfish/v1/TaskMonitors/1' });
      else if (head.includes('/UpdateService ')) respond(s, 200, JSON.stringify({ Actions: { '#UpdateService.SimpleUpdate': { target: '/redfish/v1/UpdateService/Actions/SimpleUpdate' } } }));
      else respond(s, 200, JSON.stringify({ UpdateService: { '@odata.id': '/redfish/v1/UpdateService' } }));
    });
    const c = client();
    const op = await c.simpleUpdate({ imageUri: 'http://127.0.0.1/fw.bin' });
    assert.equal(op.monitorUri, 'http://192.0.2.1/redfish/v1/TaskMonitors/1');
    await assert.rejects(c.waitForTask(op.monitorUri, 1000), RedfishInvalidResponseError);
  });
});

describe('seeded fuzz', () => {
  const SEED = 0x5eed1;
  const CASES = 80;
  const STATUSES = [200, 200, 200, 201, 202, 204, 301, 400, 401, 404, 409, 412, 428, 500, 503];

  function body(rand: () => number): Buffer {
    const pick = Math.floor(rand() * 6);
    if (pick === 0) return Buffer.from(SYSTEM_JSON);
    if (pick === 1) return Buffer.from(SYSTEM_JSON.slice(0, Math.floor(rand() * SYSTEM_JSON.length)));
    if (pick === 2) return Buffer.from(Array.from({ length: Math.floor(rand() * 512) }, () => Math.floor(rand() * 256)));
    if (pick === 3) return Buffer.from(JSON.stringify([rand(), 'x', null][Math.floor(rand() * 3)]));
    if (pick === 4) return Buffer.from(JSON.stringify({ error: { code: rand() > 0.5 ? 7 : 'X', '@Message.ExtendedInfo': rand() > 0.5 ? 'no' : [{ Message: rand() > 0.5 ? 'bad' : 3 }] } }));
    return Buffer.alloc(Math.floor(rand() * (MAX_BYTES * 2)), 0x20);
  }

  function behaviourFor(rand: () => number): (s: Socket) => void {
    const status = STATUSES[Math.floor(rand() * STATUSES.length)];
    const payload = body(rand);
    const framing = Math.floor(rand() * 6);
    return (s) => {
      if (framing === 0) respond(s, status, payload);
      else if (framing === 1) s.end(Buffer.concat([Buffer.from(httpHead(status, { 'Content-Length': payload.length + 10 })), payload]));
      else if (framing === 2) s.end(Buffer.concat([Buffer.from(httpHead(status, { Connection: 'close' })), payload]));
      else if (framing === 3) s.end(Buffer.concat([Buffer.from(httpHead(status, { 'Transfer-Encoding': 'chunked' })), Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]));
      else if (framing === 4) s.end(Buffer.concat([Buffer.from(httpHead(status, { 'Transfer-Encoding': 'chunked' })), Buffer.from('zz\r\n'), payload]));
      else setTimeout(() => (rand() > 0.5 ? s.resetAndDestroy() : respond(s, status, payload)), Math.floor(rand() * 50));
    };
  }

  it(`${CASES} random responses all end in a result or a RedfishError`, async (t) => {
    const rand = seededRandom(SEED);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < CASES; i++) {
      bmc.setBehaviour(behaviourFor(rand));
      const c = client({ connectionAttempts: 2 });
      const op: Promise<unknown> = i % 2 === 0 ? c.getSystem() : c.reset('On');
      const { value, error } = await settle(op);
      if (error !== undefined) {
        assert.ok(error instanceof RedfishError, `case ${i}: untyped ${String(error)}`);
        outcomes.set(error.name, (outcomes.get(error.name) ?? 0) + 1);
      } else {
        const key = value === undefined ? 'ok(void)' : 'ok';
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
    }
    t.diagnostic(`seed ${SEED}: ${JSON.stringify(Object.fromEntries(outcomes))}`);
    assert.ok(outcomes.size >= 4, `varied outcomes: ${JSON.stringify([...outcomes])}`);
  });
});
