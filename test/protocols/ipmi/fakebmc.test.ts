/** IpmiClient and IpmitoolClient against pyghmi's BMC (lanplus, cipher suite 3 only). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IpmiAuthError, IpmiClient, IpmiError, IpmitoolClient, type IpmiClientOptions } from '../../../src/protocols/ipmi';
import { bootRoundTrip, powerRoundTrip } from './interop';
import { PASSWORD, startFakeBmc, USER, type RunningSim } from './simulators';

describe('pyghmi fakebmc', () => {
  let sim: RunningSim;
  const opts = (extra: Partial<IpmiClientOptions> = {}): IpmiClientOptions => ({
    address: '127.0.0.1',
    port: sim.port,
    username: USER,
    password: PASSWORD,
    cipherSuite: 3,
    timeoutMs: 500,
    retries: 2,
    ...extra,
  });

  before(async () => {
    sim = await startFakeBmc();
  });
  after(async () => {
    await sim.stop();
  });

  it('native lanplus cipher 3: power and boot device both ways with ipmitool', async () => {
    const client = new IpmiClient(opts(), { pool: null });
    try {
      await powerRoundTrip(client, sim.port, { cipher: 3 });
      // pyghmi answers boot flags with a fixed "valid, next boot only, legacy" byte
      await bootRoundTrip(client, sim.port, { cipher: 3 }, { keepsFlags: false });
      await client.diagInterrupt();
      await client.powerCycle();
      assert.equal(await client.getPowerState(), 'on');
      await client.softPowerOff();
      assert.equal(await client.getPowerState(), 'off');
      assert.equal((await client.getDeviceId()).ipmiVersion, '2.0');
    } finally {
      await client.close();
    }
  });

  it('cipher suite 17 is not offered by pyghmi: typed error, no hang', async () => {
    const client = new IpmiClient(opts({ cipherSuite: 17, timeoutMs: 300, retries: 0 }), { pool: null });
    await assert.rejects(client.getPowerState(), IpmiError);
    await client.close();
  });

  it('wrong password and unknown user are auth errors', async () => {
    const client = new IpmiClient(opts({ password: 'nope', timeoutMs: 300, retries: 1 }), { pool: null });
    await assert.rejects(client.getPowerState(), IpmiAuthError);
    await client.close();
    // pyghmi stays silent on RAKP 1 for an unknown user
    const ghost = new IpmiClient(opts({ username: 'ghost', timeoutMs: 200, retries: 0 }), { pool: null });
    await assert.rejects(ghost.getPowerState(), IpmiAuthError);
    await ghost.close();
  });

  it('ipmitool-binary implementation: power and boot both ways', async () => {
    const client = new IpmitoolClient(opts());
    await powerRoundTrip(client, sim.port, { cipher: 3 });
    await bootRoundTrip(client, sim.port, { cipher: 3 }, { keepsFlags: false });
    await client.close();
  });
});
