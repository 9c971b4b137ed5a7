/** The in-process simulator speaks real RMCP+: ipmitool drives it with cipher suites 3 and 17. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IpmiClient, IpmitoolClient, IpmiTimeoutError } from '../../../../src/protocols/ipmi';
import { SimBmc, SimBmcFarm } from '../../../../src/protocols/ipmi/sim';
import { bootRoundTrip, powerRoundTrip } from '../interop';
import { freeUdpPort, ipmitool, PASSWORD, USER } from '../simulators';

describe('SimBmc', () => {
  let sim: SimBmc;
  before(async () => {
    sim = new SimBmc({ users: [{ name: USER, password: PASSWORD, maxPriv: 4 }] });
    await sim.start();
  });
  after(async () => {
    await sim.stop();
  });

  for (const cipherSuite of [3, 17]) {
    it(`ipmitool -C ${cipherSuite} and IpmiClient agree on power and boot flags`, async () => {
      const client = new IpmiClient({ address: '127.0.0.1', port: sim.port, username: USER, password: PASSWORD, cipherSuite }, { pool: null });
      try {
        await powerRoundTrip(client, sim.port, { cipher: cipherSuite });
        await bootRoundTrip(client, sim.port, { cipher: cipherSuite }, { keepsFlags: true });
        await ipmitool(sim.port, ['chassis', 'bootdev', 'disk', 'options=persistent,efiboot'], { cipher: cipherSuite });
        assert.deepEqual(await client.getBootDevice(), { device: 'disk', persistent: true, efi: true });
      } finally {
        await client.close();
      }
    });
  }

  it('the ipmitool-binary client works against it with cipher suite 17', async () => {
    const client = new IpmitoolClient({ address: '127.0.0.1', port: sim.port, username: USER, password: PASSWORD, cipherSuite: 17 });
    await client.setBootDevice('cdrom', { persistent: true, efi: true });
    assert.deepEqual(await client.getBootDevice(), { device: 'cdrom', persistent: true, efi: true });
    await client.powerOn();
    assert.equal(sim.model.power, 'on');
    assert.deepEqual([...(await client.raw(0x00, 0x01))], [0x01, 0x00, 0x00, 0x00]);
    await client.close();
  });

  it('raw commands give the response data on both implementations', async () => {
    const native = new IpmiClient({ address: '127.0.0.1', port: sim.port, username: USER, password: PASSWORD }, { pool: null });
    const data = await native.raw(0x06, 0x01);
    assert.equal(data.length, 15);
    await native.close();
  });

  it('the ipmitool-binary client times out on a dead port within its limit', async () => {
    const dead = await freeUdpPort();
    const client = new IpmitoolClient({ address: '127.0.0.1', port: dead, username: USER, password: PASSWORD, timeoutMs: 1000, retries: 0, commandTimeoutMs: 1500 });
    const started = Date.now();
    await assert.rejects(client.getPowerState(), IpmiTimeoutError);
    assert.ok(Date.now() - started < 4000);
  });

  it('Kg reaches ipmitool as -y and the native client as kgKey', async () => {
    const kg = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const kgSim = new SimBmc({ kg: Buffer.from(kg, 'hex') });
    const port = await kgSim.start();
    try {
      const viaBinary = new IpmitoolClient({ address: '127.0.0.1', port, username: 'admin', password: 'password', cipherSuite: 17, kgKey: kg });
      await viaBinary.powerOn();
      const native = new IpmiClient({ address: '127.0.0.1', port, username: 'admin', password: 'password', cipherSuite: 3, kgKey: kg }, { pool: null });
      assert.equal(await native.getPowerState(), 'on');
      await native.close();
    } finally {
      await kgSim.stop();
    }
  });

  it('ipmitool -b/-t (single) and -B/-T (dual) bridging reach the target', async () => {
    // ipmitool handles an embedded answer for single bridging only; dual needs separate packets
    for (const [bridgeMode, type] of [['embedded', 'single'], ['separate', 'single'], ['separate', 'dual']] as const) {
      const bridgeSim = new SimBmc({ bridgeMode });
      const port = await bridgeSim.start();
      const bridging = { type, transitChannel: 0, transitAddress: 0x82, targetChannel: 7, targetAddress: 0x72 };
      try {
        const client = new IpmitoolClient({ address: '127.0.0.1', port, username: USER, password: PASSWORD, cipherSuite: 17, bridging });
        await client.powerOn();
        assert.equal(await client.getPowerState(), 'on', `${bridgeMode} ${type}`);
        assert.equal(bridgeSim.model.power, 'on');
      } finally {
        await bridgeSim.stop();
      }
    }
  });

  it('a farm of BMCs keeps independent state', async () => {
    const farm = new SimBmcFarm();
    const ports = await farm.start(50, {}, 25);
    try {
      assert.equal(new Set(ports).size, 50);
      const onPorts = ports.filter((_, i) => i % 2 === 0);
      await Promise.all(
        onPorts.map(async (port) => {
          const client = new IpmiClient({ address: '127.0.0.1', port, username: 'admin', password: 'password', cipherSuite: 17 }, { pool: null });
          await client.powerOn();
          await client.close();
        }),
      );
      assert.deepEqual(
        farm.bmcs.map((b) => b.model.power),
        ports.map((_, i) => (i % 2 === 0 ? 'on' : 'off')),
      );
      assert.ok(farm.bmcs.every((b) => b.responder.sessionCount === 0), 'clients closed their sessions');
    } finally {
      await farm.stop();
    }
  });
});
