/**
 * How every ipmitool interface reaches a node's BMC (drivers/modules/ipmitool.py): driver_info
 * parsed and validated with Ironic's messages, the client chosen by [ipmi]use_ipmitool_binary
 * (built-in RMCP+ client or Debian's ipmitool), commands spaced by [ipmi]min_command_interval,
 * retried and bounded by [ipmi]command_retry_timeout, and failures turned into IPMIFailure.
 */
import { validateNetworkPort } from '../network-port';
import { boolFromString } from '../../common/python/bool-from-string';
import { IPMIFailure, InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import { pyInt } from '../../common/python/int';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import { pyTruthy } from '../../common/python/truthiness';
import type { Config } from '../../conf/config';
import type { NodeRecord } from '../../db/models';
import * as ipmi from '../../protocols/ipmi';
import type { DriverTask } from '../base';
import { lookupTable } from '../../common/own-keys';
import { setTimeout as sleep } from 'node:timers/promises';

const VALID_PRIV_LEVELS = ['ADMINISTRATOR', 'CALLBACK', 'OPERATOR', 'USER'];
const VALID_PROTO_VERSIONS = ['2.0', '1.5'];
const BRIDGING_TYPES = ['single', 'dual'];

const REQUIRED_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  ipmi_address: 'IP address or hostname of the node. Required.',
});

const OPTIONAL_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  ipmi_password: 'password. Optional.',
  ipmi_hex_kg_key: 'Kg key for IPMIv2 authentication. The key is expected in hexadecimal format. Optional.',
  ipmi_port: 'remote IPMI RMCP port. Optional.',
  ipmi_priv_level: `privilege level; default is ADMINISTRATOR. One of ${VALID_PRIV_LEVELS.join(', ')}. Optional.`,
  ipmi_username: 'username; default is NULL user. Optional.',
  ipmi_bridging: 'bridging_type; default is "no". One of "single", "dual", "no". Optional.',
  ipmi_transit_channel: 'transit channel for bridged request. Required only if ipmi_bridging is set to "dual".',
  ipmi_transit_address: 'transit address for bridged request. Required only if ipmi_bridging is set to "dual".',
  ipmi_target_channel: 'destination channel for bridged request. Required only if ipmi_bridging is set to "single" or "dual".',
  ipmi_target_address: 'destination address for bridged request. Required only if ipmi_bridging is set to "single" or "dual".',
  ipmi_local_address: 'local IPMB address for bridged requests. Used only if ipmi_bridging is set to "single" or "dual". Optional.',
  ipmi_protocol_version: 'the version of the IPMI protocol; default is "2.0". One of "1.5", "2.0". Optional.',
  ipmi_force_boot_device: 'Whether Ironic should specify the boot device to the BMC each time the server is turned on, ' +
    'eg. because the BMC is not capable of remembering the selected boot device across power cycles; default value ' +
    'is False. Optional.',
  ipmi_disable_boot_timeout: 'By default ironic will send a raw IPMI command to disable the 60 second timeout for ' +
    'booting. Setting this option to False will NOT send that command on this node. The [ipmi]disable_boot_timeout ' +
    'will be used if this option is not set. Optional.',
  ipmi_cipher_suite: 'The number of a cipher suite to use. Only 3 (AES-128 with SHA1) or 17 (AES-128 with SHA256) ' +
    'should ever be used; 17 is preferred. The default value depends on the ipmitool version, some recent versions ' +
    'have switched from 3 to 17.',
});

/** COMMON_PROPERTIES: what power, management and vendor report in /v1/drivers/ipmi/properties. */
export const IPMI_PROPERTIES: Readonly<Record<string, string>> = lookupTable({ ...REQUIRED_PROPERTIES, ...OPTIONAL_PROPERTIES });

/** Substrings of errors worth another attempt (IPMITOOL_RETRYABLE_FAILURES). */
const RETRYABLE_FAILURES = ['insufficient resources for session', 'Node busy', 'Timeout', 'Out of space',
  'BMC initialization in progress'];

export interface IpmiDriverInfo {
  uuid: string;
  address: string;
  port: number | null;
  username: string | null;
  password: string;
  hexKgKey: string | null;
  privLevel: string;
  protocolVersion: ipmi.ProtocolVersion;
  bridging: ipmi.BridgingOptions | undefined;
  forceBootDevice: boolean;
  cipherSuite: number | null;
  /** driver_info ipmi_terminal_port, else the port the console allocated (driver_internal_info). */
  terminalPort: number | null;
}


/** ipmitool reads bridging numbers with strtol base 0: decimal, 0x hex or 0 octal. */
function bridgingNumber(value: unknown, name: string): number {
  const text = typeof value === 'number' ? String(value) : pyStr(value).trim();
  let parsed = NaN;
  if (/^0x[0-9a-f]+$/i.test(text)) parsed = parseInt(text.slice(2), 16);
  else if (/^0[0-7]+$/.test(text)) parsed = parseInt(text.slice(1), 8);
  else if (/^\d+$/.test(text)) parsed = parseInt(text, 10);
  if (!Number.isInteger(parsed) || parsed > 0xff) {
    throw new InvalidParameterValue(`Invalid value for ${name}: ${pyStr(value)}, expected a number from 0 to 255`);
  }
  return parsed;
}

function parseBridging(info: Record<string, unknown>): ipmi.BridgingOptions | undefined {
  const type = 'ipmi_bridging' in info ? info.ipmi_bridging : 'no';
  if (type === 'no') return undefined;
  if (typeof type !== 'string' || !BRIDGING_TYPES.includes(type)) {
    throw new InvalidParameterValue(`Invalid value for ipmi_bridging: ${pyStr(type)}, the valid value can be one of: ` +
      pyRepr([...BRIDGING_TYPES, 'no']));
  }
  const wanted = ['ipmi_target_channel', 'ipmi_target_address'];
  if (type === 'dual') wanted.push('ipmi_transit_channel', 'ipmi_transit_address');
  const undefinedParams = wanted.filter((k) => info[k] === undefined || info[k] === null);
  if (undefinedParams.length > 0) throw new MissingParameterValue(`${pyRepr(undefinedParams)} not provided`);
  const num = (key: string): number => bridgingNumber(info[key], key);
  const local = info.ipmi_local_address;
  return {
    type: type as 'single' | 'dual',
    targetChannel: num('ipmi_target_channel'),
    targetAddress: num('ipmi_target_address'),
    transitChannel: type === 'dual' ? num('ipmi_transit_channel') : undefined,
    transitAddress: type === 'dual' ? num('ipmi_transit_address') : undefined,
    localAddress: local === undefined || local === null ? undefined : num('ipmi_local_address'),
  };
}

function parseKg(raw: unknown): string | null {
  if (!pyTruthy(raw)) return null;
  const key = pyStr(raw);
  if (key.length % 2 !== 0) throw new InvalidParameterValue('Number of ipmi_hex_kg_key characters is not even');
  try {
    ipmi.parseKgKey(key);
  } catch {
    throw new InvalidParameterValue(`Invalid ipmi_hex_kg_key: up to 40 hexadecimal characters are expected`);
  }
  return key;
}

function parseCipherSuite(raw: unknown, protocolVersion: string): number | null {
  if (raw === undefined || raw === null) return null;
  const suite = pyInt(raw);
  if (suite === null) throw new InvalidParameterValue(`Invalid cipher suite ${pyStr(raw)}, expected a number`);
  if (protocolVersion === '1.5') throw new InvalidParameterValue('Cipher suites cannot be used with IPMI 1.5');
  return suite;
}

/** _parse_driver_info: MissingParameterValue / InvalidParameterValue with Ironic's texts, in its order. */
export function parseIpmiDriverInfo(node: NodeRecord): IpmiDriverInfo {
  const info = (node.driver_info ?? {}) as Record<string, unknown>;
  const internal = (node.driver_internal_info ?? {}) as Record<string, unknown>;
  const missing = Object.keys(REQUIRED_PROPERTIES).filter((k) => !pyTruthy(info[k]));
  if (missing.length > 0) {
    throw new MissingParameterValue(`Missing the following IPMI credentials in node's driver_info: ${pyRepr(missing)}.`);
  }
  const protocolVersion = pyStr(info.ipmi_protocol_version ?? '2.0');
  if (!VALID_PROTO_VERSIONS.includes(protocolVersion)) {
    throw new InvalidParameterValue(`Invalid IPMI protocol version value ${protocolVersion}, the valid value can be ` +
      `one of ${VALID_PROTO_VERSIONS.join(', ')}`);
  }
  const terminalPort = pyTruthy(info.ipmi_terminal_port) ? info.ipmi_terminal_port : internal.allocated_ipmi_terminal_port;
  const consolePort = terminalPort === undefined || terminalPort === null ? null : validateNetworkPort(terminalPort, 'ipmi_terminal_port');
  const port = info.ipmi_port === undefined || info.ipmi_port === null ? null : validateNetworkPort(info.ipmi_port, 'ipmi_port');
  const bridging = parseBridging(info);
  const privLevel = 'ipmi_priv_level' in info ? info.ipmi_priv_level : 'ADMINISTRATOR';
  if (typeof privLevel !== 'string' || !VALID_PRIV_LEVELS.includes(privLevel)) {
    throw new InvalidParameterValue(`Invalid privilege level value:${pyStr(privLevel)}, the valid value can be one of ` +
      VALID_PRIV_LEVELS.join(', '));
  }
  const hexKgKey = parseKg(info.ipmi_hex_kg_key);
  const cipherSuite = parseCipherSuite(info.ipmi_cipher_suite, protocolVersion);
  const username = pyTruthy(info.ipmi_username) ? pyStr(info.ipmi_username) : null;
  const password = info.ipmi_password === undefined ? '' : pyStr(info.ipmi_password);
  if (!username) log.warning(`ipmi_username is not defined or empty for node ${node.uuid}: NULL user will be utilized.`);
  if (!password) log.warning(`ipmi_password is not defined or empty for node ${node.uuid}: NULL password will be utilized.`);
  return {
    uuid: node.uuid,
    address: pyStr(info.ipmi_address),
    port,
    username,
    password,
    hexKgKey,
    privLevel,
    protocolVersion: protocolVersion as ipmi.ProtocolVersion,
    bridging,
    forceBootDevice: boolFromString(info.ipmi_force_boot_device ?? false),
    cipherSuite,
    terminalPort: consolePort,
  };
}

/** How one command is timed: per-attempt wait, attempts, overall bound (from [ipmi]). */
interface Timing {
  intervalMs: number;
  attemptTimeoutMs: number;
  deadline: number;
  maxTries: number;
  retriesInClient: number;
}

/** _exec_ipmitool's timing: ironic retries (default) or ipmitool's own -R/-N (use_ipmitool_retries). */
function timingFor(conf: Config): Timing {
  const timeoutS = Math.max(1, conf.int('ipmi', 'command_retry_timeout'));
  const intervalS = Math.max(0, conf.int('ipmi', 'min_command_interval'));
  const attemptTimeoutMs = Math.max(1, intervalS) * 1000;
  const deadline = Date.now() + timeoutS * 1000;
  if (!conf.bool('ipmi', 'use_ipmitool_retries')) {
    return { intervalMs: intervalS * 1000, attemptTimeoutMs, deadline, maxTries: Math.max(1, Math.floor(timeoutS / Math.max(1, intervalS))), retriesInClient: 0 };
  }
  // ipmitool adds a second to its interval on every retry; count how many fit the bound.
  let tries = 0;
  for (let spent = 0, step = Math.max(1, intervalS); spent + step <= timeoutS; spent += step, step += 1) tries += 1;
  return { intervalMs: intervalS * 1000, attemptTimeoutMs, deadline, maxTries: 1, retriesInClient: Math.max(0, tries - 1) };
}

/** Client options from driver_info; the cipher suite falls back to the library's default. */
export function ipmiClientOptions(info: IpmiDriverInfo, timing: { attemptTimeoutMs: number; retriesInClient: number },
  cipherSuite: number | null = info.cipherSuite): ipmi.IpmiClientOptions {
  return {
    address: info.address,
    port: info.port ?? 623,
    username: info.username ?? '',
    password: info.password,
    privLevel: info.privLevel.toLowerCase() as ipmi.PrivLevel,
    protocolVersion: info.protocolVersion,
    ...(cipherSuite === null ? {} : { cipherSuite }),
    ...(info.hexKgKey ? { kgKey: info.hexKgKey } : {}),
    ...(info.bridging ? { bridging: info.bridging } : {}),
    timeoutMs: timing.attemptTimeoutMs,
    retries: timing.retriesInClient,
  };
}

/** [ipmi]use_ipmitool_binary picks Debian's ipmitool over the built-in client. */
function createIpmiClient(conf: Config, options: ipmi.IpmiClientOptions, commandTimeoutMs: number): ipmi.IpmiPowerClient {
  if (conf.bool('ipmi', 'use_ipmitool_binary')) return new ipmi.IpmitoolClient({ ...options, commandTimeoutMs });
  return new ipmi.IpmiClient(options);
}

/**
 * LAST_CMD_TIME: when each BMC was last sent a command. Keyed by address and port (Ironic: address
 * only) so simulated BMCs sharing 127.0.0.1 are not throttled as one.
 */
const lastCommandAt = new Map<string, number>();


/** Ironic retries everything but what cannot heal by itself: credentials and configuration. */
function retryable(err: unknown, conf: Config): boolean {
  if (err instanceof ipmi.IpmiAuthError || err instanceof ipmi.IpmiConfigError || err instanceof ipmi.IpmiClosedError) return false;
  if (!(err instanceof ipmi.IpmiError)) return false;
  if (!conf.bool('ipmi', 'use_ipmitool_retries')) return true;
  const extra = conf.list('ipmi', 'additional_retryable_ipmi_errors');
  const text = err.message.toLowerCase();
  return err instanceof ipmi.IpmiTimeoutError || [...RETRYABLE_FAILURES, ...extra].some((s) => text.includes(s.toLowerCase()));
}

/**
 * The cipher suite errors that make Ironic try the next of [ipmi]cipher_suite_versions. The
 * ipmitool client reports ipmitool's "no matching cipher suite" as a session it could not
 * establish (a timeout), so with the binary any timeout counts.
 */
function cipherSuiteError(err: unknown, conf: Config): boolean {
  if (conf.bool('ipmi', 'use_ipmitool_binary') && err instanceof ipmi.IpmiTimeoutError) return true;
  return err instanceof ipmi.IpmiError && /cipher suite/i.test(err.message);
}

/** choose_cipher_suite: the configured versions from the last one down. */
function nextCipherSuite(conf: Config, current: number | null): number | null {
  const versions = conf.list('ipmi', 'cipher_suite_versions').map((v) => Number(v)).filter((v) => Number.isInteger(v));
  if (versions.length === 0) return current;
  const index = current === null ? -1 : versions.indexOf(current);
  return index < 0 ? versions[versions.length - 1] : versions[Math.max(index - 1, 0)];
}

/** One attempt, cut off at the deadline: the client is closed (ipmitool killed) when it runs over. */
async function attempt<T>(client: ipmi.IpmiPowerClient, work: (c: ipmi.IpmiPowerClient) => Promise<T>, deadline: number, cmd: string): Promise<T> {
  const remaining = deadline - Date.now();
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ipmi.IpmiTimeoutError(cmd, remaining, 1)), Math.max(1, remaining));
  });
  try {
    return await Promise.race([work(client), overdue]);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

/**
 * _exec_ipmitool plus the IPMIFailure wrapping of its callers: runs work against the node's BMC,
 * retrying failed attempts while [ipmi]command_retry_timeout allows, never past it.
 */
export async function ipmiCall<T>(task: DriverTask, cmd: string, work: (client: ipmi.IpmiPowerClient) => Promise<T>): Promise<T> {
  const { conf } = task.ctx;
  const info = parseIpmiDriverInfo(task.node);
  const timing = timingFor(conf);
  const bmcKey = `${info.address}:${info.port ?? 623}`;
  let cipherSuite = info.cipherSuite;
  let changeCipher = info.cipherSuite === null && conf.list('ipmi', 'cipher_suite_versions').length > 0;
  for (let tries = timing.maxTries; ; ) {
    tries -= 1;
    await sleep(Math.min(timing.intervalMs - (Date.now() - (lastCommandAt.get(bmcKey) ?? 0)), timing.deadline - Date.now()));
    try {
      const client = createIpmiClient(conf, ipmiClientOptions(info, timing, cipherSuite), Math.max(1, timing.deadline - Date.now()));
      return await attempt(client, work, timing.deadline, cmd);
    } catch (err) {
      if (!(err instanceof ipmi.IpmiError)) throw err;
      if (changeCipher && cipherSuiteError(err, conf)) cipherSuite = nextCipherSuite(conf, cipherSuite);
      else changeCipher = false;
      const again = (changeCipher || retryable(err, conf)) && tries > 0 && Date.now() + timing.intervalMs < timing.deadline;
      if (!again) {
        log.warning(`IPMI Error while attempting "${cmd}" for node ${info.uuid}. Error: ${err.message}`);
        throw new IPMIFailure({ cmd });
      }
      log.warning(`IPMI Error encountered, retrying "${cmd}" for node ${info.uuid}. Error: ${err.message}`);
    } finally {
      lastCommandAt.set(bmcKey, Date.now());
    }
  }
}
