/**
 * Who may call and how a caller proves itself on the json-rpc transport: [json_rpc]auth_strategy
 * (falling back to [DEFAULT]auth_strategy, as ironic_lib does) on the server; [json_rpc]auth_type
 * and its credentials on the client.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../conf/config';
import { BasicAuthFailure, HtpasswdFile } from '../auth/htpasswd';
import { KeystoneTokenClient, keystoneSettings } from '../auth/keystone-client';

/** A refusal: HTTP status, message and any challenge header. */
interface AuthRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** Returns null when the request may proceed; clientAddress is the peer's IP address. */
type RequestGate = (headers: IncomingHttpHeaders, clientAddress: string) => Promise<AuthRefusal | null>;

export function jsonRpcAuthStrategy(conf: Config): string {
  return conf.optStr('json_rpc', 'auth_strategy') ?? conf.str('DEFAULT', 'auth_strategy');
}

function basicGate(conf: Config): RequestGate {
  const file = new HtpasswdFile(conf.str('json_rpc', 'http_basic_auth_user_file'));
  return async (headers, clientAddress) => {
    try {
      await file.authenticate(headers.authorization, clientAddress);
      return null;
    } catch (err) {
      if (!(err instanceof BasicAuthFailure)) throw err;
      return { status: err.code, message: err.message, headers: err.headers() };
    }
  };
}

/** keystonemiddleware on the server, then the role check of ironic_lib's json-rpc server. */
function keystoneGate(conf: Config): RequestGate {
  const client = new KeystoneTokenClient(keystoneSettings(conf));
  const allowed = new Set(conf.list('json_rpc', 'allowed_roles'));
  return async (headers) => {
    const token = headers['x-auth-token'];
    const identity = typeof token === 'string' ? await client.validate(token) : null;
    if (!identity) return { status: 401, message: 'Authentication required' };
    if (!identity.roles.some((role) => allowed.has(role))) return { status: 403, message: 'Forbidden' };
    return null;
  };
}

/** The server's check for every request, built (and its htpasswd file validated) at start. */
export function serverGate(conf: Config): RequestGate {
  const strategy = jsonRpcAuthStrategy(conf);
  if (strategy === 'http_basic') return basicGate(conf);
  if (strategy === 'keystone') return keystoneGate(conf);
  return async () => null;
}

/** Headers the client sends: Basic credentials for http_basic, a Keystone token for password auth. */
export function clientCredentials(conf: Config): () => Promise<Record<string, string>> {
  const authType = conf.optStr('json_rpc', 'auth_type');
  if (authType === 'http_basic') {
    const user = conf.optStr('json_rpc', 'username') ?? conf.optStr('json_rpc', 'http_basic_username') ?? '';
    const password = conf.optStr('json_rpc', 'password') ?? conf.optStr('json_rpc', 'http_basic_password') ?? '';
    const header = { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
    return async () => header;
  }
  if (authType === 'password' || authType === 'v3password') {
    const client = new KeystoneTokenClient(keystoneSettings(conf, 'json_rpc'));
    return async () => ({ 'X-Auth-Token': await client.serviceToken() });
  }
  return async () => ({});
}
