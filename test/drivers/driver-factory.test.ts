import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Config } from '../../src/conf/config';
import { DriverFactory } from '../../src/drivers/driver-factory';
import {
  DriverNotFound, IncompatibleInterface, InterfaceNotFoundInEntrypoint, NoValidDefaultForInterface,
} from '../../src/common/errors';
import type { NodeRecord } from '../../src/db/models';
import { ALL_FAKE } from '../conductor/support';

/** ALL_FAKE with manual-management too: it has no boot or deploy default there, which is what some cases need. */
function factory(extra: Record<string, unknown> = {}): DriverFactory {
  return new DriverFactory(new Config([], {
    DEFAULT: { ...ALL_FAKE, enabled_hardware_types: ['fake-hardware', 'manual-management'], ...extra } as never,
  }));
}

function node(fields: Partial<NodeRecord>): NodeRecord {
  return { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', driver: 'fake-hardware', instance_info: {}, ...fields } as NodeRecord;
}

test('fake-hardware defaults are the first enabled supported implementation of each kind', () => {
  const n = node({});
  assert.equal(factory().checkAndUpdateNodeInterfaces(n), true);
  assert.deepEqual(
    [n.bios_interface, n.boot_interface, n.console_interface, n.deploy_interface, n.inspect_interface,
      n.management_interface, n.network_interface, n.power_interface, n.raid_interface, n.rescue_interface,
      n.storage_interface, n.vendor_interface, n.firmware_interface],
    ['fake', 'fake', 'fake', 'fake', 'fake', 'fake', 'flat', 'fake', 'fake', 'fake', 'noop', 'fake', 'no-firmware']);
  const driver = factory().buildDriver(n);
  assert.equal(driver.power.name, 'fake');
  assert.equal(driver.hardwareType, 'fake-hardware');
});

test('explicit default_<kind>_interface wins; an incompatible one has no valid default', () => {
  const n = node({});
  factory({ default_network_interface: 'noop' }).checkAndUpdateNodeInterfaces(n);
  assert.equal(n.network_interface, 'noop');
  const mm = node({ driver: 'manual-management' });
  assert.throws(() => factory({ default_bios_interface: 'fake' }).checkAndUpdateNodeInterfaces(mm), (err: Error) => {
    assert.ok(err instanceof NoValidDefaultForInterface);
    assert.match(err.message, /^For node 1be26c0b-03f2-4d2e-ae87-c02d7f33c123 with hardware type 'manual-management', no default value found for bios interface/);
    return true;
  });
});

test('a disabled implementation is InterfaceNotFoundInEntrypoint with the enabled list', () => {
  assert.throws(() => factory().checkAndUpdateNodeInterfaces(node({ deploy_interface: 'direct' })), (err: Error) => {
    assert.ok(err instanceof InterfaceNotFoundInEntrypoint);
    assert.equal(err.message, "Could not find the following interface in the 'ironic.hardware.interfaces.deploy' " +
      "entrypoint: direct. Valid interfaces are ['fake'].");
    return true;
  });
});

test('an enabled implementation the hardware type does not support is IncompatibleInterface', () => {
  const r = factory();
  assert.throws(() => r.getInterface(r.hardwareType('manual-management'), 'inspect', 'fake'),
    (err: Error) => {
      assert.ok(err instanceof IncompatibleInterface);
      assert.equal(err.message, "inspect interface implementation 'FakeInspect' is not supported by hardware type ManualManagementHardware.");
      return true;
    });
});

test('unknown or disabled hardware types are DriverNotFound', () => {
  assert.throws(() => factory().buildDriver(node({ driver: 'ipmi' })), DriverNotFound);
  assert.throws(() => factory({ enabled_hardware_types: ['manual-management'] }).driverProperties('fake-hardware'), {
    message: 'Could not find the following driver(s) or hardware type(s): fake-hardware.',
  });
});

test('power/management unset: enabled is each hardware type\'s first choice', () => {
  const r = factory({ enabled_power_interfaces: null, enabled_management_interfaces: null });
  assert.deepEqual(r.enabledInterfaces('power'), ['fake']); // agent (manual-management's first) is not in this build
  assert.deepEqual(r.enabledInterfaces('management'), ['fake', 'noop']);
});

test('driver properties merge the default implementations; detail lists enabled and defaults', () => {
  const r = factory();
  assert.deepEqual(r.driverProperties('fake-hardware'), { B1: 'B1 description. Required.', B2: 'B2 description. Required.' });
  const d = r.describeHardwareType('manual-management');
  assert.deepEqual(d.enabled.management, ['noop', 'fake']);
  assert.equal(d.defaults.management, 'noop');
  assert.equal(d.defaults.boot, null);
  const rows = factory({ enabled_hardware_types: ['fake-hardware'] }).conductorInterfaceRows('c1');
  assert.ok(rows.some((x) => x.hardware_type === 'fake-hardware' && x.interface_type === 'power' && x.interface_name === 'fake' && x.default));
  assert.ok(Object.keys(r.raidLogicalDiskProperties('fake-hardware')).includes('raid_level'));
});

test('a conductor whose hardware type has no valid default, or has no hardware type, cannot register', () => {
  assert.throws(() => factory().conductorInterfaceRows('c1'), (err: Error) => {
    assert.ok(err instanceof NoValidDefaultForInterface);
    assert.equal(err.message, "For hardware type 'manual-management', no default value found for boot interface could be " +
      'determined. Please ensure the interfaces are enabled.');
    return true;
  });
  assert.throws(() => factory({ enabled_hardware_types: ['ipmi'], default_deploy_interface: 'fake' }).conductorInterfaceRows('c1'),
    /For hardware type 'ipmi', no default value found for /);
  assert.throws(() => factory({ enabled_hardware_types: ['no-such-type'] }).conductorInterfaceRows('c1'), {
    message: 'Conductor c1 cannot be started because no hardware types were loaded.',
  });
});
