// Authentication (session / basic / auto), session reuse and re-login, system id resolution, ETags.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedfishEmulator, startRedfishEmulator } from '../../../src/emulators/redfish';
import {
  AuthType, RedfishAuthError, RedfishClient, RedfishConfigError, RedfishHttpError, RedfishSystemResolutionError,
} from '../../../src/protocols/redfish';

const AUTH = { username: 'admin', password: 'secret' };

function client(emu: RedfishEmulator, authType: AuthType, password = AUTH.password, systemId: string | null = '/redfish/v1/Systems/1'): RedfishClient {
  return new RedfishClient({ address: emu.url, username: AUTH.username, password, authType, systemId, retryIntervalMs: 10, timeoutMs: 5000 });
}

describe('session auth', () => {
  let emu: RedfishEmulator;
  before(async () => {
    emu = await startRedfishEmulator({ systems: 1, auth: AUTH });
  });
  after(() => emu.stop());

  it('logs in once and reuses the session across clients of the same address and user', async () => {
    await client(emu, 'session').getSystem();
    await client(emu, 'session').getSystem();
    await client(emu, 'auto').getPowerState();
    assert.equal(emu.sessions.loginAttempts, 1);
    assert.equal(emu.sessions.sessions.size, 1);
    const systemGets = emu.requestLog.filter((r) => r.path === '/redfish/v1/Systems/1');
    assert.ok(systemGets.length >= 3);
    assert.ok(systemGets.every((r) => r.auth === 'token' && r.status === 200));
  });

  it('logs in again when the BMC forgets the session (401)', async () => {
    const c = client(emu, 'session');
    await c.getSystem();
    const attempts = emu.sessions.loginAttempts;
    emu.sessions.expireAll();
    assert.equal((await c.getSystem()).id, '1');
    assert.equal(emu.sessions.loginAttempts, attempts + 1);
  });

  it('shares one login among concurrent first requests, and a renewed session among clients', async () => {
    emu.sessions.expireAll();
    const a = client(emu, 'session');
    const b = client(emu, 'session');
    await Promise.all([a.getSystem(), a.getPowerState(), a.getIndicatorLed(), b.getSystem()]);
    const attempts = emu.sessions.loginAttempts;
    emu.sessions.expireAll();
    await a.getSystem();
    await b.getSystem();
    assert.equal(emu.sessions.loginAttempts, attempts + 1, 'b adopted the session a renewed');
    assert.equal(emu.sessions.sessions.size, 1);
  });

  it('logs in again after the BMC times an idle session out', async () => {
    const c = client(emu, 'session');
    await c.getSystem();
    const attempts = emu.sessions.loginAttempts;
    for (const s of emu.sessions.sessions.values()) s.lastUsedMs -= (emu.sessions.timeoutSec + 1) * 1000;
    assert.equal((await c.getSystem()).id, '1');
    assert.equal(emu.sessions.loginAttempts, attempts + 1);
    assert.equal(emu.sessions.sessions.size, 1, 'the timed-out session is gone');
  });

  it('does not let a wrong password ride on a cached session', async () => {
    await client(emu, 'session').getSystem();
    const err = await client(emu, 'session', 'wrong').getSystem().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishAuthError);
    assert.equal(err.status, 401);
    assert.match(err.message, /insufficient privileges/);
  });

  it('logs out with DELETE on the session resource', async () => {
    const c = client(emu, 'session');
    await c.getSystem();
    assert.equal(emu.sessions.sessions.size, 1);
    await c.logout();
    assert.equal(emu.sessions.sessions.size, 0);
    const del = emu.requestLog.filter((r) => r.method === 'DELETE').at(-1);
    assert.match(del?.path ?? '', /^\/redfish\/v1\/SessionService\/Sessions\/\d+$/);
    assert.equal(del?.status, 204);
    await c.getSystem();
    assert.equal(c.connection.authMode, 'session');
  });
});

describe('basic and auto auth', () => {
  let emu: RedfishEmulator;
  before(async () => {
    emu = await startRedfishEmulator({ systems: 1, auth: { ...AUTH, sessions: false } });
  });
  after(() => emu.stop());

  it('basic sends credentials on every request and never logs in', async () => {
    const c = client(emu, 'basic');
    await c.reset('On');
    assert.equal(emu.sessions.loginAttempts, 0);
    assert.equal(emu.requestLog.at(-1)?.auth, 'basic');
    assert.equal(c.connection.authMode, 'basic');
  });

  it('auto falls back to basic when the BMC refuses sessions', async () => {
    const c = client(emu, 'auto');
    assert.equal((await c.getSystem()).powerState, 'On');
    assert.equal(c.connection.authMode, 'basic');
    assert.equal(emu.sessions.loginAttempts, 1);
  });

  it('session-only auth reports the refused login', async () => {
    const err = await client(emu, 'session').getSystem().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishHttpError);
    assert.equal(err.status, 405);
  });

  it('a wrong password is a RedfishAuthError for basic and auto', async () => {
    await assert.rejects(client(emu, 'basic', 'nope').getSystem(), RedfishAuthError);
    await assert.rejects(client(emu, 'auto', 'nope').getSystem(), RedfishAuthError);
  });

  it('rejects an unknown auth type up front', () => {
    assert.throws(() => client(emu, 'kerberos' as AuthType), RedfishConfigError);
  });
});

describe('system id', () => {
  let one: RedfishEmulator;
  let two: RedfishEmulator;
  let none: RedfishEmulator;
  before(async () => {
    [one, two, none] = await Promise.all([
      startRedfishEmulator({ systems: ['only'], auth: AUTH }),
      startRedfishEmulator({ systems: 2, auth: AUTH }),
      startRedfishEmulator({ systems: 0, auth: AUTH }),
    ]);
  });
  after(async () => {
    await Promise.all([one.stop(), two.stop(), none.stop()]);
  });

  it('auto-detects the single member of Systems', async () => {
    assert.equal(await client(one, 'auto', AUTH.password, null).systemPath(), '/redfish/v1/Systems/only');
  });

  it('names the member count when it cannot choose', async () => {
    const err = await client(two, 'auto', AUTH.password, null).getSystem().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishSystemResolutionError);
    assert.equal(err.memberCount, 2);
    assert.match(err.message, /has 2 members/);
    await assert.rejects(client(none, 'auto', AUTH.password, null).getSystem(), /has 0 members/);
  });

  it('accepts a path or a bare id', async () => {
    assert.equal((await client(two, 'auto', AUTH.password, '/redfish/v1/Systems/2').getSystem()).id, '2');
    assert.equal((await client(two, 'auto', AUTH.password, '2').getSystem()).id, '2');
  });

  it('honours a root prefix carried by redfish_address', async () => {
    const c = new RedfishClient({ address: `${one.url}/redfish/v1`, username: AUTH.username, password: AUTH.password, systemId: null });
    assert.equal(await c.systemPath(), '/redfish/v1/Systems/only');
  });
});

describe('ETag preconditions', () => {
  let emu: RedfishEmulator;
  before(async () => {
    emu = await startRedfishEmulator({ systems: 1, auth: AUTH, requireIfMatch: true });
  });
  after(() => emu.stop());

  it('satisfies a BMC that requires If-Match', async () => {
    const c = client(emu, 'auto');
    await c.setBootOverride({ target: 'Pxe', enabled: 'Continuous' });
    await c.applyBiosAttributes({ LogicalProc: 'Disabled' });
    await c.setSecureBoot(true);
    assert.equal(emu.system('1').boot.target, 'Pxe');
    assert.deepEqual(emu.system('1').bios.pending, { LogicalProc: 'Disabled' });
    assert.equal(emu.system('1').secureBootEnable, true);
  });

  it('re-reads the ETag and retries once after 412', async () => {
    const c = client(emu, 'auto');
    const res = await c.connection.patch('/redfish/v1/Systems/1', { IndicatorLED: 'Lit' }, '"stale"');
    assert.equal(res.status, 204);
    const statuses = emu.requestLog.filter((r) => r.method === 'PATCH').slice(-2).map((r) => r.status);
    assert.deepEqual(statuses, [412, 204]);
    assert.equal(emu.system('1').indicatorLed, 'Lit');
  });
});
