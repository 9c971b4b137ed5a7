// The Redfish BMC emulator over raw HTTP: resources, links, errors, auth, ETags and its state models.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedfishEmulator, startRedfishEmulator } from '../../../src/emulators/redfish';

const AUTH = { username: 'root', password: 'calvin' };
const BASIC = `Basic ${Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64')}`;

type Json = Record<string, unknown>;
let emu: RedfishEmulator;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: Json | null }> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { Authorization: BASIC, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Json) : null };
}

function extendedInfo(json: Json | null): Json[] {
  const error = (json?.error ?? {}) as Json;
  return (error['@Message.ExtendedInfo'] ?? []) as Json[];
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

before(async () => {
  emu = await startRedfishEmulator({ systems: ['a', 'b', 'c'], auth: AUTH, gracefulShutdownDelayMs: 50, taskDurationMs: 50 });
});
after(() => emu.stop());

describe('resources and links', () => {
  it('serves the service root anonymously', async () => {
    const root = await call('GET', '/redfish/v1/', undefined, { Authorization: '' });
    assert.equal(root.status, 200);
    assert.equal(root.json?.['@odata.id'], '/redfish/v1/');
    assert.match(String(root.json?.['@odata.type']), /^#ServiceRoot\./);
    assert.equal(root.headers.get('odata-version'), '4.0');
    assert.deepEqual((await call('GET', '/redfish', undefined, { Authorization: '' })).json, { v1: '/redfish/v1/' });
  });

  it('every link reachable from the root resolves to a resource with that @odata.id and a type', async () => {
    const seen = new Set<string>();
    const queue = ['/redfish/v1/'];
    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await call('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.json?.['@odata.id'], path);
      assert.match(String(res.json?.['@odata.type']), /^#\w+\.(v\d+_\d+_\d+\.)?\w+$/, path);
      assert.ok(res.headers.get('etag'), `ETag on ${path}`);
      collectLinks(res.json, queue);
    }
    for (const expected of [
      '/redfish/v1/Systems/c', '/redfish/v1/Systems/a/Bios', '/redfish/v1/Systems/a/Bios/Settings', '/redfish/v1/Systems/b/SecureBoot',
      '/redfish/v1/Managers/BMC-a/VirtualMedia/Cd', '/redfish/v1/Chassis/Chassis-c', '/redfish/v1/UpdateService/FirmwareInventory/BMC-b',
      '/redfish/v1/TaskService/Tasks', '/redfish/v1/SessionService/Sessions', '/redfish/v1/Systems/a/EthernetInterfaces/NIC1', '/redfish/v1/Systems/c/SimpleStorage/1',
    ]) {
      assert.ok(seen.has(expected), `crawl reached ${expected}`);
    }
  });

  it('lists exactly the configured systems, managers and chassis', async () => {
    const members = async (p: string): Promise<unknown[]> => ((await call('GET', p)).json?.Members as Json[]).map((m) => m['@odata.id']);
    assert.deepEqual(await members('/redfish/v1/Systems'), ['/redfish/v1/Systems/a', '/redfish/v1/Systems/b', '/redfish/v1/Systems/c']);
    assert.equal((await members('/redfish/v1/Managers')).length, 3);
    assert.equal((await members('/redfish/v1/Chassis')).length, 3);
  });
});

function collectLinks(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectLinks(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '@odata.id' && typeof v === 'string') out.push(v);
      else if (k !== 'Actions') collectLinks(v, out);
    }
  }
}

describe('errors', () => {
  it('404 with a Redfish error body', async () => {
    const res = await call('GET', '/redfish/v1/Systems/zzz');
    assert.equal(res.status, 404);
    const info = extendedInfo(res.json);
    assert.equal(info[0].MessageId, 'Base.1.8.ResourceMissingAtURI');
    assert.match(String(info[0].Message), /\/redfish\/v1\/Systems\/zzz/);
    assert.equal((await call('GET', '/redfish/v1/Nope/x/y')).status, 404);
  });

  it('405 with Allow for a wrong method', async () => {
    const res = await call('DELETE', '/redfish/v1/Systems/a');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, PATCH');
    assert.equal((await call('PATCH', '/redfish/v1/Systems/a/Bios', { Attributes: {} })).status, 405);
  });

  it('400 for malformed JSON, unknown properties and bad values', async () => {
    const bad = await call('PATCH', '/redfish/v1/Systems/a', '{"Boot": ');
    assert.equal(bad.status, 400);
    assert.equal(extendedInfo(bad.json)[0].MessageId, 'Base.1.8.MalformedJSON');
    assert.equal((await call('PATCH', '/redfish/v1/Systems/a', { PowerState: 'On' })).status, 400);
    const value = await call('PATCH', '/redfish/v1/Systems/a', { Boot: { BootSourceOverrideTarget: 'Tape' } });
    assert.equal(value.status, 400);
    assert.deepEqual(extendedInfo(value.json)[0].RelatedProperties, ['#/Boot/BootSourceOverrideTarget']);
  });

  it('413 for an oversized body', async () => {
    const res = await call('PATCH', '/redfish/v1/Systems/a', { AssetTag: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(res.status, 413);
  });
});

describe('auth and sessions', () => {
  it('401 without credentials, with a Basic challenge', async () => {
    const res = await call('GET', '/redfish/v1/Systems', undefined, { Authorization: '' });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic/);
    assert.equal((await call('GET', '/redfish/v1/Systems', undefined, { Authorization: 'Basic eDp5' })).status, 401);
  });

  it('creates a session with X-Auth-Token and Location, and DELETE logs out', async () => {
    const login = await call('POST', '/redfish/v1/SessionService/Sessions', { UserName: 'root', Password: 'calvin' }, { Authorization: '' });
    assert.equal(login.status, 201);
    const token = login.headers.get('x-auth-token') ?? '';
    const location = login.headers.get('location') ?? '';
    assert.ok(token.length >= 32);
    assert.equal(login.json?.['@odata.id'], location);
    const withToken = { Authorization: '', 'X-Auth-Token': token };
    assert.equal((await call('GET', '/redfish/v1/Systems', undefined, withToken)).status, 200);
    assert.equal((await call('DELETE', location, undefined, withToken)).status, 204);
    assert.equal((await call('GET', '/redfish/v1/Systems', undefined, withToken)).status, 401);
    const wrong = await call('POST', '/redfish/v1/SessionService/Sessions', { UserName: 'root', Password: 'x' }, { Authorization: '' });
    assert.equal(wrong.status, 401);
  });
});

describe('ETags', () => {
  it('PATCH with a stale If-Match is 412; the current (even weak) ETag succeeds', async () => {
    const got = await call('GET', '/redfish/v1/Systems/b');
    const etag = got.headers.get('etag') ?? '';
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b', { IndicatorLED: 'Lit' }, { 'If-Match': '"nope"' })).status, 412);
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b', { IndicatorLED: 'Lit' }, { 'If-Match': `W/${etag}` })).status, 204);
    const changed = await call('GET', '/redfish/v1/Systems/b');
    assert.notEqual(changed.headers.get('etag'), etag);
  });
});

describe('power and boot model', () => {
  const reset = (id: string, type: string) => call('POST', `/redfish/v1/Systems/${id}/Actions/ComputerSystem.Reset`, { ResetType: type });

  it('GracefulShutdown takes the configured delay; ForceOff is immediate', async () => {
    const s = emu.system('c');
    assert.equal((await reset('c', 'On')).status, 204);
    assert.equal(s.powerState, 'On');
    await reset('c', 'GracefulShutdown');
    assert.equal(s.powerState, 'On', 'still on while the OS shuts down');
    assert.equal(s.transitionPending, true);
    await until(() => !s.transitionPending, 'graceful shutdown');
    assert.equal(s.powerState, 'Off');
    await reset('c', 'On');
    await reset('c', 'ForceOff');
    assert.equal(s.powerState, 'Off');
    const bad = await reset('c', 'Explode');
    assert.equal(bad.status, 400);
    assert.equal(extendedInfo(bad.json)[0].MessageId, 'Base.1.8.PropertyValueNotInList');
  });

  it('a Once override is consumed by the next power-on; Continuous stays', async () => {
    const s = emu.system('a');
    await call('PATCH', '/redfish/v1/Systems/a', { Boot: { BootSourceOverrideTarget: 'Cd', BootSourceOverrideEnabled: 'Once' } });
    await reset('a', 'On');
    assert.equal(s.boot.enabled, 'Disabled');
    assert.equal(s.bootHistory.at(-1), 'Cd');
    await reset('a', 'ForceRestart');
    assert.equal(s.bootHistory.at(-1), 'Hdd');
    await call('PATCH', '/redfish/v1/Systems/a', { Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Continuous' } });
    await reset('a', 'ForceRestart');
    await reset('a', 'PushPowerButton');
    await reset('a', 'PushPowerButton');
    assert.deepEqual(s.bootHistory.slice(-2), ['Pxe', 'Pxe']);
    assert.equal(s.boot.enabled, 'Continuous');
  });

  it('BIOS settings apply on the next reset; mismatched types are refused', async () => {
    const s = emu.system('b');
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b/Bios/Settings', { Attributes: { NumCores: 'four' } })).status, 400);
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b/Bios/Settings', { Attributes: { NumCores: 2 } })).status, 204);
    assert.equal(s.bios.current.NumCores, 8);
    await reset('b', 'On');
    assert.equal(s.bios.current.NumCores, 2);
    const bios = await call('GET', '/redfish/v1/Systems/b/Bios');
    assert.ok((bios.json?.['@Redfish.Settings'] as Json).Time);
  });

  it('secure boot cannot be enabled in Legacy mode', async () => {
    await call('PATCH', '/redfish/v1/Systems/b', { Boot: { BootSourceOverrideMode: 'Legacy' } });
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b/SecureBoot', { SecureBootEnable: true })).status, 409);
    await call('PATCH', '/redfish/v1/Systems/b', { Boot: { BootSourceOverrideMode: 'UEFI' } });
    assert.equal((await call('PATCH', '/redfish/v1/Systems/b/SecureBoot', { SecureBootEnable: true })).status, 204);
  });
});

describe('virtual media', () => {
  const base = '/redfish/v1/Managers/BMC-b/VirtualMedia/Cd';
  it('InsertMedia/EjectMedia actions, refusing to stack media', async () => {
    assert.equal((await call('POST', `${base}/Actions/VirtualMedia.InsertMedia`, { Image: 'http://127.0.0.1/x.iso' })).status, 204);
    const vm = await call('GET', base);
    assert.equal(vm.json?.Inserted, true);
    assert.equal(vm.json?.ImageName, 'x.iso');
    assert.equal(vm.json?.ConnectedVia, 'URI');
    assert.equal((await call('POST', `${base}/Actions/VirtualMedia.InsertMedia`, { Image: 'http://127.0.0.1/y.iso' })).status, 409);
    assert.equal((await call('POST', `${base}/Actions/VirtualMedia.EjectMedia`)).status, 204);
    assert.equal((await call('GET', base)).json?.Image, null);
    assert.equal((await call('POST', `${base}/Actions/VirtualMedia.InsertMedia`, {})).status, 400);
  });

  it('accepts the PATCH style of older firmware', async () => {
    assert.equal((await call('PATCH', base, { Image: 'https://127.0.0.1/z.iso', Inserted: true })).status, 204);
    assert.equal(emu.system('b').virtualMedia.get('Cd')?.image, 'https://127.0.0.1/z.iso');
    assert.equal((await call('PATCH', base, { Image: null, Inserted: false })).status, 204);
    assert.equal(emu.system('b').virtualMedia.get('Cd')?.inserted, false);
  });
});

describe('tasks and firmware update', () => {
  it('SimpleUpdate answers 202 with a task monitor that turns 200 when done', async () => {
    const res = await call('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate', {
      ImageURI: 'http://127.0.0.1/bmc-3.1.0.bin', TransferProtocol: 'HTTP', Targets: ['/redfish/v1/Managers/BMC-c'],
    });
    assert.equal(res.status, 202);
    const monitor = res.headers.get('location') ?? '';
    assert.match(monitor, /^\/redfish\/v1\/TaskService\/TaskMonitors\/\d+$/);
    const running = await call('GET', monitor);
    assert.equal(running.status, 202);
    assert.equal(running.json?.TaskState, 'Running');
    const taskPath = String(running.json?.['@odata.id']);
    assert.equal((await call('GET', taskPath)).status, 200);
    await until(() => emu.system('c').bmcFirmwareVersion === '3.1.0', 'firmware update');
    const done = await call('GET', monitor);
    assert.equal(done.status, 200);
    assert.equal(done.json?.TaskState, 'Completed');
    assert.equal((await call('GET', '/redfish/v1/UpdateService/FirmwareInventory/BMC-c')).json?.Version, '3.1.0');
    assert.equal((await call('GET', '/redfish/v1/Managers/BMC-c')).json?.FirmwareVersion, '3.1.0');
  });

  it('refuses unknown targets and missing images', async () => {
    const action = '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate';
    assert.equal((await call('POST', action, { ImageURI: 'http://h/x.bin', Targets: ['/redfish/v1/Systems/zzz'] })).status, 400);
    assert.equal((await call('POST', action, {})).status, 400);
    assert.equal((await call('POST', action, { ImageURI: 'http://h/x.bin', TransferProtocol: 'PIGEON' })).status, 400);
  });
});
