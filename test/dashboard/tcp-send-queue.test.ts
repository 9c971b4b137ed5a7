/**
 * The kernel's unacknowledged bytes per connection, read from /proc/net/tcp{,6}, found by the key
 * of the server side's socket, over IPv4 and IPv6 loopback: a peer that stops reading leaves bytes
 * in the send queue, one that reads leaves none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { connectionKey, unacknowledgedBytes } from '../../src/dashboard/tcp-send-queue';

async function queueOfStalledPeer(host: string): Promise<{ stalled: number; reading: number }> {
  const accepted: net.Socket[] = [];
  const server = net.createServer((s) => accepted.push(s));
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const { port } = server.address() as net.AddressInfo;
  const stalledPeer = net.connect(port, host);
  const readingPeer = net.connect(port, host);
  readingPeer.resume();
  try {
    await new Promise((r) => setTimeout(r, 200));
    stalledPeer.pause();
    const serverSide = (peer: net.Socket): net.Socket => accepted.find((s) => s.remotePort === peer.localPort)!;
    const [a, b] = [serverSide(stalledPeer), serverSide(readingPeer)];
    const keyOf = (s: net.Socket) => connectionKey(s.remoteAddress ?? '', s.remotePort ?? 0, s.localPort ?? 0);
    for (let i = 0; i < 100; i += 1) {
      a.write(Buffer.alloc(64 * 1024));
      b.write(Buffer.alloc(1024));
    }
    await new Promise((r) => setTimeout(r, 300));
    const queues = await unacknowledgedBytes();
    assert.ok(queues, '/proc/net/tcp is readable on Linux');
    return { stalled: queues.get(keyOf(a)) ?? -1, reading: queues.get(keyOf(b)) ?? -1 };
  } finally {
    stalledPeer.destroy();
    readingPeer.destroy();
    for (const s of accepted) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

test('IPv4: a stalled peer has unacknowledged bytes, a reading one none', async () => {
  const { stalled, reading } = await queueOfStalledPeer('127.0.0.1');
  assert.ok(stalled > 64 * 1024, `stalled ${stalled}`);
  assert.equal(reading, 0);
});

test('IPv6: the same through /proc/net/tcp6', async () => {
  const { stalled, reading } = await queueOfStalledPeer('::1');
  assert.ok(stalled > 64 * 1024, `stalled ${stalled}`);
  assert.equal(reading, 0);
});
