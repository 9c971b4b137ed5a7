/**
 * Fuzzing: the SNMP client facing a hostile PDU (hostile-relay.ts in front of Debian's snmpd) must
 * always settle with a value or a typed SnmpError, within timeout × attempts: never an untyped
 * throw, a crash, a hang, or a leaked socket or timer.
 */
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { SnmpClient, SnmpError, type SnmpClientOptions } from '../../../src/protocols/snmp';
import { SnmpAgent, V3_AUTH_KEY, V3_PRIV_KEY, V3_USER } from '../../drivers/snmp/pdu-agent';
import { APC_OUTLET } from '../../drivers/snmp/pdu-layouts';
import { HostileRelay } from './hostile-relay';
import { seededRandom } from '../seeded-random';

/** Long enough for snmpd's pass_persist PDU under load; shorter would flood it with retransmissions. */
const TIMEOUT_MS = 400;

type Op = (c: SnmpClient) => Promise<unknown>;
const OPERATIONS: Op[] = [
  (c) => c.get(`${APC_OUTLET}.3`),
  (c) => c.setInteger(`${APC_OUTLET}.4`, 1),
  (c) => c.get('1.3.6.1.2.1.1.2.0'),
];

/** Runs one operation and classifies its outcome; a guard timer turns a hang into a failure. */
async function outcome(client: SnmpClient, op: Op, guardMs: number): Promise<string> {
  let guard: NodeJS.Timeout | undefined;
  const hang = new Promise<string>((resolve) => {
    guard = setTimeout(() => resolve('HANG'), guardMs);
  });
  try {
    return await Promise.race([
      op(client).then(() => 'ok', (err: unknown) => (err instanceof SnmpError ? err.name : `UNTYPED ${String(err)}`)),
      hang,
    ]);
  } finally {
    clearTimeout(guard);
  }
}

function udpSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'UDPWRAP').length;
}

function credentials(version: '2c' | '3', port: number, retries: number): SnmpClientOptions {
  const base = { address: '127.0.0.1', port, timeoutMs: TIMEOUT_MS, retries };
  if (version === '2c') return { ...base, version, readCommunity: 'public', writeCommunity: 'private' };
  return { ...base, version, v3: { user: V3_USER, authProtocol: 'sha', authKey: V3_AUTH_KEY, privProtocol: 'aes', privKey: V3_PRIV_KEY } };
}

describe('fuzzing the SNMP client against a hostile PDU', { timeout: 180000 }, () => {
  let agent: SnmpAgent;

  before(async () => {
    agent = new SnmpAgent();
    await agent.start();
  });

  after(async () => {
    await agent.stop();
  });

  for (const [version, seed] of [['2c', 1], ['2c', 2], ['3', 3]] as const) {
    it(`SNMPv${version} GET and SET, seed ${seed}`, async (t) => {
      const relay = new HostileRelay(agent.port, { seed, rate: 0.5, delayMs: TIMEOUT_MS * 3 });
      const port = await relay.start();
      const rand = seededRandom(seed * 7919);
      const sockets = udpSockets();
      const results = new Map<string, number>();
      const ITERATIONS = 60;
      const BATCH = 6;
      try {
        for (let i = 0; i < ITERATIONS; i += BATCH) {
          const batch = Array.from({ length: BATCH }, () => {
            const retries = Math.floor(rand() * 2);
            const client = new SnmpClient(credentials(version, port, retries));
            const op = OPERATIONS[Math.floor(rand() * OPERATIONS.length)];
            // v3 adds an engine discovery exchange; the client's own backstop adds 1 s.
            return outcome(client, op, 2 * TIMEOUT_MS * (retries + 1) + 1000 + 1500);
          });
          for (const r of await Promise.all(batch)) results.set(r, (results.get(r) ?? 0) + 1);
        }
      } finally {
        await relay.stop();
      }
      t.diagnostic(`outcomes ${JSON.stringify([...results])}; mutations ${JSON.stringify([...relay.seen])}`);
      const bad = [...results.keys()].filter((k) => k === 'HANG' || k.startsWith('UNTYPED'));
      assert.deepEqual(bad, [], `outcomes: ${JSON.stringify([...results])}`);
      assert.ok((results.get('ok') ?? 0) > 0, 'some operations get through');
      assert.ok(results.size >= 2, `expected failures too: ${JSON.stringify([...results])}`);
      assert.ok(relay.seen.size >= 8, `most mutations were tried: ${JSON.stringify([...relay.seen])}`);
      // Every session closed its socket (let late timers and closes run first).
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(udpSockets() <= sockets, `UDP sockets before ${sockets}, after ${udpSockets()}`);
    });
  }
});
