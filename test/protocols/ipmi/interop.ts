/** Round trips shared by the simulator tests: what one side sets, the other side reads back. */
import assert from 'node:assert/strict';
import type { IpmiPowerClient } from '../../../src/protocols/ipmi';
import { ipmitool } from './simulators';

export interface CliOptions {
  lan?: boolean;
  cipher?: number;
}

export async function powerRoundTrip(client: IpmiPowerClient, port: number, cli: CliOptions): Promise<void> {
  await client.powerOn();
  assert.match(await ipmitool(port, ['power', 'status'], cli), /Chassis Power is on/);
  assert.equal(await client.getPowerState(), 'on');
  await ipmitool(port, ['power', 'off'], cli);
  assert.equal(await client.getPowerState(), 'off');
  await ipmitool(port, ['power', 'on'], cli);
  assert.equal(await client.getPowerState(), 'on');
  await client.powerOff();
  assert.match(await ipmitool(port, ['power', 'status'], cli), /Chassis Power is off/);
}

export interface BootExpectations {
  /** The simulator stores the persistent and EFI bits of boot flags. */
  keepsFlags: boolean;
}

export async function bootRoundTrip(client: IpmiPowerClient, port: number, cli: CliOptions, expect: BootExpectations): Promise<void> {
  await client.setBootDevice('pxe', { persistent: true, efi: true });
  const shown = await ipmitool(port, ['chassis', 'bootparam', 'get', '5'], cli);
  assert.match(shown, /Boot Device Selector : Force PXE/);
  if (expect.keepsFlags) {
    assert.match(shown, /Options apply to all future boots/);
    assert.match(shown, /BIOS EFI boot/);
  }
  const pxe = await client.getBootDevice();
  assert.equal(pxe.device, 'pxe');
  assert.equal(pxe.persistent, expect.keepsFlags);
  assert.equal(pxe.efi, expect.keepsFlags);

  await ipmitool(port, ['chassis', 'bootdev', 'cdrom'], cli);
  const cdrom = await client.getBootDevice();
  assert.equal(cdrom.device, 'cdrom');
  assert.equal(cdrom.persistent, false);

  await client.setBootDevice('disk');
  assert.match(await ipmitool(port, ['chassis', 'bootparam', 'get', '5'], cli), /Force Boot from default Hard-Drive/);
  await client.setBootDevice('bios');
  assert.equal((await client.getBootDevice()).device, 'bios');
}
