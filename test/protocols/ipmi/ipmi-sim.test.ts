/** IpmiClient and IpmitoolClient against OpenIPMI's ipmi_sim (lanplus suites 0-3 and lan 1.5). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  IpmiAuthError,
  IpmiClient,
  IpmiCompletionCodeError,
  IpmiError,
  IpmitoolClient,
  SessionPool,
  type IpmiClientOptions,
} from '../../../src/protocols/ipmi';
import { bootRoundTrip, powerRoundTrip } from './interop';
import { PASSWORD, startIpmiSim, USER, type RunningSim } from './simulators';

describe('ipmi_sim (OpenIPMI)', () => {
  let sim: RunningSim;
  const opts = (extra: Partial<IpmiClientOptions> = {}): IpmiClientOptions => ({
    address: '127.0.0.1',
    port: sim.port,
    username: USER,
    password: PASSWORD,
    timeoutMs: 500,
    retries: 2,
    ...extra,
  });

  before(async () => {
    sim = await startIpmiSim();
  });
  after(async () => {
    await sim.stop();
  });

  for (const cipherSuite of [0, 1, 2, 3]) {
    it(`lanplus cipher suite ${cipherSuite}: power set/read both ways with ipmitool`, async () => {
      const client = new IpmiClient(opts({ cipherSuite }), { pool: null });
      try {
        await powerRoundTrip(client, sim.port, { cipher: cipherSuite });
      } finally {
        await client.close();
      }
    });
  }

  it('lanplus cipher suite 3: boot device both ways, device id', async () => {
    const client = new IpmiClient(opts({ cipherSuite: 3 }), { pool: null });
    try {
      await bootRoundTrip(client, sim.port, { cipher: 3 }, { keepsFlags: false });
      const id = await client.getDeviceId();
      assert.equal(id.manufacturerId, 0x1291);
      assert.equal(id.productId, 0x0f02);
      assert.equal(id.ipmiVersion, '2.0');
    } finally {
      await client.close();
    }
  });

  it('lan (IPMI 1.5, MD5): power and boot both ways with ipmitool -I lan', async () => {
    const client = new IpmiClient(opts({ protocolVersion: '1.5' }), { pool: null });
    try {
      await powerRoundTrip(client, sim.port, { lan: true });
      await bootRoundTrip(client, sim.port, { lan: true }, { keepsFlags: false });
    } finally {
      await client.close();
    }
  });

  it('lan with only straight-password authentication allowed', async () => {
    const straight = await startIpmiSim('straight');
    const client = new IpmiClient({ ...opts({ protocolVersion: '1.5' }), port: straight.port }, { pool: null });
    try {
      await client.powerOn();
      assert.equal(await client.getPowerState(), 'on');
      const bad = new IpmiClient({ ...opts({ protocolVersion: '1.5', password: 'wrong', timeoutMs: 200, retries: 0 }), port: straight.port }, { pool: null });
      await assert.rejects(bad.getPowerState(), IpmiAuthError);
    } finally {
      await client.close();
      await straight.stop();
    }
  });

  it('cipher suite 17 is refused by ipmi_sim with a typed error', async () => {
    const client = new IpmiClient(opts({ cipherSuite: 17 }), { pool: null });
    await assert.rejects(client.getPowerState(), (err: unknown) => err instanceof IpmiError && /authentication algorithm/i.test((err as Error).message));
    await client.close();
  });

  it('unsupported commands surface the completion code and its name', async () => {
    const client = new IpmiClient(opts(), { pool: null });
    try {
      await assert.rejects(client.diagInterrupt(), (err: unknown) => err instanceof IpmiCompletionCodeError && err.code === 0xcc && err.codeName === 'Invalid Data Field in Request');
      // ipmi_sim's chassis program has no "safe" boot device
      await assert.rejects(client.setBootDevice('safe'), IpmiCompletionCodeError);
    } finally {
      await client.close();
    }
  });

  for (const protocolVersion of ['2.0', '1.5'] as const) {
    it(`wrong password (${protocolVersion}) is an auth error within the timeout budget`, async () => {
      const client = new IpmiClient(opts({ protocolVersion, password: 'wrong', timeoutMs: 300, retries: 1 }), { pool: null });
      const started = Date.now();
      await assert.rejects(client.getPowerState(), IpmiAuthError);
      // at most one exchange times out (1.5 Activate Session is dropped silently): 2 x 300 ms + slack
      assert.ok(Date.now() - started < 3000);
      await client.close();
    });
  }

  it('pooled clients share one session and close it cleanly', async () => {
    const pool = new SessionPool({ idleMs: 60_000, keepAliveMs: 0 });
    const a = new IpmiClient(opts(), { pool });
    const b = new IpmiClient(opts(), { pool });
    try {
      await a.powerOn();
      assert.equal(await b.getPowerState(), 'on');
      assert.equal(pool.size, 1);
    } finally {
      await a.close();
      await b.close();
      await pool.closeAll();
    }
    assert.equal(pool.size, 0);
  });

  describe('ipmitool-binary implementation', () => {
    it('lanplus: power and boot both ways', async () => {
      const client = new IpmitoolClient(opts({ cipherSuite: 3 }));
      await powerRoundTrip(client, sim.port, { cipher: 3 });
      await bootRoundTrip(client, sim.port, { cipher: 3 }, { keepsFlags: false });
      assert.equal((await client.getDeviceId()).manufacturerId, 0x1291);
      await client.close();
    });

    it('lan: power both ways', async () => {
      const client = new IpmitoolClient(opts({ protocolVersion: '1.5' }));
      await powerRoundTrip(client, sim.port, { lan: true });
      await client.close();
    });

    it('wrong password is an auth error; unsupported command a completion code', async () => {
      const bad = new IpmitoolClient(opts({ password: 'wrong', timeoutMs: 1000, retries: 0 }));
      await assert.rejects(bad.getPowerState(), IpmiAuthError);
      const good = new IpmitoolClient(opts());
      await assert.rejects(good.diagInterrupt(), (err: unknown) => err instanceof IpmiCompletionCodeError && err.code === 0xcc);
    });
  });
});
