// RFC 7440 windows: an ACK slides the window instead of restarting it, so a
// client cannot make the server send a file many times over; lost blocks
// are still recovered from the first unacknowledged one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { start, type TftpServer } from '../../../src/protocols/tftp/server';
import { TFTP_DEFAULTS } from '../../../src/protocols/tftp/defaults';
import { tftpGet } from './mini-client';

let dir: string;
let server: TftpServer;
const BLKSIZE = 512;
const file = crypto.randomBytes(300_000);
const blocks = Math.floor(file.length / BLKSIZE) + 1;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tftp-window-'));
  await fsp.writeFile(path.join(dir, 'file.bin'), file);
  server = await start({ root: dir, port: 0, timeoutMs: 200, retries: 20 });
});

after(async () => {
  await server.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

function windowOptions(windowsize: number): Map<string, string> {
  return new Map([['blksize', String(BLKSIZE)], ['windowsize', String(windowsize)]]);
}

/** DATA packets allowed for a loss-free transfer: each block about once. */
const lossFree = (n: number) => Math.ceil(n * 1.1) + 64;

test('a client acknowledging every block at windowsize=64 receives each block about once', async () => {
  const g = await tftpGet(server.port, 'file.bin', { options: windowOptions(64), ackEvery: true });
  assert.equal(g.error, undefined);
  assert.equal(g.oack?.get('windowsize'), '64');
  assert.deepEqual(g.data, file);
  assert.ok(g.packets <= lossFree(blocks), `${g.packets} DATA packets for ${blocks} blocks`);
});

test('a client acknowledging each full window receives each block about once', async () => {
  const g = await tftpGet(server.port, 'file.bin', { options: windowOptions(16) });
  assert.deepEqual(g.data, file);
  assert.ok(g.packets <= lossFree(blocks), `${g.packets} DATA packets for ${blocks} blocks`);
});

test('lost DATA and lost ACKs are recovered from the first unacknowledged block', async () => {
  const lostData = new Set([3, 40, 41, 42, 300, 301, 590]);
  const lostAcks = new Set([2, 9, 20]);
  for (const ackEvery of [false, true]) {
    const g = await tftpGet(server.port, 'file.bin', {
      options: windowOptions(16), ackEvery,
      dropData: (n) => lostData.has(n), dropAck: (n) => lostAcks.has(n),
    });
    assert.equal(g.error, undefined, `ackEvery=${ackEvery}`);
    assert.deepEqual(g.data, file, `ackEvery=${ackEvery}`);
    assert.ok(g.packets > blocks, 'lost blocks were sent again');
  }
});

test('windowsize 1 (lock-step) survives lost DATA and ACKs', async () => {
  const g = await tftpGet(server.port, 'file.bin', { dropData: (n) => n % 97 === 0, dropAck: (n) => n % 89 === 0 });
  assert.deepEqual(g.data, file);
});

test('blksize and windowsize above the caps are answered with the caps (RFC 2348, RFC 7440), bounding one window', async () => {
  const asked = new Map([['blksize', '65464'], ['windowsize', '65535'], ['tsize', '0']]);
  const g = await tftpGet(server.port, 'file.bin', { options: asked });
  assert.equal(g.oack?.get('blksize'), String(TFTP_DEFAULTS.maxBlksize));
  assert.equal(g.oack?.get('windowsize'), String(TFTP_DEFAULTS.maxWindowsize));
  assert.equal(g.oack?.get('tsize'), String(file.length));
  assert.deepEqual(g.data, file);
});
