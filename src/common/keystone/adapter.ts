/**
 * keystone.get_adapter for one config group: the group's session (null when it does not
 * authenticate), its endpoint ([group]endpoint_override when set, else found in the service
 * token's catalog) and its requests as a keystoneauth Adapter sends them: the service token,
 * the [group]timeout of the session, and one re-authentication and resend after a 401. One
 * adapter per configuration and group, so every client of a service shares one cached token,
 * as Ironic's module-level sessions do.
 */
import type { Config } from '../../conf/config';
import type { GroupWith } from '../../conf/registry';
import { catalogNotFound, endpointFilterFromConf, endpointFromCatalog, type EndpointFilter } from './endpoint';
import { KeystoneSession, passwordAuthFromConf, sessionTimeoutMs, type KeystoneToken } from './session';

type ServiceGroup = GroupWith<'auth_type'> & GroupWith<'valid_interfaces'> & GroupWith<'endpoint_override'> & GroupWith<'timeout'>;

/** One request through the adapter; the body is replayable, as the resend after a 401 needs. */
interface AdapterRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** false: no token and no re-authentication (keystoneauth's authenticated=False, as for discovery). */
  authenticated?: boolean;
}

/**
 * keystoneauth's ConnectFailure (or ConnectTimeout): the service gave no answer. Each client
 * words it as its library does; `reason` is the socket's or the timeout's own text, `original`
 * what fetch threw. Neither carries request headers, so no token.
 */
export class ServiceConnectFailure extends Error {
  readonly reason: string;
  readonly timedOut: boolean;

  constructor(readonly url: string, readonly original: unknown) {
    const err = original instanceof Error ? original : new Error(String(original));
    const reason = err.cause instanceof Error ? err.cause.message : err.message;
    super(`Unable to establish connection to ${url}: ${reason}`);
    this.name = 'ServiceConnectFailure';
    this.reason = reason;
    this.timedOut = err.name === 'TimeoutError';
  }
}

const ABSOLUTE_URL = /^https?:\/\//i;

export class ServiceAdapter {
  readonly session: KeystoneSession | null;
  readonly override: string | null;
  readonly filter: EndpointFilter;
  /** Per-request timeout from [group]timeout, authenticated or not. */
  readonly timeoutMs: number | undefined;

  constructor(conf: Config, readonly group: ServiceGroup) {
    const auth = passwordAuthFromConf(conf, group);
    this.session = auth ? new KeystoneSession(auth) : null;
    this.override = conf.optStr(group, 'endpoint_override');
    this.filter = endpointFilterFromConf(conf, group);
    this.timeoutMs = sessionTimeoutMs(conf, group);
  }

  /** The service token, or null when the group does not authenticate. */
  async token(opts: { refresh?: boolean } = {}): Promise<KeystoneToken | null> {
    return this.session ? this.session.token(opts) : null;
  }

  /** The override, else the catalog's endpoint; CatalogNotFound when neither names one. */
  async endpoint(): Promise<string> {
    if (this.override) return this.override;
    const token = await this.token();
    if (!token) throw catalogNotFound(this.filter);
    return endpointFromCatalog(token.catalog, this.filter);
  }

  /** X-Auth-Token for the service token; `refresh` re-authenticates, as after a 401. */
  async authHeaders(refresh = false): Promise<Record<string, string>> {
    const token = await this.token({ refresh });
    return token ? { 'X-Auth-Token': token.id } : {};
  }

  /**
   * One request: `pathOrUrl` is a URL, or a path below the endpoint. A 401 to an authenticated
   * request re-authenticates and sends it once more; that answer is the caller's, whatever it
   * is. No answer at all: ServiceConnectFailure. Keystone's own failures pass through as they are.
   */
  async fetch(pathOrUrl: string, req: AdapterRequest = {}): Promise<Response> {
    const url = ABSOLUTE_URL.test(pathOrUrl) ? pathOrUrl : `${(await this.endpoint()).replace(/\/+$/, '')}${pathOrUrl}`;
    const authenticated = req.authenticated !== false && this.session !== null;
    const res = await this.send(url, req, authenticated ? await this.authHeaders() : {});
    if (res.status !== 401 || !authenticated) return res;
    await res.body?.cancel();
    return this.send(url, req, await this.authHeaders(true));
  }

  private async send(url: string, req: AdapterRequest, auth: Record<string, string>): Promise<Response> {
    try {
      return await fetch(url, {
        method: req.method ?? 'GET',
        headers: { ...req.headers, ...auth },
        ...(req.body === undefined ? {} : { body: req.body }),
        ...(this.timeoutMs ? { signal: AbortSignal.timeout(this.timeoutMs) } : {}),
      });
    } catch (err) {
      throw new ServiceConnectFailure(url, err);
    }
  }
}

const adapters = new WeakMap<Config, Map<ServiceGroup, ServiceAdapter>>();

export function adapterFor(conf: Config, group: ServiceGroup): ServiceAdapter {
  let byGroup = adapters.get(conf);
  if (!byGroup) adapters.set(conf, byGroup = new Map());
  let adapter = byGroup.get(group);
  if (!adapter) byGroup.set(group, adapter = new ServiceAdapter(conf, group));
  return adapter;
}
