/**
 * A keystoneauth session for one config group ([glance], [neutron], [cinder], [swift]...): the auth plugin options
 * (auth_type password / v3password, or none), a Keystone v3 token with its service catalog,
 * cached until shortly before it expires. keystone.ks_exceptions' mapping of failures:
 * bad credentials -> KeystoneUnauthorized, missing options or unknown plugins -> ConfigInvalid,
 * anything else -> KeystoneFailure.
 */
import { ConfigInvalid, KeystoneFailure, KeystoneUnauthorized } from '../errors';
import type { Config } from '../../conf/config';
import type { GroupWith, OptionName } from '../../conf/registry';

interface CatalogEndpoint {
  interface: string;
  url: string;
  region?: string | null;
  region_id?: string | null;
}

export interface CatalogService {
  type: string;
  name?: string;
  endpoints: CatalogEndpoint[];
}

export interface KeystoneToken {
  id: string;
  /** ms since the epoch */
  expiresAt: number;
  projectId: string | null;
  catalog: CatalogService[];
}

interface NameOrId {
  id?: string;
  name?: string;
  domain?: NameOrId;
}

interface PasswordAuth {
  authUrl: string;
  user: NameOrId;
  password: string;
  scope: { project: NameOrId } | { domain: NameOrId } | { system: { all: true } } | null;
  timeoutMs: number | undefined;
}

/** A keystoneauth client group: its auth plugin and session options. */
type AuthGroup = GroupWith<'auth_type'> & GroupWith<'timeout'>;

/** Re-authenticate this long before the token's expiry. */
const EXPIRY_MARGIN_MS = 60_000;
const PASSWORD_PLUGINS = new Set(['password', 'v3password']);
const NO_AUTH_PLUGINS = new Set(['none', 'noauth']);

/**
 * [group]timeout, keystoneauth's session option: it bounds every request of the group's session,
 * token requests and service requests alike, with or without auth. Unset or not positive: none.
 */
export function sessionTimeoutMs(conf: Config, group: GroupWith<'timeout'>): number | undefined {
  const timeout = conf.raw(group, 'timeout');
  return typeof timeout === 'number' && timeout > 0 ? timeout * 1000 : undefined;
}

function nameOrId(id: string | null, name: string | null, domain?: NameOrId): NameOrId | undefined {
  if (id) return { id };
  if (name) return domain ? { name, domain } : { name };
  return undefined;
}

/** The `password` plugin's options from the group; null for no auth (auth_type unset or none). */
export function passwordAuthFromConf(conf: Config, group: AuthGroup): PasswordAuth | null {
  const opt = (name: OptionName<AuthGroup>) => conf.optStr(group, name);
  const authType = opt('auth_type');
  if (!authType || NO_AUTH_PLUGINS.has(authType)) return null;
  if (!PASSWORD_PLUGINS.has(authType)) {
    // ks_exceptions raises ConfigInvalid(str(e)): keystoneauth's text is the whole message.
    throw new ConfigInvalid(`The plugin ${authType} could not be found`);
  }
  const defaultDomain = nameOrId(opt('default_domain_id'), opt('default_domain_name'));
  const userDomain = nameOrId(opt('user_domain_id'), opt('user_domain_name')) ?? defaultDomain;
  const projectDomain = nameOrId(opt('project_domain_id'), opt('project_domain_name')) ?? defaultDomain;
  const user = nameOrId(opt('user_id'), opt('username'), userDomain);
  const missing = [['auth_url', opt('auth_url')], ['password', opt('password')], ['username', user]]
    .filter(([, v]) => !v).map(([k]) => String(k));
  if (missing.length) {
    throw new ConfigInvalid(`Auth plugin requires parameters which were not given: ${missing.join(', ')}`);
  }
  const project = nameOrId(opt('project_id') ?? opt('tenant_id'), opt('project_name') ?? opt('tenant_name'), projectDomain);
  const domain = nameOrId(opt('domain_id'), opt('domain_name'));
  return {
    authUrl: opt('auth_url')!,
    user: user!,
    password: opt('password')!,
    scope: project ? { project } : domain ? { domain } : opt('system_scope') ? { system: { all: true } } : null,
    timeoutMs: sessionTimeoutMs(conf, group),
  };
}

/** The v3 tokens URL: auth_url as given when it names v3, else its v3 below it. */
export function tokensUrl(authUrl: string): string {
  const base = authUrl.replace(/\/+$/, '');
  return /\/v3$/.test(base) ? `${base}/auth/tokens` : `${base}/v3/auth/tokens`;
}

function requestBody(auth: PasswordAuth): unknown {
  return {
    auth: {
      identity: { methods: ['password'], password: { user: { ...auth.user, password: auth.password } } },
      ...(auth.scope ? { scope: auth.scope } : {}),
    },
  };
}

interface TokenBody {
  token?: { expires_at?: string; project?: { id?: string }; catalog?: CatalogService[] };
}

/**
 * KeystoneUnauthorized, which ks_exceptions makes of keystoneauth's Unauthorized; callers that
 * Ironic lets see keystoneauth's own exception (openstacksdk's SwiftAPI) use `keystoneauthText`.
 */
async function unauthorized(res: Response): Promise<Error & { keystoneauthText: string }> {
  const body = await res.json().catch(() => ({})) as { error?: { message?: string } };
  const requestId = res.headers.get('x-openstack-request-id');
  const text = `${body.error?.message ?? 'HTTP Error'} (HTTP ${res.status})${requestId ? ` (Request-ID: ${requestId})` : ''}`;
  return Object.assign(new KeystoneUnauthorized(), { keystoneauthText: text });
}

/** keystoneauth's text of a refused authentication, when `err` is one. */
export function keystoneauthText(err: unknown): string | null {
  const text = err instanceof KeystoneUnauthorized ? (err as { keystoneauthText?: unknown }).keystoneauthText : undefined;
  return typeof text === 'string' ? text : null;
}

async function issueToken(auth: PasswordAuth): Promise<KeystoneToken> {
  const url = tokensUrl(auth.authUrl);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(requestBody(auth)),
      ...(auth.timeoutMs ? { signal: AbortSignal.timeout(auth.timeoutMs) } : {}),
    });
  } catch (err) {
    throw new KeystoneFailure(`Unable to establish connection to ${url}: ${(err as Error).message}`);
  }
  if (res.status === 401 || res.status === 403) throw await unauthorized(res);
  if (res.status !== 201 && res.status !== 200) {
    throw new KeystoneFailure(`Keystone answered HTTP ${res.status} to ${url}: ${(await res.text()).slice(0, 200)}`);
  }
  const id = res.headers.get('x-subject-token');
  const body = await res.json().catch(() => ({})) as TokenBody;
  if (!id || !body.token) throw new KeystoneFailure(`Keystone at ${url} returned no token`);
  const expires = Date.parse(body.token.expires_at ?? '');
  return {
    id,
    expiresAt: Number.isFinite(expires) ? expires : Date.now() + 3_600_000,
    projectId: body.token.project?.id ?? null,
    catalog: Array.isArray(body.token.catalog) ? body.token.catalog : [],
  };
}

/** One group's session: a token reused by every request until it is about to expire. */
export class KeystoneSession {
  private current: Promise<KeystoneToken> | undefined;

  constructor(readonly auth: PasswordAuth) {}

  async token(opts: { refresh?: boolean } = {}): Promise<KeystoneToken> {
    const cached = this.current ? await this.current.catch(() => undefined) : undefined;
    if (!opts.refresh && cached && cached.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return cached;
    // Concurrent callers share one token request.
    const pending = issueToken(this.auth);
    this.current = pending;
    return pending;
  }
}
