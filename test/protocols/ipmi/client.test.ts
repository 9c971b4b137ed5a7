/** IpmiClient against the in-process simulator: every cipher suite, Kg, privileges, bridging, pool. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import {
  asfPing,
  IpmiAuthError,
  IpmiClient,
  IpmiClosedError,
  IpmiCompletionCodeError,
  IpmiConfigError,
  IpmiTimeoutError,
  SessionPool,
  type IpmiClientOptions,
} from '../../../src/protocols/ipmi';
import { SimBmc } from '../../../src/protocols/ipmi/sim';
import { freeUdpPort } from './simulators';

const KG = '0123456789abcdef0123456789abcdef01234567';

describe('IpmiClient against SimBmc', () => {
  let sim: SimBmc;
  let port: number;
  const opts = (extra: Partial<IpmiClientOptions> = {}): IpmiClientOptions => ({
    address: '127.0.0.1',
    port,
    username: 'admin',
    password: 'password',
    timeoutMs: 300,
    retries: 1,
    ...extra,
  });

  before(async () => {
    sim = new SimBmc({
      users: [
        { name: 'admin', password: 'password', maxPriv: 4 },
        { name: 'viewer', password: 'secret', maxPriv: 2 },
      ],
    });
    port = await sim.start();
  });
  after(async () => {
    await sim.stop();
  });

  for (const cipherSuite of [0, 1, 2, 3, 15, 16, 17]) {
    it(`cipher suite ${cipherSuite}: power, boot flags (persistent + EFI), device id`, async () => {
      const client = new IpmiClient(opts({ cipherSuite }), { pool: null });
      try {
        await client.powerOn();
        assert.equal(sim.model.power, 'on');
        assert.equal(await client.getPowerState(), 'on');
        await client.powerOff();
        assert.equal(await client.getPowerState(), 'off');
        await client.setBootDevice('safe', { persistent: true, efi: true });
        assert.deepEqual(await client.getBootDevice(), { device: 'safe', persistent: true, efi: true });
        await client.setBootDevice('pxe');
        assert.deepEqual(await client.getBootDevice(), { device: 'pxe', persistent: false, efi: false });
        assert.deepEqual(sim.model.acks.at(-1), [0x01, 0x01]);
        assert.equal((await client.getDeviceId()).manufacturerId, 0x02a2);
      } finally {
        await client.close();
      }
    });
  }

  it('diag interrupt, cycle, reset and soft off reach the model', async () => {
    const client = new IpmiClient(opts({ cipherSuite: 17 }), { pool: null });
    try {
      const before = sim.model.diagInterrupts;
      await client.diagInterrupt();
      assert.equal(sim.model.diagInterrupts, before + 1);
      await client.powerCycle();
      assert.equal(sim.model.power, 'on');
      await client.powerReset();
      await client.softPowerOff();
      assert.equal(sim.model.power, 'off');
    } finally {
      await client.close();
    }
  });

  it('unknown user and a user over its privilege limit are auth errors', async () => {
    const ghost = new IpmiClient(opts({ username: 'ghost' }), { pool: null });
    await assert.rejects(ghost.getPowerState(), (e: unknown) => e instanceof IpmiAuthError && e.statusCode === 0x0d);
    const viewer = new IpmiClient(opts({ username: 'viewer', password: 'secret' }), { pool: null });
    await assert.rejects(viewer.getPowerState(), (e: unknown) => e instanceof IpmiAuthError && e.statusCode === 0x09);
  });

  it('user privilege can read but not control', async () => {
    const client = new IpmiClient(opts({ username: 'viewer', password: 'secret', privLevel: 'user' }), { pool: null });
    try {
      assert.equal(await client.getPowerState(), sim.model.power);
      await assert.rejects(client.powerOn(), (e: unknown) => e instanceof IpmiCompletionCodeError && e.code === 0xd4 && e.codeName === 'Insufficient Privilege Level');
    } finally {
      await client.close();
    }
  });

  it('Kg: the right key works, a wrong or missing key is an auth error', async () => {
    const kgSim = new SimBmc({ kg: Buffer.from(KG, 'hex') });
    const kgPort = await kgSim.start();
    try {
      const good = new IpmiClient(opts({ port: kgPort, kgKey: `0x${KG}`, cipherSuite: 17 }), { pool: null });
      await good.powerOn();
      assert.equal(kgSim.model.power, 'on');
      await good.close();
      const wrong = new IpmiClient(opts({ port: kgPort, kgKey: KG.replace('0', 'f') }), { pool: null });
      await assert.rejects(wrong.getPowerState(), (e: unknown) => e instanceof IpmiAuthError && /Kg/.test((e as Error).message));
      const missing = new IpmiClient(opts({ port: kgPort }), { pool: null });
      await assert.rejects(missing.getPowerState(), IpmiAuthError);
    } finally {
      await kgSim.stop();
    }
    assert.throws(() => new IpmiClient(opts({ kgKey: 'xyz' })), IpmiConfigError);
    assert.throws(() => new IpmiClient(opts({ cipherSuite: 5 })), IpmiConfigError);
  });

  for (const bridgeMode of ['embedded', 'separate'] as const) {
    it(`single and dual bridging through Send Message (BMC answers ${bridgeMode})`, async () => {
      const bridgeSim = new SimBmc({ bridgeMode });
      const bridgePort = await bridgeSim.start();
      const single = new IpmiClient(opts({ port: bridgePort, bridging: { type: 'single', targetChannel: 7, targetAddress: 0x72 } }), { pool: null });
      const dual = new IpmiClient(
        opts({ port: bridgePort, bridging: { type: 'dual', transitChannel: 0, transitAddress: 0x82, targetChannel: 7, targetAddress: 0x72 } }),
        { pool: null },
      );
      try {
        await single.powerOn();
        assert.equal(await dual.getPowerState(), 'on');
        await dual.powerOff();
        assert.equal(await single.getPowerState(), 'off');
        await dual.setBootDevice('cdrom', { persistent: true });
        assert.deepEqual(await single.getBootDevice(), { device: 'cdrom', persistent: true, efi: false });
      } finally {
        await single.close();
        await dual.close();
        await bridgeSim.stop();
      }
    });
  }

  it('pooled clients reuse one session; closeAll sends Close Session', async () => {
    const pool = new SessionPool({ keepAliveMs: 0 });
    const before = sim.responder.sessionCount;
    const a = new IpmiClient(opts(), { pool });
    const b = new IpmiClient(opts(), { pool });
    await a.getPowerState();
    await b.getPowerState();
    await Promise.all([a.getDeviceId(), b.getBootDevice(), a.getPowerState()]);
    assert.equal(sim.responder.sessionCount, before + 1);
    await a.close();
    await b.close();
    assert.equal(pool.size, 1);
    await pool.closeAll();
    assert.equal(sim.responder.sessionCount, before);
  });

  it('keep-alive pings an idle pooled session', async () => {
    const pool = new SessionPool({ keepAliveMs: 100, idleMs: 10_000 });
    const client = new IpmiClient(opts(), { pool });
    await client.getPowerState();
    const seen = sim.requestsSeen;
    await new Promise((r) => setTimeout(r, 700));
    assert.ok(sim.requestsSeen > seen, 'keep-alive traffic expected');
    await client.close();
    await pool.closeAll();
  });

  it('a session dropped by a rebooted BMC is re-established transparently', async () => {
    const rebootPort = await freeUdpPort();
    let bmc = new SimBmc({ port: rebootPort });
    await bmc.start();
    const pool = new SessionPool({ keepAliveMs: 0 });
    const client = new IpmiClient(opts({ port: rebootPort, timeoutMs: 200, retries: 0 }), { pool });
    try {
      await client.powerOn();
      await bmc.stop();
      bmc = new SimBmc({ port: rebootPort }); // forgets every session, power back to off
      await bmc.start();
      assert.equal(await client.getPowerState(), 'off');
    } finally {
      await client.close();
      await pool.closeAll();
      await bmc.stop();
    }
  });

  it('unreachable port: timeout error within the configured time', async () => {
    const dead = await freeUdpPort();
    const client = new IpmiClient(opts({ port: dead, timeoutMs: 200, retries: 2 }), { pool: null });
    const started = Date.now();
    await assert.rejects(client.getPowerState(), (e: unknown) => e instanceof IpmiTimeoutError && e.attempts === 3);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 550 && elapsed < 3000, `elapsed ${elapsed}`);
    await assert.rejects(asfPing({ address: '127.0.0.1', port: dead, timeoutMs: 100, retries: 0 }), IpmiTimeoutError);
  });

  it('close() settles an in-flight request with IpmiClosedError', async () => {
    const dead = await freeUdpPort();
    const client = new IpmiClient(opts({ port: dead, timeoutMs: 5000, retries: 5 }), { pool: null });
    const pending = client.getPowerState();
    await new Promise((r) => setTimeout(r, 50));
    await client.close();
    await assert.rejects(pending, IpmiClosedError);
    await assert.rejects(client.getPowerState(), IpmiClosedError);
  });

  it('ASF presence ping is answered', async () => {
    assert.deepEqual(await asfPing({ address: '127.0.0.1', port, timeoutMs: 300 }), { ipmiSupported: true });
  });

  it('a process using the client exits promptly after failures (no leaked handles)', async () => {
    const dead = await freeUdpPort();
    const script = `
      const { IpmiClient } = require(${JSON.stringify(require.resolve('../../../src/protocols/ipmi'))});
      (async () => {
        const pooled = new IpmiClient({ address: '127.0.0.1', port: ${port}, username: 'admin', password: 'password', timeoutMs: 200, retries: 0 });
        await pooled.getPowerState(); // leaves an idle pooled session behind on purpose
        const dead = new IpmiClient({ address: '127.0.0.1', port: ${dead}, timeoutMs: 200, retries: 0 });
        await dead.getPowerState().catch((e) => console.log(e.name));
        const bad = new IpmiClient({ address: '127.0.0.1', port: ${port}, username: 'admin', password: 'x', timeoutMs: 200, retries: 0 });
        await bad.getPowerState().catch((e) => console.log(e.name));
      })();`;
    const started = Date.now();
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['-e', script], { timeout: 15_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    assert.deepEqual(out.trim().split('\n'), ['IpmiTimeoutError', 'IpmiAuthError']);
    assert.ok(Date.now() - started < 8000);
  });
});
