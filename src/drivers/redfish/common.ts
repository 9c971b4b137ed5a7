/**
 * How every redfish interface reaches a node's BMC (drivers/modules/redfish/utils.py): driver_info
 * parsed and validated with Ironic's messages, turned into client options bounded by the [redfish]
 * retry options, and the first contact with the system, whose failures become Ironic's
 * RedfishConnectionError / RedfishError.
 */
import { strictBoolFromString } from '../../common/python/bool-from-string';
import { statSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import {
  InvalidParameterValue, MissingParameterValue, RedfishConnectionError, RedfishError,
} from '../../common/errors';
import { pyStr } from '../../common/python/str';
import { pyTruthy } from '../../common/python/truthiness';
import type { Config } from '../../conf/config';
import type { NodeRecord } from '../../db/models';
import * as redfish from '../../protocols/redfish';
import type { DriverTask } from '../base';
import { lookupTable } from '../../common/own-keys';

const REDFISH_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  redfish_address: 'The URL address to the Redfish controller. It must include the authority portion of the URL. ' +
    'If the scheme is missing, https is assumed. For example: https://mgmt.vendor.com. If a path is added, it will ' +
    'be used as the API endpoint root_prefix. Required',
  redfish_system_id: 'The canonical path to the ComputerSystem resource that the driver will interact with. It should ' +
    'include the root service, version and the unique resource path to a ComputerSystem within the same authority as ' +
    'the redfish_address property. For example: /redfish/v1/Systems/1. This property is only required if target BMC ' +
    'manages more than one ComputerSystem. Otherwise ironic will pick the only available ComputerSystem automatically.',
  redfish_username: 'User account with admin/server-profile access privilege. Although this property is not mandatory ' +
    "it's highly recommended to set a username. Optional",
  redfish_password: "User account password. Although this property is not mandatory, it's highly recommended to set " +
    'a password. Optional',
  redfish_verify_ca: 'Either a Boolean value, a path to a CA_BUNDLE file or directory with certificates of trusted ' +
    'CAs. If set to True the driver will verify the host certificates; if False the driver will ignore verifying the ' +
    'SSL certificate. If it\'s a path the driver will use the specified certificate or one of the certificates in the ' +
    'directory. Defaults to True. Optional',
  redfish_auth_type: 'Redfish HTTP client authentication method. Can be "basic", "session" or "auto". If not set, ' +
    'the default value is taken from Ironic configuration as ``[redfish]auth_type`` option.',
});

/**
 * What the redfish interfaces declare alike, spread into each: the common driver_info properties
 * and a validate that parses them (Ironic's COMMON_PROPERTIES and parse_driver_info).
 */
export const REDFISH_INTERFACE = {
  name: 'redfish',
  properties: (): Record<string, string> => ({ ...REDFISH_PROPERTIES }),
  async validate(task: DriverTask): Promise<void> {
    parseRedfishDriverInfo(task.node, task.ctx.conf);
  },
} as const;

/** sushy's per-request timeout: bounds a BMC that accepts connections but never answers. */
const REQUEST_TIMEOUT_MS = 60_000;

const AUTH_TYPES = ['basic', 'session', 'auto'];

interface RedfishDriverInfo {
  address: string;
  systemId: string | null;
  username: string | null;
  password: string | null;
  verifyCa: boolean | string;
  authType: redfish.AuthType;
}

/** parse_driver_info: MissingParameterValue / InvalidParameterValue with Ironic's texts. */
export function parseRedfishDriverInfo(node: NodeRecord, conf: Config): RedfishDriverInfo {
  const info = (node.driver_info ?? {}) as Record<string, unknown>;
  if (!pyTruthy(info.redfish_address)) {
    throw new MissingParameterValue(
      `Missing the following Redfish properties in node ${node.uuid} driver_info: ['redfish_address']`);
  }
  return {
    address: parseAddress(info.redfish_address, node.uuid),
    systemId: parseSystemId(info.redfish_system_id, node.uuid),
    username: typeof info.redfish_username === 'string' ? info.redfish_username : null,
    password: typeof info.redfish_password === 'string' ? info.redfish_password : null,
    verifyCa: parseVerifyCa('redfish_verify_ca' in info ? info.redfish_verify_ca : true, node.uuid),
    authType: parseAuthType('redfish_auth_type' in info ? info.redfish_auth_type : conf.str('redfish', 'auth_type'), node.uuid),
  };
}

function parseAddress(raw: unknown, uuid: string): string {
  let address = pyStr(raw);
  if (isIPv6(address)) address = `[${address}]`;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]/.test(address)) address = `https://${address}`;
  const invalid = () => new InvalidParameterValue(
    `Invalid Redfish address ${address} set in driver_info/redfish_address on node ${uuid}`);
  if (typeof raw !== 'string' || /\s/.test(address)) throw invalid();
  try {
    redfish.parseRedfishAddress(address);
  } catch (err) {
    if (err instanceof redfish.RedfishConfigError) throw invalid();
    throw err;
  }
  return address;
}

function parseSystemId(raw: unknown, uuid: string): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    throw new InvalidParameterValue(`Invalid value "${pyStr(raw)}" set in driver_info/redfish_system_id on node ${uuid}. ` +
      'The value should be a path (string) to the resource that the driver will interact with. For example: ' +
      '/redfish/v1/Systems/1');
  }
  return raw;
}

/** A boolean, an existing CA file/directory, or a boolean word (oslo bool_from_string, strict). */
function parseVerifyCa(raw: unknown, uuid: string): boolean | string {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    if (isPath(raw)) return raw;
    const flag = strictBoolFromString(raw);
    if (flag !== null) return flag;
  }
  throw new InvalidParameterValue(`Invalid value type set in driver_info/redfish_verify_ca on node ${uuid}. ` +
    `The value should be a Boolean or the path to a file/directory, not "${pyStr(raw)}"`);
}

function isPath(candidate: string): boolean {
  try {
    const st = statSync(candidate);
    return st.isFile() || st.isDirectory();
  } catch {
    return false;
  }
}

function parseAuthType(raw: unknown, uuid: string): redfish.AuthType {
  if (typeof raw === 'string' && AUTH_TYPES.includes(raw)) return raw as redfish.AuthType;
  throw new InvalidParameterValue(`Invalid value "${pyStr(raw)}" set in driver_info/redfish_auth_type on node ${uuid}. ` +
    'The value should be one of "basic", "session" or "auto".');
}

/** Client options: driver_info plus [redfish]connection_attempts / connection_retry_interval. */
export function redfishClientOptions(info: RedfishDriverInfo, conf: Config): redfish.RedfishClientOptions {
  return {
    address: info.address,
    systemId: info.systemId,
    username: info.username,
    password: info.password,
    verifyCa: info.verifyCa,
    authType: info.authType,
    connectionAttempts: Math.max(1, conf.int('redfish', 'connection_attempts')),
    retryIntervalMs: Math.max(0, conf.int('redfish', 'connection_retry_interval')) * 1000,
    timeoutMs: REQUEST_TIMEOUT_MS,
  };
}

export interface RedfishSession {
  client: redfish.RedfishClient;
  system: redfish.SystemInfo;
}

/**
 * A client failure in sushy's words, which Ironic's last_error texts carry: "HTTP GET <url> returned
 * code 401. <code>: <most severe message>" and "Unable to connect to <url>. Error: ...". The raw
 * extended-information dump sushy appends is left out.
 */
export function describeRedfishFailure(err: redfish.RedfishError): string {
  if (err instanceof redfish.RedfishConnectionError) return `Unable to connect to ${err.url}. Error: ${err.message}`;
  if (!(err instanceof redfish.RedfishHttpError)) return err.message;
  const severe = ['Critical', 'Warning'].map((sev) => err.messages.find((m) => m.severity === sev)).find((m) => m);
  const detail = (severe ?? err.messages[0])?.message || 'unknown error.';
  return `HTTP ${err.method} ${err.url} returned code ${err.status}. ${err.code ?? 'Base.1.0.GeneralError'}: ${detail}`;
}

/**
 * get_system: a client for the node and its ComputerSystem. An unreachable BMC becomes
 * RedfishConnectionError, anything else the BMC says (bad credentials, no such system)
 * RedfishError, a CA bundle the client cannot use InvalidParameterValue.
 */
export async function connectRedfish(task: DriverTask): Promise<RedfishSession> {
  const { node } = task;
  const info = parseRedfishDriverInfo(node, task.ctx.conf);
  try {
    const client = new redfish.RedfishClient(redfishClientOptions(info, task.ctx.conf));
    return { client, system: await client.getSystem() };
  } catch (err) {
    if (err instanceof redfish.RedfishConfigError) throw new InvalidParameterValue(err.message);
    if (err instanceof redfish.RedfishConnectionError) {
      throw new RedfishConnectionError({ node: node.uuid, error: describeRedfishFailure(err) });
    }
    if (err instanceof redfish.RedfishError) throw new RedfishError({ error: describeRedfishFailure(err) });
    throw err;
  }
}

/** Runs a BMC operation; a client failure becomes RedfishError with the operation's own wording. */
export async function redfishAction<T>(work: () => Promise<T>, describe: (error: string) => string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof redfish.RedfishError) throw new RedfishError({ error: describe(describeRedfishFailure(err)) });
    throw err;
  }
}
