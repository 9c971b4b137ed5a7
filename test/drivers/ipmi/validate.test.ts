import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import type { NodeRecord } from '../../../src/db/models';
import { DriverFactory } from '../../../src/drivers/driver-factory';
import { IPMI_PROPERTIES, ipmiClientOptions, parseIpmiDriverInfo } from '../../../src/drivers/ipmi/common';
import { driverInfo, ipmiNode, Lab, startLab } from './support';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

function parse(info: Record<string, unknown>) {
  return parseIpmiDriverInfo({ uuid: UUID, driver_info: info, driver_internal_info: {} } as unknown as NodeRecord);
}

/** Each case's text was taken from Ironic 21.4.4's _parse_driver_info run on the same driver_info. */
const INVALID: Array<[Record<string, unknown>, string, string]> = [
  [{}, 'MissingParameterValue', "Missing the following IPMI credentials in node's driver_info: ['ipmi_address']."],
  [{ ipmi_address: '' }, 'MissingParameterValue', "Missing the following IPMI credentials in node's driver_info: ['ipmi_address']."],
  [{ ipmi_address: 'h', ipmi_port: 'abc' }, 'InvalidParameterValue', 'ipmi_port "abc" is not a valid port.'],
  [{ ipmi_address: 'h', ipmi_port: 70000 }, 'InvalidParameterValue', 'ipmi_port "70000" is not a valid port.'],
  [{ ipmi_address: 'h', ipmi_terminal_port: '-1' }, 'InvalidParameterValue', 'ipmi_terminal_port "-1" is not a valid port.'],
  [{ ipmi_address: 'h', ipmi_priv_level: 'admin' }, 'InvalidParameterValue',
    'Invalid privilege level value:admin, the valid value can be one of ADMINISTRATOR, CALLBACK, OPERATOR, USER'],
  [{ ipmi_address: 'h', ipmi_protocol_version: '3' }, 'InvalidParameterValue',
    'Invalid IPMI protocol version value 3, the valid value can be one of 2.0, 1.5'],
  [{ ipmi_address: 'h', ipmi_protocol_version: 2 }, 'InvalidParameterValue',
    'Invalid IPMI protocol version value 2, the valid value can be one of 2.0, 1.5'],
  [{ ipmi_address: 'h', ipmi_bridging: 'triple' }, 'InvalidParameterValue',
    "Invalid value for ipmi_bridging: triple, the valid value can be one of: ['single', 'dual', 'no']"],
  [{ ipmi_address: 'h', ipmi_bridging: 'single' }, 'MissingParameterValue', "['ipmi_target_channel', 'ipmi_target_address'] not provided"],
  [{ ipmi_address: 'h', ipmi_bridging: 'dual', ipmi_target_channel: '0', ipmi_target_address: '0x20' }, 'MissingParameterValue',
    "['ipmi_transit_channel', 'ipmi_transit_address'] not provided"],
  [{ ipmi_address: 'h', ipmi_hex_kg_key: 'abc' }, 'InvalidParameterValue', 'Number of ipmi_hex_kg_key characters is not even'],
  [{ ipmi_address: 'h', ipmi_cipher_suite: 'x' }, 'InvalidParameterValue', 'Invalid cipher suite x, expected a number'],
  [{ ipmi_address: 'h', ipmi_cipher_suite: '3', ipmi_protocol_version: '1.5' }, 'InvalidParameterValue',
    'Cipher suites cannot be used with IPMI 1.5'],
];

test('bad or missing driver_info gets Ironic\'s exceptions and texts', () => {
  for (const [info, name, message] of INVALID) {
    assert.throws(() => parse(info), { name, message }, JSON.stringify(info));
  }
});

test('good driver_info: Python int() of ports, defaults, bridging numbers, force boot device words', () => {
  assert.equal(parse({ ipmi_address: 'h', ipmi_port: '623' }).port, 623);
  assert.equal(parse({ ipmi_address: 'h', ipmi_port: 6.5 }).port, 6);
  assert.equal(parse({ ipmi_address: 'h', ipmi_terminal_port: '9001' }).terminalPort, 9001);
  const info = parse({
    ipmi_address: '10.0.0.5', ipmi_username: 'root', ipmi_password: 12345, ipmi_priv_level: 'OPERATOR', ipmi_cipher_suite: '17',
    ipmi_bridging: 'dual', ipmi_local_address: '0x20', ipmi_transit_channel: '7', ipmi_transit_address: '0x82',
    ipmi_target_channel: 0, ipmi_target_address: '0x72', ipmi_force_boot_device: 'yes', ipmi_hex_kg_key: '0a0b',
  });
  assert.deepEqual(info, {
    uuid: UUID, address: '10.0.0.5', port: null, username: 'root', password: '12345', hexKgKey: '0a0b', privLevel: 'OPERATOR',
    protocolVersion: '2.0', forceBootDevice: true, cipherSuite: 17, terminalPort: null,
    bridging: { type: 'dual', targetChannel: 0, targetAddress: 0x72, transitChannel: 7, transitAddress: 0x82, localAddress: 0x20 },
  });
  assert.deepEqual(ipmiClientOptions(info, { attemptTimeoutMs: 2000, retriesInClient: 0 }), {
    address: '10.0.0.5', port: 623, username: 'root', password: '12345', privLevel: 'operator', protocolVersion: '2.0',
    cipherSuite: 17, kgKey: '0a0b', bridging: info.bridging, timeoutMs: 2000, retries: 0,
  });
  const bare = parse({ ipmi_address: 'h', ipmi_bridging: 'no', ipmi_target_channel: 'junk' });
  assert.equal(bare.bridging, undefined);
  assert.equal(bare.username, null);
  assert.equal(bare.password, '');
  assert.equal(bare.forceBootDevice, false);
  assert.throws(() => parse({ ipmi_address: 'h', ipmi_bridging: 'single', ipmi_target_channel: 'x', ipmi_target_address: 1 }),
    { name: 'InvalidParameterValue' });
});

test('the ipmi hardware type: defaults, properties, and in the embedded configuration', () => {
  const factory = new DriverFactory(new Config([], embeddedDefaults('/tmp')));
  const { defaults, enabled } = factory.describeHardwareType('ipmi');
  assert.equal(defaults.power, 'ipmitool');
  assert.equal(defaults.management, 'ipmitool');
  assert.equal(defaults.vendor, 'ipmitool');
  assert.equal(defaults.console, 'no-console');
  assert.deepEqual(enabled.management, ['ipmitool']);
  const props = factory.driverProperties('ipmi');
  for (const [key, text] of Object.entries(IPMI_PROPERTIES)) assert.equal(props[key], text);
  assert.equal(props.ipmi_address, 'IP address or hostname of the node. Required.');
  assert.equal(Object.keys(IPMI_PROPERTIES).length, 16);
});

let lab: Lab;

before(async () => {
  lab = await startLab('native');
});

after(async () => {
  await lab.stop();
});

test('node validate: power and management pass with good driver_info, fail with Ironic\'s reason otherwise', async () => {
  const good = await ipmiNode(lab);
  const ok = await lab.svc.manager.validateDriverInterfaces(good.uuid);
  assert.equal(ok.power.result, true, JSON.stringify(ok.power));
  assert.equal(ok.management.result, true, JSON.stringify(ok.management));
  const bad = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_priv_level: 'ROOT' }));
  const failed = await lab.svc.manager.validateDriverInterfaces(bad.uuid);
  assert.equal(failed.power.result, false);
  assert.equal(failed.power.reason,
    'Invalid privilege level value:ROOT, the valid value can be one of ADMINISTRATOR, CALLBACK, OPERATOR, USER');
  assert.equal(failed.management.result, false);
});
