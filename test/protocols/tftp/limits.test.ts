// Slot exhaustion: transfers that are opened and never acknowledged must not
// keep other clients out, whatever timeout they negotiate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { start, type TransferEvent } from '../../../src/protocols/tftp/server';
import { Opcode } from '../../../src/protocols/tftp/packets';
import { holdRequest, tftpGet, type HeldRequest } from './mini-client';

let dir: string;
const file = crypto.randomBytes(5000);

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tftp-limits-'));
  await fsp.writeFile(path.join(dir, 'file.bin'), file);
});

after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Polls until `check` holds; the deadline only stops a broken run from hanging. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 15000) assert.fail(`never happened: ${what}`);
    await sleep(50);
  }
}

/** Waits for the first packet the server sends each held request (OACK or ERROR). */
async function firstAnswers(held: HeldRequest[]): Promise<void> {
  await eventually(() => held.every((h) => h.received.length > 0), 'every held request answered');
}

const LONG_TIMEOUT = new Map([['timeout', '255'], ['tsize', '0']]);

test('one address holding transfers open (timeout=255, never ACKed) does not make another client busy; idle transfers age out', async () => {
  const events: TransferEvent[] = [];
  // Retries alone would keep these transfers for minutes; the idle cap must end them.
  const server = await start({ root: dir, port: 0, maxTransfers: 4, maxTransfersPerClient: 2, retries: 1000, idleMs: 800, onTransfer: (e) => events.push(e) });
  const held: HeldRequest[] = [];
  try {
    for (let i = 0; i < 10; i++) held.push(await holdRequest(server.port, 'file.bin', LONG_TIMEOUT));
    await firstAnswers(held);
    const oacks = held.filter((h) => h.received[0]!.op === Opcode.OACK);
    const busy = held.filter((h) => { const p = h.received[0]!; return p.op === Opcode.ERROR && /busy/i.test(p.message); });
    assert.equal(oacks.length, 2, 'one address gets its share of slots, no more');
    assert.equal(busy.length, 8);
    for (const h of oacks) {
      const p = h.received[0]!;
      assert.ok(p.op === Opcode.OACK && !p.options.has('timeout'), 'timeout=255 is declined (RFC 2349: accept as asked or leave out)');
    }

    const other = await tftpGet(server.port, 'file.bin', { bindAddress: '127.0.0.2' });
    assert.equal(other.error, undefined, `another client was refused: ${other.error?.message}`);
    assert.deepEqual(other.data, file);

    await eventually(() => server.activeTransfers() === 0, 'held transfers aged out');
    await eventually(() => events.filter((e) => e.outcome === 'idle').length === 2, 'both held transfers reported idle');
    // The holder is told why its transfer ended.
    await eventually(() => oacks.every((h) => h.received.some((p) => p.op === Opcode.ERROR)), 'an error packet ends each held transfer');
    const again = await tftpGet(server.port, 'file.bin');
    assert.deepEqual(again.data, file, 'the holder\'s address is served again once its slots are free');
  } finally {
    for (const h of held) h.close();
    await server.close();
  }
});

test('a transfer is dropped at its lifetime cap, whatever its idle and retry limits allow', async () => {
  const events: TransferEvent[] = [];
  const server = await start({ root: dir, port: 0, retries: 1000, idleMs: 60_000, lifetimeMs: 300, onTransfer: (e) => events.push(e) });
  const held = await holdRequest(server.port, 'file.bin', LONG_TIMEOUT);
  try {
    await firstAnswers([held]);
    await eventually(() => events.length > 0, 'transfer past its lifetime dropped');
    assert.deepEqual(events.map((e) => e.outcome), ['expired']);
    assert.equal(server.activeTransfers(), 0);
    await eventually(() => held.received.some((p) => p.op === Opcode.ERROR), 'error packet sent');
    const err = held.received.find((p) => p.op === Opcode.ERROR);
    assert.ok(err?.op === Opcode.ERROR && err.code === 0 && /time limit/i.test(err.message));
  } finally {
    held.close();
    await server.close();
  }
});

test('the server-wide cap still applies across addresses', async () => {
  const server = await start({ root: dir, port: 0, maxTransfers: 2, maxTransfersPerClient: 2, idleMs: 60_000 });
  const held: HeldRequest[] = [];
  try {
    held.push(await holdRequest(server.port, 'file.bin', LONG_TIMEOUT, '127.0.0.3'));
    held.push(await holdRequest(server.port, 'file.bin', LONG_TIMEOUT, '127.0.0.4'));
    await firstAnswers(held);
    const third = await tftpGet(server.port, 'file.bin', { bindAddress: '127.0.0.5' });
    assert.match(third.error?.message ?? '', /busy/i);
  } finally {
    for (const h of held) h.close();
    await server.close();
  }
});
