// Conformance of the Redfish emulator with sushy (Debian's python3-sushy), the client Ironic's redfish
// driver is built on: sushy_conformance.py drives every resource the driver uses and prints what it saw.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { RedfishEmulator, startRedfishEmulator } from '../../src/emulators/redfish';

const run = promisify(execFile);
const SCRIPT = resolve(__dirname, '../../../compat-tests/redfish/sushy_conformance.py');
const SYSTEM = '/redfish/v1/Systems/node-0';
const OTHER = '/redfish/v1/Systems/node-1';
const STAGED = '/redfish/v1/Systems/node-s';

type Json = Record<string, unknown>;
let emu: RedfishEmulator;
let home: string;
let seen: Json;

function ok(step: string): Json {
  const result = seen[step] as Json;
  assert.ok(result !== undefined, `step ${step} ran`);
  assert.equal((result as { error?: string }).error, undefined, `step ${step} failed in sushy`);
  return result;
}

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'redfish-sushy-'));
  emu = await startRedfishEmulator({ systems: ['node-0', 'node-1', { id: 'node-s', bootModeViaSettings: true }], auth: { username: 'admin', password: 'pa55' }, taskDurationMs: 300 });
  const { stdout } = await run('/usr/bin/python3', [SCRIPT, emu.url, 'admin', 'pa55', SYSTEM, OTHER, STAGED], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 50_000,
    maxBuffer: 4 * 1024 * 1024,
  });
  seen = JSON.parse(stdout) as Json;
});
after(async () => {
  await emu.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('sushy against the emulator', () => {
  it('service root, session path and system collection', () => {
    const root = ok('root');
    assert.equal(root.redfish_version, '1.11.0');
    assert.equal(root.sessions_path, '/redfish/v1/SessionService/Sessions');
    assert.deepEqual(seen.systems, [SYSTEM, OTHER, STAGED]);
    assert.match(String((seen.default_system as Json).error), /^UnknownDefaultError: .*not exactly one/);
    assert.match(String((seen.missing_system as Json).error), /^ResourceNotFoundError/);
  });

  it('system fields the power/management/inspect interfaces read', () => {
    const s = ok('system');
    assert.equal(s.identity, 'node-0');
    assert.equal(s.uuid, emu.system('node-0').uuid);
    assert.equal(s.power_state, 'Off');
    assert.equal(s.memory_gib, 32);
    assert.deepEqual(s.processors, [16, 'x86']);
    assert.deepEqual(s.disks, [100 * 1024 ** 3]);
    assert.deepEqual(s.nics, { [emu.system('node-0').macAddresses[0]]: 'Enabled' });
    for (const r of ['On', 'ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi', 'PushPowerButton']) {
      assert.ok((s.allowed_resets as string[]).includes(r), r);
    }
    for (const b of ['Pxe', 'Hdd', 'Cd', 'BiosSetup', 'UefiHttp', 'UsbCd']) assert.ok((s.allowed_boot_sources as string[]).includes(b), b);
  });

  it('reset_system drives the power state', () => {
    assert.deepEqual(seen.power, [
      ['On', 'On'], ['ForceRestart', 'On'], ['GracefulRestart', 'On'], ['Nmi', 'On'],
      ['ForceOff', 'Off'], ['PushPowerButton', 'On'], ['GracefulShutdown', 'Off'],
    ]);
    assert.deepEqual(emu.system('node-0').resetHistory.slice(0, 7), ['On', 'ForceRestart', 'GracefulRestart', 'Nmi', 'ForceOff', 'PushPowerButton', 'GracefulShutdown']);
  });

  it('set_system_boot_options: once (consumed at power-on), continuous, mode', () => {
    assert.deepEqual(ok('boot_once'), { set: ['Pxe', 'Once', 'UEFI'], after_power_on: 'Disabled' });
    assert.deepEqual(ok('boot_continuous'), { after_reboot: ['Hdd', 'Continuous', 'Legacy'], cd_uefi: ['Cd', 'Continuous', 'UEFI'] });
    const systemPatches = emu.requestLog.filter((r) => r.method === 'PATCH' && r.path === SYSTEM);
    assert.ok(systemPatches.every((r) => r.status === 204));
    // Boot PATCHes carry the ETag sushy read (its IndicatorLED PATCH sends none).
    assert.ok(systemPatches.filter((r) => r.ifMatch !== null).length >= 3, 'sushy sent the ETag we served');
  });

  it('set_system_boot_options splits between the system and its @Redfish.Settings object', () => {
    assert.deepEqual(ok('boot_settings_object'), { before_reset: ['Cd', 'Continuous', 'UEFI'], after_reset: ['Cd', 'Continuous', 'Legacy'] });
    assert.ok(emu.requestLog.some((r) => r.method === 'PATCH' && r.path === `${STAGED}/Settings` && r.status === 204));
  });

  it('bios attributes, pending settings applied on reset, reset_bios', () => {
    const bios = ok('bios');
    assert.equal((bios.before as Json).ProcTurboMode, 'Enabled');
    assert.deepEqual(bios.pending, { ProcTurboMode: 'Disabled', NumCores: 4 });
    assert.equal((bios.applied as Json).ProcTurboMode, 'Disabled');
    assert.equal((bios.applied as Json).NumCores, 4);
    assert.deepEqual(bios.supported_apply_times, ['OnReset']);
    assert.equal(bios.apply_time, 'OnReset');
    assert.equal((ok('bios_reset') as Json).NumCores, 8);
  });

  it('secure boot get/set and reset_keys', () => {
    assert.deepEqual(ok('secure_boot'), {
      before: [false, 'Disabled', 'DeployedMode'], after_set: [true, 'Disabled'], after_reboot: [true, 'Enabled'],
    });
  });

  it('managers and virtual media insert/eject', () => {
    const m = ok('managers');
    assert.equal(m.identity, 'BMC-node-0');
    assert.equal(m.type, 'BMC');
    assert.deepEqual(m.systems, ['node-0']);
    assert.deepEqual(m.virtual_media, [['Cd', ['CD', 'DVD'], false], ['Floppy', ['Floppy', 'USBStick'], false]]);
    const vm = ok('virtual_media');
    assert.deepEqual(vm.inserted, { image: 'http://127.0.0.1/deploy.iso', image_name: 'deploy.iso', inserted: true, write_protected: true, connected_via: 'URI' });
    assert.deepEqual(vm.ejected, { image: null, inserted: false });
    assert.equal(emu.system('node-0').virtualMedia.get('Cd')?.insertCount, 1);
  });

  it('indicator LED and chassis', () => {
    assert.equal(seen.indicator_led, 'Blinking');
    const c = ok('chassis');
    assert.deepEqual(c.collection, ['/redfish/v1/Chassis/Chassis-node-0', '/redfish/v1/Chassis/Chassis-node-1', '/redfish/v1/Chassis/Chassis-node-s']);
    assert.equal(c.type, 'RackMount');
    assert.equal(c.indicator_led, 'Blinking');
  });

  it('SimpleUpdate returns a task monitor that Ironic-style polling sees complete', () => {
    const fw = ok('firmware_update');
    assert.equal((fw.inventory as Json)['BIOS-node-0'], '1.0.0');
    assert.match(String(fw.monitor_uri), /^\/redfish\/v1\/TaskService\/TaskMonitors\/\d+$/);
    assert.equal(fw.first_processing, true);
    assert.equal(fw.still_processing, false);
    assert.equal(fw.task_state, 'Completed');
    assert.equal(fw.task_status, 'OK');
    assert.equal(fw.bios_version, '2.5.0');
    assert.equal(emu.system('node-1').biosVersion, '1.0.0');
    // Debian's python3-sushy ships without sushy/standard_registries, which Sushy.get_task_monitor loads.
    const probe = seen.root_task_monitor as Json | boolean;
    if (typeof probe !== 'boolean') assert.match(String(probe.error), /standard_registries/);
  });

  it('sessions: listing, SessionAuth logout, BasicAuth, wrong password', () => {
    const s = ok('sessions');
    assert.equal(s.enabled, true);
    assert.deepEqual(s.users, ['admin']);
    const logout = ok('session_logout');
    assert.equal(logout.token, true);
    assert.equal(logout.system, 'node-1');
    assert.equal(logout.still_listed, false);
    assert.equal(seen.basic_auth, 'Off');
    assert.match(String((seen.wrong_password as Json).error), /^AccessError: .*401/);
  });
});
