// RedfishClient against the emulator: every operation the Ironic redfish interfaces need.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedfishEmulator, startRedfishEmulator } from '../../../src/emulators/redfish';
import {
  RedfishBadRequestError, RedfishClient, RedfishClientOptions, RedfishHttpError, RedfishTaskError, RedfishTaskTimeoutError,
  RedfishUnsupportedError,
} from '../../../src/protocols/redfish';

let emu: RedfishEmulator;

function client(extra: Partial<RedfishClientOptions> = {}): RedfishClient {
  return new RedfishClient({
    address: emu.url,
    username: 'admin',
    password: 'secret',
    systemId: '/redfish/v1/Systems/node-1',
    retryIntervalMs: 10,
    timeoutMs: 5000,
    taskPollIntervalMs: 20,
    ...extra,
  });
}

before(async () => {
  emu = await startRedfishEmulator({
    systems: ['node-1', 'node-2', { id: 'staged', bootModeViaSettings: true }],
    auth: { username: 'admin', password: 'secret' },
    taskDurationMs: 100,
  });
});
after(async () => {
  await emu.stop();
});

describe('power', () => {
  it('reads the system and powers it on, off and reboots it', async () => {
    const c = client();
    const info = await c.getSystem();
    assert.equal(info.path, '/redfish/v1/Systems/node-1');
    assert.equal(info.id, 'node-1');
    assert.equal(info.powerState, 'Off');
    assert.ok(info.allowedResetTypes.includes('GracefulRestart'));
    assert.deepEqual(info.managerPaths, ['/redfish/v1/Managers/BMC-node-1']);
    await c.reset('On');
    assert.equal(await c.getPowerState(), 'On');
    await c.reset('ForceRestart');
    assert.equal(emu.system('node-1').powerState, 'On');
    await c.reset('GracefulRestart');
    await c.reset('Nmi');
    await c.reset('ForceOff');
    assert.equal(await c.getPowerState(), 'Off');
    await c.reset('PushPowerButton');
    assert.equal(await c.getPowerState(), 'On');
    await c.reset('GracefulShutdown');
    assert.equal(await c.getPowerState(), 'Off');
    assert.deepEqual(emu.system('node-1').resetHistory, ['On', 'ForceRestart', 'GracefulRestart', 'Nmi', 'ForceOff', 'PushPowerButton', 'GracefulShutdown']);
    assert.equal(emu.system('node-1').nmiCount, 1);
    assert.equal(emu.system('node-2').powerState, 'Off', 'the other system is untouched');
  });

  it('refuses a reset type the BMC does not list, without calling it', async () => {
    const c = client();
    const before = emu.system('node-1').resetHistory.length;
    await assert.rejects(c.reset('Bogus' as 'On'), RedfishUnsupportedError);
    assert.equal(emu.system('node-1').resetHistory.length, before);
  });

  it('maps a BMC refusal to a typed error carrying @Message.ExtendedInfo', async () => {
    const c = client();
    emu.system('node-1').powerState = 'Off';
    const err = await c.reset('Nmi').then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishHttpError);
    assert.equal(err.status, 409);
    assert.equal(err.messages[0].messageId, 'Base.1.8.ActionNotSupported');
    assert.match(err.message, /not supported while the system is powered off/);
  });
});

describe('boot override', () => {
  it('sets a one-time PXE boot that the BMC consumes at the next power-on', async () => {
    const c = client();
    await c.setBootOverride({ target: 'Pxe', enabled: 'Once', mode: 'UEFI' });
    const boot = (await c.getSystem()).boot;
    assert.equal(boot.target, 'Pxe');
    assert.equal(boot.enabled, 'Once');
    assert.equal(boot.mode, 'UEFI');
    assert.ok(boot.allowableTargets.includes('BiosSetup'));
    emu.system('node-1').powerState = 'Off';
    await c.reset('On');
    const after = (await c.getSystem()).boot;
    assert.equal(after.enabled, 'Disabled');
    assert.equal(emu.system('node-1').bootHistory.at(-1), 'Pxe');
  });

  it('keeps a persistent override across reboots and switches to Legacy', async () => {
    const c = client();
    await c.setBootOverride({ target: 'Hdd', enabled: 'Continuous', mode: 'Legacy' });
    await c.reset('ForceRestart');
    await c.reset('ForceRestart');
    const boot = (await c.getSystem()).boot;
    assert.deepEqual([boot.target, boot.enabled, boot.mode], ['Hdd', 'Continuous', 'Legacy']);
    await c.setBootOverride({ target: 'Cd', mode: 'UEFI' });
    assert.deepEqual(emu.system('node-1').boot, { target: 'Cd', enabled: 'Continuous', mode: 'UEFI' });
  });

  it('writes the boot mode to the pending settings object when the BMC keeps it there', async () => {
    const c = client({ systemId: 'staged' });
    const staged = emu.system('staged');
    await c.setBootOverride({ target: 'Pxe', enabled: 'Once', mode: 'Legacy' });
    assert.deepEqual(staged.boot, { target: 'Pxe', enabled: 'Once', mode: 'UEFI' });
    assert.equal(staged.pendingBootMode, 'Legacy');
    await c.reset('On');
    assert.deepEqual(staged.boot, { target: 'Pxe', enabled: 'Disabled', mode: 'Legacy' });
    assert.equal(staged.bootHistory.at(-1), 'Pxe');
  });

  it('sends If-Match with the ETag of the system on PATCH', async () => {
    const c = client();
    await c.setBootOverride({ target: 'BiosSetup' });
    const patch = emu.requestLog.filter((r) => r.method === 'PATCH' && r.path === '/redfish/v1/Systems/node-1').at(-1);
    assert.ok(patch?.ifMatch, 'If-Match sent');
    assert.equal(patch.status, 204);
  });

  it('refuses targets outside BootSourceOverrideTarget@Redfish.AllowableValues', async () => {
    const c = client();
    emu.system('node-1').allowableBootTargets = ['None', 'Pxe', 'Hdd'];
    try {
      await assert.rejects(c.setBootOverride({ target: 'UefiHttp' }), RedfishUnsupportedError);
    } finally {
      emu.system('node-1').allowableBootTargets.push('Cd', 'BiosSetup', 'UefiHttp', 'UsbCd');
    }
  });
});

describe('secure boot and indicator LED', () => {
  it('reads and toggles SecureBootEnable; current boot follows at the next boot', async () => {
    const c = client();
    emu.system('node-1').boot.mode = 'UEFI';
    assert.equal((await c.getSecureBoot()).enabled, false);
    await c.setSecureBoot(true);
    let sb = await c.getSecureBoot();
    assert.equal(sb.enabled, true);
    assert.equal(sb.currentBoot, 'Disabled');
    await c.reset('ForceRestart');
    sb = await c.getSecureBoot();
    assert.equal(sb.currentBoot, 'Enabled');
    await c.setSecureBoot(false);
    assert.equal(emu.system('node-1').secureBootEnable, false);
  });

  it('reads and sets the indicator LED', async () => {
    const c = client();
    await c.setIndicatorLed('Blinking');
    assert.equal(await c.getIndicatorLed(), 'Blinking');
    assert.equal(emu.system('node-1').indicatorLed, 'Blinking');
  });
});

describe('virtual media', () => {
  it('lists, inserts into the CD drive and ejects', async () => {
    const c = client();
    const devices = await c.listVirtualMedia();
    assert.deepEqual(devices.map((d) => d.id), ['Cd', 'Floppy']);
    const used = await c.insertVirtualMedia('CD', 'http://127.0.0.1/deploy.iso');
    assert.equal(used, '/redfish/v1/Managers/BMC-node-1/VirtualMedia/Cd');
    const cd = emu.system('node-1').virtualMedia.get('Cd');
    assert.equal(cd?.image, 'http://127.0.0.1/deploy.iso');
    assert.equal(cd?.inserted, true);
    assert.equal(cd?.writeProtected, true);
    // Inserting the same image again is a no-op, as in Ironic.
    await c.insertVirtualMedia('DVD', 'http://127.0.0.1/deploy.iso');
    assert.equal(cd?.insertCount, 1);
    await assert.rejects(c.insertVirtualMedia('CD', 'http://127.0.0.1/other.iso'), RedfishUnsupportedError);
    await c.insertVirtualMedia('USBStick', 'http://127.0.0.1/config.img', { writeProtected: false });
    assert.equal(emu.system('node-1').virtualMedia.get('Floppy')?.writeProtected, false);
    assert.deepEqual(await c.ejectVirtualMedia('CD'), ['/redfish/v1/Managers/BMC-node-1/VirtualMedia/Cd']);
    assert.equal(cd?.inserted, false);
    assert.deepEqual(await c.ejectVirtualMedia(), ['/redfish/v1/Managers/BMC-node-1/VirtualMedia/Floppy']);
    assert.deepEqual(await c.ejectVirtualMedia(), []);
  });

  it('reports a BMC-rejected image as a bad request with the BMC message', async () => {
    const c = client();
    const err = await c.insertVirtualMedia('CD', 'gopher://nowhere/x.iso').then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishBadRequestError);
    assert.equal(err.messages[0].messageId, 'Base.1.8.PropertyValueNotInList');
    assert.deepEqual(err.messages[0].relatedProperties, ['#/Image']);
  });
});

describe('bios', () => {
  it('stages attributes in Bios/Settings and applies them at the next reset', async () => {
    const c = client();
    const bios = await c.getBios();
    assert.equal(bios.attributes.ProcTurboMode, 'Enabled');
    assert.equal(bios.settingsPath, '/redfish/v1/Systems/node-1/Bios/Settings');
    assert.deepEqual(bios.supportedApplyTimes, ['OnReset']);
    await c.applyBiosAttributes({ ProcTurboMode: 'Disabled', NumCores: 4 });
    const staged = await c.getBios();
    assert.equal(staged.attributes.ProcTurboMode, 'Enabled');
    assert.deepEqual(staged.pendingAttributes, { ProcTurboMode: 'Disabled', NumCores: 4 });
    await c.reset('ForceRestart');
    const applied = await c.getBios();
    assert.equal(applied.attributes.ProcTurboMode, 'Disabled');
    assert.equal(applied.attributes.NumCores, 4);
    assert.deepEqual(applied.pendingAttributes, {});
    await c.resetBiosToDefaults();
    await c.reset('ForceRestart');
    assert.equal((await c.getBios()).attributes.ProcTurboMode, 'Enabled');
  });

  it('surfaces the BMC text for an unknown attribute', async () => {
    const c = client();
    const err = await c.applyBiosAttributes({ NoSuchKnob: 'x' }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishBadRequestError);
    assert.match(err.message, /NoSuchKnob is not in the list of valid properties/);
  });
});

describe('firmware', () => {
  it('lists the inventory and runs SimpleUpdate as a task', async () => {
    const c = client();
    const inventory = await c.getFirmwareInventory();
    const bios = inventory.find((f) => f.id === 'BIOS-node-1');
    assert.equal(bios?.version, '1.0.0');
    const op = await c.simpleUpdate({ imageUri: 'http://127.0.0.1/bios-1.4.2.bin', targets: ['/redfish/v1/Systems/node-1'] });
    assert.ok(op.monitorUri);
    const result = await c.waitForTask(op.monitorUri, 10_000);
    assert.equal(result.taskState, 'Completed');
    assert.equal(result.taskStatus, 'OK');
    assert.equal((await c.getSystem()).biosVersion, '1.4.2');
    assert.equal(emu.system('node-2').biosVersion, '1.0.0');
  });

  it('raises RedfishTaskError when the task ends in Exception', async () => {
    const c = client();
    const op = await c.simpleUpdate({ imageUri: 'http://127.0.0.1/fail-me.bin', targets: ['/redfish/v1/Systems/node-1'] });
    assert.ok(op.monitorUri);
    const err = await c.waitForTask(op.monitorUri, 10_000).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof RedfishTaskError);
    assert.equal(err.taskState, 'Exception');
    assert.match(err.message, /failed verification/);
  });

  it('gives up at the deadline with RedfishTaskTimeoutError', async () => {
    const c = client();
    emu.settings.taskDurationMs = 60_000;
    try {
      const op = await c.simpleUpdate({ imageUri: 'https://127.0.0.1/bmc-9.9.bin', targets: ['/redfish/v1/Managers/BMC-node-2'] });
      assert.ok(op.monitorUri);
      await assert.rejects(c.waitForTask(op.monitorUri, 150), RedfishTaskTimeoutError);
    } finally {
      emu.settings.taskDurationMs = 100;
    }
  });
});
