import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import { DriverFactory } from '../../../src/drivers/driver-factory';
import type { NodeRecord } from '../../../src/db/models';
import { parseRedfishDriverInfo, redfishClientOptions } from '../../../src/drivers/redfish/common';
import { driverInfo, Lab, redfishNode, startLab } from './support';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const conf = new Config([], { redfish: { auth_type: 'session', connection_attempts: 3, connection_retry_interval: 2 } });

function parse(info: Record<string, unknown>) {
  return parseRedfishDriverInfo({ uuid: UUID, driver_info: info } as unknown as NodeRecord, conf);
}

test('missing redfish_address is a MissingParameterValue naming the node', () => {
  for (const info of [{}, { redfish_address: '' }, { redfish_address: null }]) {
    assert.throws(() => parse(info), {
      name: 'MissingParameterValue',
      message: `Missing the following Redfish properties in node ${UUID} driver_info: ['redfish_address']`,
    });
  }
});

test('invalid values get Ironic\'s InvalidParameterValue texts', () => {
  assert.throws(() => parse({ redfish_address: 'not a url' }), {
    name: 'InvalidParameterValue',
    message: `Invalid Redfish address https://not a url set in driver_info/redfish_address on node ${UUID}`,
  });
  assert.throws(() => parse({ redfish_address: 'h', redfish_verify_ca: 'maybe' }), {
    name: 'InvalidParameterValue',
    message: `Invalid value type set in driver_info/redfish_verify_ca on node ${UUID}. The value should be a Boolean or the path to a file/directory, not "maybe"`,
  });
  assert.throws(() => parse({ redfish_address: 'h', redfish_verify_ca: 5 }), { message: /not "5"$/ });
  assert.throws(() => parse({ redfish_address: 'h', redfish_auth_type: 'digest' }), {
    name: 'InvalidParameterValue',
    message: `Invalid value "digest" set in driver_info/redfish_auth_type on node ${UUID}. The value should be one of "basic", "session" or "auto".`,
  });
  assert.throws(() => parse({ redfish_address: 'h', redfish_system_id: 12 }), {
    name: 'InvalidParameterValue',
    message: `Invalid value "12" set in driver_info/redfish_system_id on node ${UUID}. The value should be a path (string) to the resource that the driver will interact with. For example: /redfish/v1/Systems/1`,
  });
});

test('good driver_info: https assumed, auth type from [redfish], verify_ca words and paths, retry options', () => {
  const info = parse({ redfish_address: 'bmc.example:8443/custom/v1', redfish_username: 'u', redfish_password: 'p', redfish_verify_ca: 'False' });
  assert.deepEqual(info, {
    address: 'https://bmc.example:8443/custom/v1', systemId: null, username: 'u', password: 'p', verifyCa: false, authType: 'session',
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redfish-ca-'));
  try {
    assert.equal(parse({ redfish_address: 'h', redfish_verify_ca: dir }).verifyCa, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(parse({ redfish_address: '::1' }).address, 'https://[::1]');
  const opts = redfishClientOptions(info, conf);
  assert.equal(opts.connectionAttempts, 3);
  assert.equal(opts.retryIntervalMs, 2000);
});

let lab: Lab;
before(async () => {
  lab = await startLab();
});
after(async () => {
  await lab.stop();
});

test('node validate: power and management pass with good driver_info, fail with the reason otherwise', async () => {
  const good = await redfishNode(lab);
  const ok = await lab.svc.api.validateDriverInterfaces(good.uuid);
  assert.deepEqual(ok.power, { result: true });
  assert.deepEqual(ok.management, { result: true });
  assert.deepEqual(ok.bios, { result: true });
  assert.deepEqual(ok.boot, {
    result: false,
    reason: "Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
  });
  const bad = await redfishNode(lab, { redfish_username: 'x' });
  const res = await lab.svc.api.validateDriverInterfaces(bad.uuid);
  const reason = `Missing the following Redfish properties in node ${bad.uuid} driver_info: ['redfish_address']`;
  assert.deepEqual(res.power, { result: false, reason });
  assert.deepEqual(res.management, { result: false, reason });
  const iso = await redfishNode(lab, driverInfo(lab.bmc, { deploy_iso: 'http://127.0.0.1/ipa.iso' }));
  assert.deepEqual((await lab.svc.api.validateDriverInterfaces(iso.uuid)).boot, { result: true });
});

test('driver defaults for a redfish node', async () => {
  const node = await redfishNode(lab);
  assert.equal(node.power_interface, 'redfish');
  assert.equal(node.management_interface, 'redfish');
  assert.equal(node.bios_interface, 'redfish');
  assert.equal(node.boot_interface, 'redfish-virtual-media');
  const props = await lab.svc.api.getDriverProperties('redfish');
  assert.match(props.redfish_address, /^The URL address to the Redfish controller/);
  assert.match(props.deploy_iso, /^URL or Glance UUID of the deployment ISO/);
});

test('the embedded default enables redfish with a valid default for every interface', () => {
  const factory = new DriverFactory(new Config([], embeddedDefaults(os.tmpdir())));
  assert.ok(factory.hardwareTypeNames.includes('redfish'));
  const { defaults } = factory.describeHardwareType('redfish');
  assert.deepEqual(
    [defaults.power, defaults.management, defaults.boot, defaults.bios, defaults.inspect, defaults.deploy],
    // As Ironic's RedfishHardware: the generic network boots before virtual media, no fake deploy.
    ['redfish', 'redfish', 'ipxe', 'redfish', 'redfish', 'direct'],
  );
  assert.ok(Object.values(defaults).every((d) => d !== null), JSON.stringify(defaults));
});
