/**
 * 200 event-stream clients that connect and never read, while 1,000 power state changes go
 * through the API of a separate ironic-ts process: the server cuts the stalled clients off when
 * their unread bytes pass [dashboard]event_client_buffer_bytes, its RSS stays within a bound, and a
 * client that reads still gets every node's latest state.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, startIronicTs } from '../../compat-tests/support/target';
import { openSse } from './support/sse';
import { api, createNode } from './support/nodes';

const STALLED = 200;
const NODES = 250;
const ROUNDS = 4;
const BUFFER_BYTES = 65536;
/** What the server may grow by while it holds the stalled clients (their buffers are 200 × 64 KiB at most). */
const RSS_BOUND_MIB = 64;

function rssMiB(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** A client that sends the request and never reads a byte of the answer. */
function stalledClient(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /events/nodes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('200 stalled stream clients during 1,000 state changes: cut off, RSS bounded', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-stalled-'));
  const port = await freePort();
  const server = await startIronicTs(dir, port,
    `[dashboard]\nevent_max_streams_per_address = ${STALLED + 10}\nevent_client_buffer_bytes = ${BUFFER_BYTES}\n[DEFAULT]`);
  const sockets: net.Socket[] = [];
  try {
    const uuids: string[] = [];
    await inBatches(Array.from({ length: NODES }, (_, i) => i), 25, async (i) => {
      uuids.push(await createNode(server.url, { name: `stall-${i}` }));
    });
    const reader = await openSse(`${server.url}/events/nodes?type=power_state`);
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledClient(port));
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssMiB(server.pid);

    for (let round = 0; round < ROUNDS; round += 1) {
      const target = round % 2 === 0 ? 'power on' : 'power off';
      await inBatches(uuids, 20, async (uuid) => {
        const res = await api(server.url, 'PUT', `/v1/nodes/${uuid}/states/power`, { target });
        assert.equal(res.status, 202, JSON.stringify(res.json));
      });
      await waitUntil(async () => {
        const list = await api(server.url, 'GET', '/v1/nodes?fields=uuid,power_state,target_power_state&limit=1000');
        return (list.json.nodes as Array<{ power_state: string; target_power_state: string | null }>)
          .every((n) => n.power_state === target && n.target_power_state === null);
      }, 60000, `round ${round}: ${target}`);
    }
    // The reading client sees every node's final state (power off after the fourth round).
    await waitUntil(() => Promise.resolve(uuids.every((uuid) => {
      const last = reader.events.filter((e) => e.node.uuid === uuid).at(-1);
      return last?.node.power_state === 'power off' && last.node.target_power_state === null;
    })), 20000, 'the reader to see every node powered off');
    await new Promise((r) => setTimeout(r, 2000));
    const after = rssMiB(server.pid);
    const log = fs.readFileSync(path.join(dir, 'stdout.log'), 'utf8');
    const cutOff = (log.match(/Dashboard event stream to \S+ cut off/g) ?? []).length;
    t.diagnostic(`RSS before ${before.rss.toFixed(1)} MiB, after ${after.rss.toFixed(1)} MiB, peak ${after.peak.toFixed(1)} MiB; ` +
      `${cutOff} of ${STALLED} stalled clients cut off; reader got ${reader.events.length} events`);
    assert.equal(cutOff, STALLED, 'every stalled client was cut off');
    assert.ok(after.rss - before.rss < RSS_BOUND_MIB, `RSS grew by ${(after.rss - before.rss).toFixed(1)} MiB`);
    assert.ok(after.peak - before.rss < RSS_BOUND_MIB * 1.5, `peak RSS ${after.peak.toFixed(1)} MiB`);
    // Coalescing: fewer events than changes reached the reader (2 writes per change, 1,000 changes).
    assert.ok(reader.events.length <= NODES * ROUNDS * 2, String(reader.events.length));
    reader.close();
    const fresh = await openSse(`${server.url}/events/nodes`);
    assert.equal(fresh.status, 200, 'the server still serves new streams');
    fresh.close();
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
  }
});
