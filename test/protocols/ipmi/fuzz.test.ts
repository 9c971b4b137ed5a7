/**
 * Fuzzing: the client facing a hostile BMC must always settle with a value or a typed IpmiError:
 * never an untyped throw, a crash, a hang, or a leaked timer/socket.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IpmiClient, IpmiError, type IpmiClientOptions, type IpmiPowerClient } from '../../../src/protocols/ipmi';
import { HostileBmc, MUTATIONS, startGarbageResponder } from './hostile-bmc';
import { seededRandom } from '../seeded-random';

const OPERATIONS: Array<(c: IpmiPowerClient) => Promise<unknown>> = [
  (c) => c.getPowerState(),
  (c) => c.powerOn(),
  (c) => c.setBootDevice('pxe', { persistent: true }),
  (c) => c.getBootDevice(),
  (c) => c.getDeviceId(),
];

/** Runs one operation and classifies its outcome; a guard timer turns a hang into a failure. */
async function outcome(client: IpmiClient, op: (c: IpmiPowerClient) => Promise<unknown>, guardMs: number): Promise<string> {
  let guard: NodeJS.Timeout | undefined;
  const hang = new Promise<string>((resolve) => {
    guard = setTimeout(() => resolve('HANG'), guardMs);
  });
  try {
    return await Promise.race([
      op(client).then(
        () => 'ok',
        (err: unknown) => (err instanceof IpmiError ? err.name : `UNTYPED ${String(err)}`),
      ),
      hang,
    ]);
  } finally {
    clearTimeout(guard);
    await client.close();
  }
}

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

describe('fuzzing against hostile BMCs', () => {
  for (const seed of [1, 2, 3]) {
    it(`lanplus session setup and commands, seed ${seed}`, async (t) => {
      const rand = seededRandom(seed * 7919);
      const hostile = new HostileBmc({ seed, rate: 0.35, delayMs: 150 });
      const port = await hostile.start();
      const before = resourceCounts();
      const results = new Map<string, number>();
      const ITERATIONS = 150;
      const BATCH = 15;
      try {
        for (let i = 0; i < ITERATIONS; i += BATCH) {
          const batch = Array.from({ length: BATCH }, () => {
            const options: IpmiClientOptions = {
              address: '127.0.0.1',
              port,
              username: 'admin',
              password: 'password',
              cipherSuite: [0, 2, 3, 17][Math.floor(rand() * 4)],
              timeoutMs: 60,
              retries: Math.floor(rand() * 2),
            };
            const client = new IpmiClient(options, { pool: null });
            const op = OPERATIONS[Math.floor(rand() * OPERATIONS.length)];
            // setBootDevice is 3 requests + 5 setup exchanges, each bounded by timeout x attempts
            return outcome(client, op, 8 * 2 * 60 + 1500);
          });
          for (const r of await Promise.all(batch)) results.set(r, (results.get(r) ?? 0) + 1);
        }
      } finally {
        await hostile.stop();
      }
      t.diagnostic(`outcomes ${JSON.stringify([...results])}`);
      const bad = [...results.keys()].filter((k) => k === 'HANG' || k.startsWith('UNTYPED'));
      assert.deepEqual(bad, [], `outcomes: ${JSON.stringify([...results])}`);
      assert.ok((results.get('ok') ?? 0) > 0, 'some operations should survive');
      assert.ok(results.size > 2, `expected several error classes: ${JSON.stringify([...results])}`);
      for (const m of MUTATIONS) assert.ok((hostile.counts.get(m) ?? 0) > 0, `mutation ${m} never exercised`);
      // socket.close() releases the handle on a later tick; give it a moment before counting
      await new Promise((r) => setTimeout(r, 100));
      const after = resourceCounts();
      const counts = JSON.stringify({ before: [...before], after: [...after] });
      assert.ok((after.get('Timeout') ?? 0) <= (before.get('Timeout') ?? 0), `timers leaked ${counts}`);
      assert.ok((after.get('UDPWrap') ?? 0) < (before.get('UDPWrap') ?? 0), `sockets leaked ${counts}`);
    });
  }

  for (const protocolVersion of ['1.5', '2.0'] as const) {
    it(`garbage answers to IPMI ${protocolVersion} give typed errors`, async () => {
      const garbage = await startGarbageResponder(protocolVersion === '1.5' ? 11 : 12);
      const results = new Map<string, number>();
      try {
        for (let i = 0; i < 40; i += 10) {
          const batch = Array.from({ length: 10 }, () => {
            const client = new IpmiClient(
              { address: '127.0.0.1', port: garbage.port, username: 'admin', password: 'password', protocolVersion, timeoutMs: 50, retries: 1 },
              { pool: null },
            );
            return outcome(client, (c) => c.getPowerState(), 3000);
          });
          for (const r of await Promise.all(batch)) results.set(r, (results.get(r) ?? 0) + 1);
        }
      } finally {
        await garbage.stop();
      }
      const bad = [...results.keys()].filter((k) => k === 'ok' || k === 'HANG' || k.startsWith('UNTYPED'));
      assert.deepEqual(bad, [], `outcomes: ${JSON.stringify([...results])}`);
    });
  }
});
