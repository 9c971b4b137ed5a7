import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import type { NodeRecord } from '../../../src/db/models';
import { DriverFactory } from '../../../src/drivers/driver-factory';
import { parseSnmpDriverInfo, SNMP_PROPERTIES } from '../../../src/drivers/snmp/common';
import { pduForSystemId } from '../../../src/drivers/snmp/pdus';
import { Lab, snmpNode, startLab, withTask } from './support';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const BASE = { snmp_driver: 'apc', snmp_address: '10.0.0.1', snmp_outlet: '3', snmp_community: 'public' };

function parse(info: Record<string, unknown>): ReturnType<typeof parseSnmpDriverInfo> {
  return parseSnmpDriverInfo({ uuid: UUID, driver_info: info } as unknown as NodeRecord);
}

function rejects(info: Record<string, unknown>, name: string, message: string): void {
  assert.throws(() => parse(info), (err: Error) => {
    assert.equal(err.name, name);
    assert.equal(err.message, message);
    return true;
  });
}

describe('snmp driver_info', { timeout: 45000 }, () => {
  test('defaults: version 1, port 161, one community for read and write', () => {
    const info = parse(BASE);
    assert.deepEqual(
      { driver: info.driver, address: info.address, port: info.port, outlet: info.outlet, version: info.version,
        read: info.readCommunity, write: info.writeCommunity },
      { driver: 'apc', address: '10.0.0.1', port: 161, outlet: 3, version: '1', read: 'public', write: 'public' });
    const split = parse({ ...BASE, snmp_version: '2c', snmp_community_write: 'private', snmp_port: '1161' });
    assert.equal(split.readCommunity, 'public');
    assert.equal(split.writeCommunity, 'private');
    assert.equal(split.port, 1161);
  });

  test('missing required fields', () => {
    rejects({}, 'MissingParameterValue',
      "SNMP driver requires the following parameters to be set in node's driver_info: ['snmp_driver', 'snmp_address', 'snmp_outlet'].");
    rejects({ ...BASE, snmp_outlet: '' }, 'MissingParameterValue',
      "SNMP driver requires the following parameters to be set in node's driver_info: ['snmp_outlet'].");
  });

  test('invalid driver, version, port, outlet', () => {
    rejects({ ...BASE, snmp_driver: 'nope' }, 'InvalidParameterValue', "SNMPPowerDriver: unknown driver: 'nope'");
    rejects({ ...BASE, snmp_version: '4' }, 'InvalidParameterValue', "SNMPPowerDriver: unknown SNMP version: '4'");
    rejects({ ...BASE, snmp_port: 'abc' }, 'InvalidParameterValue', 'snmp_port "abc" is not a valid port.');
    rejects({ ...BASE, snmp_port: 0 }, 'InvalidParameterValue', 'SNMPPowerDriver: SNMP UDP port out of range: 0');
    rejects({ ...BASE, snmp_outlet: 'x1' }, 'InvalidParameterValue',
      'SNMPPowerDriver: PDU power outlet index is not an integer: x1');
  });

  test('v1/v2c need a community', () => {
    rejects({ ...BASE, snmp_community: undefined, snmp_version: '2c', snmp_community_read: 'r' }, 'MissingParameterValue',
      'SNMP driver requires `snmp_community` or `snmp_community_read`/`snmp_community_write` properties to be set for version 2c.');
  });

  test('v3 user, keys and protocols', () => {
    const v3 = { ...BASE, snmp_version: '3' };
    rejects(v3, 'MissingParameterValue',
      `SNMP driver requires \`driver_info/snmp_user\` to be set in node ${UUID} configuration for SNMP version 3.`);
    rejects({ ...v3, snmp_user: 'u', snmp_auth_protocol: 'md4' }, 'InvalidParameterValue',
      'SNMPPowerDriver: unknown SNMPv3 authentication protocol `driver_info/snmp_auth_protocol` md4 in node ' +
      `${UUID} configuration, known protocols are: md5, sha, none, sha224, sha256, sha384, sha512`);
    rejects({ ...v3, snmp_user: 'u', snmp_auth_key: 'short' }, 'InvalidParameterValue',
      `SNMPPowerDriver: short SNMPv3 authentication key \`driver_info/snmp_auth_key\` in node ${UUID} configuration (8+ chars required)`);
    rejects({ ...v3, snmp_user: 'u', snmp_priv_key: '12345678' }, 'MissingParameterValue',
      `SNMPPowerDriver: SNMPv3 privacy requires authentication. Please add \`driver_info/auth_protocol\` property to node ${UUID} configuration.`);
    rejects({ ...v3, snmp_user: 'u', snmp_auth_protocol: 'sha' }, 'MissingParameterValue',
      'SNMPPowerDriver: missing SNMPv3 authentication key while `driver_info/snmp_auth_protocol` is present. ' +
      `Please add \`driver_info/snmp_auth_key\` to node ${UUID} configuration.`);
    const ok = parse({ ...v3, snmp_security: 'legacy', snmp_auth_key: '12345678', snmp_priv_key: 'abcdefgh' });
    assert.deepEqual(ok.v3, { user: 'legacy', authProtocol: 'md5', authKey: '12345678', privProtocol: 'des', privKey: 'abcdefgh' });
  });
});

test('the snmp hardware type in the embedded configuration: defaults and properties', () => {
  const factory = new DriverFactory(new Config([], embeddedDefaults('/tmp')));
  const { defaults } = factory.describeHardwareType('snmp');
  assert.equal(defaults.power, 'snmp');
  // noop management is not enabled there; fake is SNMPHardware's other choice.
  assert.equal(defaults.management, 'fake');
  // As Ironic's SNMPHardware: the generic boot and deploy interfaces, no fake ones.
  assert.equal(defaults.boot, 'ipxe');
  assert.equal(defaults.deploy, 'direct');
  const props = factory.driverProperties('snmp');
  for (const [key, text] of Object.entries(SNMP_PROPERTIES)) assert.equal(props[key], text);
  assert.equal(Object.keys(SNMP_PROPERTIES).length, 16);
});

test('auto: the longest known sysObjectID prefix picks the PDU model', () => {
  assert.equal(pduForSystemId('1.3.6.1.4.1.318.1.1.12.3'), 'apc_rackpdu');
  assert.equal(pduForSystemId('.1.3.6.1.4.1.318.1.1.4'), 'apc_masterswitch');
  assert.equal(pduForSystemId('1.3.6.1.4.1.534.6'), 'eatonpower');
  assert.equal(pduForSystemId('1.3.6.1.4.1.3181'), undefined);
  assert.equal(pduForSystemId('1.3.6.1.4.1.318.1.1.5'), undefined);
});

describe('snmp hardware type', { timeout: 45000 }, () => {
  let lab: Lab;

  before(async () => {
    lab = await startLab();
  });

  after(async () => {
    await lab.stop();
  });

  test('picks snmp power and noop management; bad driver_info fails power validation', async () => {
    const node = await snmpNode(lab, { snmp_driver: 'apc' });
    assert.equal(node.power_interface, 'snmp');
    assert.equal(node.management_interface, 'noop');
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.validate(t)), (err: Error) =>
      err.name === 'MissingParameterValue' &&
      err.message === "SNMP driver requires the following parameters to be set in node's driver_info: ['snmp_address', 'snmp_outlet'].");
  });
});
