/**
 * The part of keystonemiddleware's auth_token Ironic relies on: a service token from
 * `[keystone_authtoken]` (password plugin), incoming tokens validated with
 * GET /v3/auth/tokens (X-Subject-Token), valid answers cached for token_cache_time seconds.
 */
import type { Config } from '../conf/config';
import type { Identity } from './identity';

/** Keystone could not be reached or answered with a server error (keystonemiddleware: 503). */
export class KeystoneUnavailable extends Error {}

interface KeystoneSettings {
  authUrl: string;
  wwwAuthenticateUri: string;
  username: string | null;
  userId: string | null;
  password: string;
  userDomain: { id?: string; name?: string };
  project: { id?: string; name?: string; domain: { id?: string; name?: string } } | null;
  systemScope: string | null;
  cacheSeconds: number;
  /** The config group the credentials come from, for messages. */
  group: string;
}

/**
 * The password-plugin settings of `group`: [keystone_authtoken] for validating API tokens, or a
 * client group such as [json_rpc] whose credentials get a token for outgoing calls.
 */
export function keystoneSettings(conf: Config, group = 'keystone_authtoken'): KeystoneSettings {
  const g = group;
  const opt = (name: string): string | null => conf.optStrIfKnown(g, name);
  const authUrl = opt('auth_url') ?? opt('www_authenticate_uri') ?? opt('auth_uri');
  if (!authUrl) throw new Error(`[${g}]auth_url is required for Keystone authentication`);
  const domain = (prefix: string): { id?: string; name?: string } => {
    const id = opt(`${prefix}_domain_id`) ?? opt('default_domain_id');
    const name = opt(`${prefix}_domain_name`) ?? opt('default_domain_name');
    return { ...(id ? { id } : {}), ...(!id && name ? { name } : {}) };
  };
  const projectId = opt('project_id');
  const projectName = opt('project_name');
  return {
    authUrl,
    wwwAuthenticateUri: opt('www_authenticate_uri') ?? opt('auth_uri') ?? authUrl,
    username: opt('username'),
    userId: opt('user_id'),
    password: opt('password') ?? '',
    userDomain: domain('user'),
    project: projectId || projectName
      ? { ...(projectId ? { id: projectId } : { name: projectName ?? '' }), domain: domain('project') }
      : null,
    systemScope: opt('system_scope'),
    cacheSeconds: conf.intIfKnown(g, 'token_cache_time') ?? 300,
    group: g,
  };
}

/** `http://h:5000`, `http://h:5000/` and `http://h:5000/v3` all mean the same identity API. */
function v3Base(url: string): string {
  return `${url.replace(/\/+$/, '').replace(/\/v3$/, '')}/v3`;
}

interface TokenBody {
  token?: {
    expires_at?: string;
    is_admin_project?: boolean;
    user?: { id?: string; name?: string; domain?: { id?: string } };
    project?: { id?: string; name?: string; domain?: { id?: string } };
    domain?: { id?: string };
    system?: { all?: boolean };
    roles?: { name?: string }[];
  };
}

function identityFrom(body: TokenBody): Identity {
  const t = body.token ?? {};
  return {
    userId: t.user?.id ?? null,
    userName: t.user?.name ?? null,
    userDomainId: t.user?.domain?.id ?? null,
    projectId: t.project?.id ?? null,
    projectName: t.project?.name ?? null,
    projectDomainId: t.project?.domain?.id ?? null,
    domainId: t.domain?.id ?? null,
    systemScope: t.system?.all ? 'all' : null,
    roles: (t.roles ?? []).map((r) => r.name ?? '').filter(Boolean),
    // keystonemiddleware treats a token without the flag as an admin-project token.
    isAdminProject: t.is_admin_project ?? true,
    expiresAt: t.expires_at ? Date.parse(t.expires_at) : Number.POSITIVE_INFINITY,
  };
}

export class KeystoneTokenClient {
  private cachedServiceToken: { id: string; expiresAt: number } | null = null;
  private readonly cache = new Map<string, { identity: Identity; until: number }>();

  constructor(readonly settings: KeystoneSettings) {}

  /** The identity a token stands for, or null when Keystone rejects it or it has expired. */
  async validate(token: string): Promise<Identity | null> {
    const now = Date.now();
    const hit = this.cache.get(token);
    if (hit && hit.until > now) return hit.identity;
    this.cache.delete(token);
    const identity = await this.fetchIdentity(token, true);
    if (!identity || identity.expiresAt <= now) return null;
    const until = Math.min(identity.expiresAt, now + this.settings.cacheSeconds * 1000);
    if (until > now) this.cache.set(token, { identity, until });
    this.evictExpired(now);
    return identity;
  }

  private evictExpired(now: number): void {
    if (this.cache.size < 10000) return;
    for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
  }

  private async fetchIdentity(token: string, retryOnServiceFailure: boolean): Promise<Identity | null> {
    const service = await this.serviceToken();
    const res = await this.request(`${v3Base(this.settings.authUrl)}/auth/tokens`, {
      method: 'GET',
      headers: { 'X-Auth-Token': service, 'X-Subject-Token': token, Accept: 'application/json' },
    });
    if (res.status === 200) return identityFrom(await res.json() as TokenBody);
    if (res.status === 401 && retryOnServiceFailure) {
      // Our own service token was revoked or expired: get a new one once.
      this.cachedServiceToken = null;
      return this.fetchIdentity(token, false);
    }
    if (res.status === 404 || res.status === 401 || res.status === 403) return null;
    throw new KeystoneUnavailable(`Keystone answered ${res.status} validating a token`);
  }

  /** A token for the configured credentials, reused until a minute before it expires. */
  async serviceToken(): Promise<string> {
    const cached = this.cachedServiceToken;
    if (cached && cached.expiresAt - 60000 > Date.now()) return cached.id;
    const s = this.settings;
    const user = s.userId ? { id: s.userId, password: s.password } : { name: s.username ?? '', domain: s.userDomain, password: s.password };
    const scope = s.systemScope ? { system: { [s.systemScope]: true } } : s.project ? { project: s.project } : undefined;
    const body = { auth: { identity: { methods: ['password'], password: { user } }, ...(scope ? { scope } : {}) } };
    const res = await this.request(`${v3Base(s.authUrl)}/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const id = res.headers.get('x-subject-token');
    if (res.status !== 201 || !id) {
      throw new KeystoneUnavailable(`Keystone refused the service credentials of [${s.group}] (${res.status})`);
    }
    const expires = (await res.json() as TokenBody).token?.expires_at;
    this.cachedServiceToken = { id, expiresAt: expires ? Date.parse(expires) : Date.now() + 3600000 };
    return id;
  }

  /**
   * A token for a user's own password (the dashboard's login), scoped to `scope`; null when
   * Keystone refuses the credentials or the scope.
   */
  async passwordToken(user: { name: string; domain: string }, password: string,
    scope: { project: { name: string; domain: { name: string } } } | { system: { all: true } } | null): Promise<string | null> {
    const identity = { methods: ['password'], password: { user: { name: user.name, domain: { name: user.domain }, password } } };
    const res = await this.request(`${v3Base(this.settings.authUrl)}/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ auth: { identity, ...(scope ? { scope } : {}) } }),
    });
    await res.arrayBuffer();
    const id = res.headers.get('x-subject-token');
    if (res.status === 201 && id) return id;
    if (res.status >= 500) throw new KeystoneUnavailable(`Keystone answered ${res.status} to a login`);
    return null;
  }

  private async request(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(30000) });
    } catch (err) {
      throw new KeystoneUnavailable(`Unable to reach Keystone at ${url}: ${(err as Error).message}`);
    }
  }
}
