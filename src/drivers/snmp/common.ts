/**
 * How the snmp power interface reaches a node's PDU (drivers/modules/snmp.py): driver_info parsed
 * and validated with Ironic's messages and order, the client timed by [snmp]udp_transport_*, and
 * protocol failures turned into SNMPFailure.
 */
import { timeBmc } from '../../metrics/prometheus';
import { InvalidParameterValue, MissingParameterValue, SNMPFailure } from '../../common/errors';
import { log } from '../../common/log';
import { pyInt } from '../../common/python/int';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import { pyTruthy } from '../../common/python/truthiness';
import type { Config } from '../../conf/config';
import type { NodeRecord } from '../../db/models';
import * as snmp from '../../protocols/snmp';
import { PDU_DRIVER_NAMES } from './pdus';
import { lookupTable } from '../../common/own-keys';

const VERSIONS = ['1', '2c', '3'];
const DEFAULT_PORT = 161;
/** Ironic's (pysnmp's) protocol names, in the order its messages list them. */
const AUTH_PROTOCOLS = ['md5', 'sha', 'none', 'sha224', 'sha256', 'sha384', 'sha512'];
const PRIV_PROTOCOLS = ['des', '3des', 'aes', 'aes192', 'aes256', 'none', 'aes192blmt', 'aes256blmt'];
/** The subset net-snmp speaks. */
const CLIENT_PRIV_PROTOCOLS = ['none', 'des', 'aes'];

const REQUIRED_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  snmp_driver: 'PDU manufacturer driver.  Required.',
  snmp_address: 'PDU IPv4 address or hostname.  Required.',
  snmp_outlet: 'PDU power outlet index (1-based).  Required.',
});

const OPTIONAL_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  snmp_version: 'SNMP protocol version: 1, 2c or 3  (optional, default 1).',
  snmp_port: `SNMP port, default ${DEFAULT_PORT}.`,
  snmp_community: 'SNMP community name to use for read and/or write class SNMP commands unless ' +
    '`snmp_community_read` and/or `snmp_community_write` properties are present in which case the latter ' +
    'takes over. Applicable only to versions 1 and 2c.',
  snmp_community_read: 'SNMP community name to use for read class SNMP commands. Takes precedence over the ' +
    '`snmp_community` property. Applicable only to versions 1 and 2c.',
  snmp_community_write: 'SNMP community name to use for write class SNMP commands. Takes precedence over the ' +
    '`snmp_community` property. Applicable only to versions 1 and 2c.',
  snmp_user: 'SNMPv3 User-based Security Model (USM) username. Required for version 3.',
  snmp_auth_protocol: `SNMPv3 message authentication protocol ID. Known values are: ${pyRepr([...AUTH_PROTOCOLS].sort())}. ` +
    "Default is 'none' unless 'snmp_auth_key' is provided. In the latter case 'md5' is the default.",
  snmp_auth_key: 'SNMPv3 message authentication key. Must be 8+ characters long. Required when message ' +
    "authentication is used. This key is used by the 'snmp_auth_protocol' algorithm.",
  snmp_priv_protocol: `SNMPv3 message privacy (encryption) protocol ID. Known values are: ${pyRepr([...PRIV_PROTOCOLS].sort())}. ` +
    "Using message privacy requires using message authentication. Default is 'none' unless 'snmp_priv_key' is " +
    "provided. In the latter case 'des' is the default.",
  snmp_priv_key: 'SNMPv3 message authentication key. Must be 8+ characters long. Required when message ' +
    "authentication is used. This key is used by the 'snmp_priv_protocol' algorithm.",
  snmp_context_engine_id: 'SNMPv3 context engine ID. Default is the value of authoritative engine ID.',
  snmp_context_name: "SNMPv3 context name. Default is an empty string ('').",
});

const DEPRECATED_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  snmp_security: 'SNMPv3 User-based Security Model (USM) username. Required for version 3. This property is ' +
    'deprecated, please use `snmp_user` instead.',
});

/** COMMON_PROPERTIES: what /v1/drivers/snmp/properties reports for power. */
export const SNMP_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  ...REQUIRED_PROPERTIES, ...OPTIONAL_PROPERTIES, ...DEPRECATED_PROPERTIES,
});

export interface SnmpDriverInfo {
  uuid: string;
  driver: string;
  address: string;
  port: number;
  outlet: number;
  version: snmp.SnmpVersion;
  readCommunity?: string;
  writeCommunity?: string;
  v3?: snmp.SnmpV3Credentials;
}

/** utils.validate_network_port, then the driver's own 1..65535 check. */
function parsePort(value: unknown): number {
  const port = pyInt(value);
  if (port === null || port < 0 || port > 65535) {
    throw new InvalidParameterValue(`snmp_port "${pyStr(value)}" is not a valid port.`);
  }
  if (port < 1) throw new InvalidParameterValue(`SNMPPowerDriver: SNMP UDP port out of range: ${port}`);
  return port;
}

function parseCommunities(info: Record<string, unknown>, version: string): { read: string; write: string } {
  const read = info.snmp_community_read ?? info.snmp_community;
  const write = info.snmp_community_write ?? info.snmp_community;
  if (!pyTruthy(read) || !pyTruthy(write)) {
    throw new MissingParameterValue('SNMP driver requires `snmp_community` or `snmp_community_read`/' +
      `\`snmp_community_write\` properties to be set for version ${version}.`);
  }
  return { read: pyStr(read), write: pyStr(write) };
}

/** _parse_driver_info_snmpv3_user. */
function parseV3User(uuid: string, info: Record<string, unknown>): string {
  if (!('snmp_user' in info) && !('snmp_security' in info)) {
    throw new MissingParameterValue('SNMP driver requires `driver_info/snmp_user` to be set in node ' +
      `${uuid} configuration for SNMP version 3.`);
  }
  if ('snmp_security' in info) {
    log.warning('The `driver_info/snmp_security` parameter is deprecated in favor of `driver_info/snmp_user` ' +
      `parameter. Please remove the \`driver_info/snmp_security\` parameter from node ${uuid} configuration.`);
  }
  return pyStr('snmp_user' in info ? info.snmp_user : info.snmp_security);
}

function knownProtocol(info: Record<string, unknown>, key: string, known: string[], what: string, uuid: string): string | undefined {
  if (!Object.hasOwn(info, key)) return undefined;
  const proto = info[key];
  if (typeof proto !== 'string' || !known.includes(proto)) {
    throw new InvalidParameterValue(`SNMPPowerDriver: unknown SNMPv3 ${what} protocol \`driver_info/${key}\` ` +
      `${pyStr(proto)} in node ${uuid} configuration, known protocols are: ${known.join(', ')}`);
  }
  return proto;
}

/** _parse_driver_info_snmpv3_crypto: protocols, keys (8+ chars) and their defaults, in Ironic's order. */
function parseV3Crypto(uuid: string, info: Record<string, unknown>): Omit<snmp.SnmpV3Credentials, 'user'> {
  let authProtocol = knownProtocol(info, 'snmp_auth_protocol', AUTH_PROTOCOLS, 'authentication', uuid);
  let privProtocol = knownProtocol(info, 'snmp_priv_protocol', PRIV_PROTOCOLS, 'privacy', uuid);
  let authKey: string | undefined;
  let privKey: string | undefined;
  if ('snmp_auth_key' in info) {
    authKey = pyStr(info.snmp_auth_key);
    if (authKey.length < 8) {
      throw new InvalidParameterValue('SNMPPowerDriver: short SNMPv3 authentication key `driver_info/snmp_auth_key` ' +
        `in node ${uuid} configuration (8+ chars required)`);
    }
    authProtocol ??= 'md5';
  }
  if ('snmp_priv_key' in info) {
    privKey = pyStr(info.snmp_priv_key);
    if (privKey.length < 8) {
      throw new InvalidParameterValue('SNMPPowerDriver: short SNMPv3 privacy key `driver_info/snmp_priv_key` ' +
        `node ${uuid} configuration (8+ chars required)`);
    }
    privProtocol ??= 'des';
  }
  if (privProtocol !== undefined && authProtocol === undefined) {
    throw new MissingParameterValue('SNMPPowerDriver: SNMPv3 privacy requires authentication. Please add ' +
      `\`driver_info/auth_protocol\` property to node ${uuid} configuration.`);
  }
  if (authProtocol !== undefined && authKey === undefined) {
    throw new MissingParameterValue('SNMPPowerDriver: missing SNMPv3 authentication key while ' +
      '`driver_info/snmp_auth_protocol` is present. Please add `driver_info/snmp_auth_key` to node ' +
      `${uuid} configuration.`);
  }
  if (privProtocol !== undefined && privKey === undefined) {
    throw new MissingParameterValue('SNMPPowerDriver: missing SNMPv3 privacy key while ' +
      '`driver_info/snmp_priv_protocol` is present. Please add `driver_info/snmp_priv_key` to node ' +
      `${uuid} configuration.`);
  }
  return {
    ...(authProtocol ? { authProtocol: authProtocol as snmp.SnmpAuthProtocol, authKey } : {}),
    ...(privProtocol ? { privProtocol: privProtocol as snmp.SnmpPrivProtocol, privKey } : {}),
  };
}

function parseOutlet(value: unknown): number {
  const outlet = pyInt(typeof value === 'number' ? Math.trunc(value) : value);
  if (outlet === null) {
    throw new InvalidParameterValue(`SNMPPowerDriver: PDU power outlet index is not an integer: ${pyStr(value)}`);
  }
  return outlet;
}

/** _parse_driver_info: MissingParameterValue / InvalidParameterValue with Ironic's texts, in its order. */
export function parseSnmpDriverInfo(node: NodeRecord): SnmpDriverInfo {
  const info = (node.driver_info ?? {}) as Record<string, unknown>;
  const missing = Object.keys(REQUIRED_PROPERTIES).filter((k) => !pyTruthy(info[k]));
  if (missing.length > 0) {
    throw new MissingParameterValue(`SNMP driver requires the following parameters to be set in node's driver_info: ${pyRepr(missing)}.`);
  }
  const driver = info.snmp_driver;
  if (typeof driver !== 'string' || !PDU_DRIVER_NAMES.includes(driver)) {
    throw new InvalidParameterValue(`SNMPPowerDriver: unknown driver: '${pyStr(driver)}'`);
  }
  const version = 'snmp_version' in info ? info.snmp_version : '1';
  if (typeof version !== 'string' || !VERSIONS.includes(version)) {
    throw new InvalidParameterValue(`SNMPPowerDriver: unknown SNMP version: '${pyStr(version)}'`);
  }
  const port = parsePort('snmp_port' in info ? info.snmp_port : DEFAULT_PORT);
  const parsed: SnmpDriverInfo = { uuid: node.uuid, driver, address: '', port, outlet: 0, version: version as snmp.SnmpVersion };
  if (version === '3') {
    const user = parseV3User(node.uuid, info);
    const crypto = parseV3Crypto(node.uuid, info);
    const contextName = 'snmp_context_name' in info ? pyStr(info.snmp_context_name) : undefined;
    parsed.v3 = { user, ...crypto, ...(contextName === undefined ? {} : { contextName }) };
  } else {
    const { read, write } = parseCommunities(info, version);
    parsed.readCommunity = read;
    parsed.writeCommunity = write;
  }
  parsed.address = pyStr(info.snmp_address);
  parsed.outlet = parseOutlet(info.snmp_outlet);
  return parsed;
}

/** A client for the node's PDU, each request bounded by [snmp]udp_transport_timeout × (retries + 1). */
export function createSnmpClient(conf: Config, info: SnmpDriverInfo): snmp.SnmpClient {
  const priv = info.v3?.privProtocol;
  if (priv !== undefined && !CLIENT_PRIV_PROTOCOLS.includes(priv)) {
    throw new InvalidParameterValue(`SNMPPowerDriver: SNMPv3 privacy protocol ${priv} is not supported by ` +
      `ironic-ts, use one of: ${CLIENT_PRIV_PROTOCOLS.join(', ')}`);
  }
  return new snmp.SnmpClient({
    address: info.address,
    port: info.port,
    version: info.version,
    readCommunity: info.readCommunity,
    writeCommunity: info.writeCommunity,
    v3: info.v3,
    timeoutMs: Math.max(1, Math.round(conf.int('snmp', 'udp_transport_timeout') * 1000)),
    retries: Math.max(0, conf.int('snmp', 'udp_transport_retries')),
  });
}

/** SNMPClient.get/set error handling: protocol errors become SNMPFailure(operation, error). */
export async function snmpCall<T>(operation: 'GET' | 'SET', work: () => Promise<T>): Promise<T> {
  try {
    return await timeBmc('snmp', work);
  } catch (err) {
    if (err instanceof snmp.SnmpError) throw new SNMPFailure({ operation, error: err.message });
    throw err;
  }
}
