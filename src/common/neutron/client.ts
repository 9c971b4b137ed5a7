/**
 * The Networking API as Ironic uses it (common/neutron.py get_client: openstacksdk's network
 * proxy on the [neutron] keystoneauth adapter): ports, networks, subnets, segments, security groups and agents.
 *
 * The endpoint is [neutron]endpoint_override, else the service token's catalog; requests carry
 * the service token when [neutron] authenticates, with the adapter's [neutron]timeout; retries follow
 * keystoneauth's adapter options: [neutron]connect_retries for a connection that fails (delay
 * [neutron]connect_retry_delay, else 0.5 s doubling) and [neutron]status_code_retries for a 503
 * (delay status_code_retry_delay, likewise). [neutron]retries is deprecated and unused in Ironic.
 * Failures raise the errors of ./errors, worded as openstacksdk words them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../conf/config';
import { adapterFor, ServiceConnectFailure, type ServiceAdapter } from '../keystone/adapter';
import type { JsonObject } from '../json-value';
import { discoveryFailure, errorFromResponse, NeutronApiError, NeutronDuplicate, NeutronNotFound, NeutronUnreachable } from './errors';

const GROUP = 'neutron';
const API_VERSION = 'v2.0';
const MAX_RETRY_DELAY_S = 60;

type NeutronResource = JsonObject & { id: string };
type NeutronFilters = Record<string, string | readonly string[]>;

interface RetryPolicy {
  retries: number;
  /** Fixed delay in seconds; null: 0.5 s doubling up to 60 s, as keystoneauth backs off. */
  delay: number | null;
}

function retryPolicy(conf: Config, count: 'connect_retries' | 'status_code_retries', delay: 'connect_retry_delay' | 'status_code_retry_delay'): RetryPolicy {
  const retries = conf.intIfKnown(GROUP, count) ?? 0;
  const fixed = conf.raw(GROUP, delay);
  return { retries: Math.max(0, retries), delay: typeof fixed === 'number' ? fixed : null };
}

function backoffMs(policy: RetryPolicy, attempt: number): number {
  const seconds = policy.delay ?? Math.min(0.5 * 2 ** attempt, MAX_RETRY_DELAY_S);
  return seconds * 1000;
}

function query(filters: NeutronFilters): string {
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    for (const v of typeof value === 'string' ? [value] : value) qs.append(key, v);
  }
  const text = qs.toString();
  return text ? `?${text}` : '';
}

export class NeutronClient {
  private readonly adapter: ServiceAdapter;
  private readonly connectRetry: RetryPolicy;
  private readonly statusRetry: RetryPolicy;

  constructor(conf: Config) {
    this.adapter = adapterFor(conf, GROUP);
    this.connectRetry = retryPolicy(conf, 'connect_retries', 'connect_retry_delay');
    this.statusRetry = retryPolicy(conf, 'status_code_retries', 'status_code_retry_delay');
  }

  /** The versioned API root: the endpoint, with /v2.0 added when the endpoint has no version. */
  async apiRoot(): Promise<string> {
    return (await this.endpoints()).root;
  }

  /** The endpoint as configured and the API root; `discovered`: openstacksdk would discover the version there. */
  private async endpoints(): Promise<{ endpoint: string; root: string; discovered: boolean }> {
    const endpoint = (await this.adapter.endpoint()).replace(/\/+$/, '');
    const versioned = /\/v2\.0$/.test(endpoint);
    return { endpoint, root: versioned ? endpoint : `${endpoint}/${API_VERSION}`, discovered: !versioned };
  }

  async getPort(id: string): Promise<NeutronResource> {
    return this.one('GET', `/ports/${encodeURIComponent(id)}`, 'port');
  }

  async createPort(attrs: JsonObject): Promise<NeutronResource> {
    return this.one('POST', '/ports', 'port', { port: attrs });
  }

  async updatePort(id: string, attrs: JsonObject): Promise<NeutronResource> {
    return this.one('PUT', `/ports/${encodeURIComponent(id)}`, 'port', { port: attrs });
  }

  async deletePort(id: string): Promise<void> {
    await this.call('DELETE', `/ports/${encodeURIComponent(id)}`);
  }

  async ports(filters: NeutronFilters = {}): Promise<NeutronResource[]> {
    return this.many(`/ports${query(filters)}`, 'ports');
  }

  async getNetwork(id: string): Promise<NeutronResource> {
    return this.one('GET', `/networks/${encodeURIComponent(id)}`, 'network');
  }

  async networks(filters: NeutronFilters = {}): Promise<NeutronResource[]> {
    return this.many(`/networks${query(filters)}`, 'networks');
  }

  async getSubnet(id: string): Promise<NeutronResource> {
    return this.one('GET', `/subnets/${encodeURIComponent(id)}`, 'subnet');
  }

  /** The agents Neutron knows (its `agent` extension), e.g. those of one host. */
  async agents(filters: NeutronFilters = {}): Promise<NeutronResource[]> {
    return this.many(`/agents${query(filters)}`, 'agents');
  }

  async getSegment(id: string): Promise<NeutronResource> {
    return this.one('GET', `/segments/${encodeURIComponent(id)}`, 'segment');
  }

  async securityGroups(ids: readonly string[]): Promise<NeutronResource[]> {
    return this.many(`/security-groups${query({ id: ids })}`, 'security_groups');
  }

  /** openstacksdk find_network(name_or_id, ignore_missing=False): by id, else by a unique name. */
  async findNetwork(nameOrId: string): Promise<NeutronResource> {
    try {
      return await this.getNetwork(nameOrId);
    } catch (err) {
      if (!(err instanceof NeutronNotFound)) throw err;
    }
    const matches = (await this.networks({ name: nameOrId })).filter((n) => n.id === nameOrId || n.name === nameOrId);
    if (matches.length > 1) throw new NeutronDuplicate(`More than one Network exists with the name '${nameOrId}'.`);
    if (matches.length === 0) throw new NeutronNotFound(`No Network found for ${nameOrId}`);
    return matches[0];
  }

  private async one(method: string, apiPath: string, key: string, body?: JsonObject): Promise<NeutronResource> {
    const parsed = await this.call(method, apiPath, body);
    const value = parsed?.[key];
    if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as JsonObject).id !== 'string') {
      throw new NeutronApiError(`Neutron answered ${method} ${apiPath} without a ${key}`);
    }
    return value as NeutronResource;
  }

  private async many(apiPath: string, key: string): Promise<NeutronResource[]> {
    const value = (await this.call('GET', apiPath))?.[key];
    if (!Array.isArray(value)) throw new NeutronApiError(`Neutron answered GET ${apiPath} without ${key}`);
    return value.filter((v): v is NeutronResource => !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as JsonObject).id === 'string');
  }

  /** One API call with keystoneauth's retries; the parsed JSON body (null when empty). */
  private async call(method: string, apiPath: string, body?: JsonObject): Promise<JsonObject | null> {
    const { endpoint, root, discovered } = await this.endpoints();
    const url = `${root}${apiPath}`;
    const request = {
      method,
      headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    };
    let connectAttempt = 0;
    let statusAttempt = 0;
    for (;;) {
      let res: Response;
      try {
        res = await this.adapter.fetch(url, request);
      } catch (err) {
        if (!(err instanceof ServiceConnectFailure)) throw err;
        if (connectAttempt < this.connectRetry.retries) {
          await sleep(backoffMs(this.connectRetry, connectAttempt++));
          continue;
        }
        // Ironic's client discovers an unversioned endpoint's version first, on every new session.
        if (discovered) throw discoveryFailure(endpoint);
        throw new NeutronUnreachable(err.timedOut ? 'ConnectTimeout' : 'ConnectFailure', err.message);
      }
      if (res.status === 503 && statusAttempt < this.statusRetry.retries) {
        await sleep(backoffMs(this.statusRetry, statusAttempt++));
        continue;
      }
      const text = await res.text();
      if (!res.ok) throw errorFromResponse(url, res.status, res.statusText, res.headers.get('content-type') ?? '', text);
      return text ? (JSON.parse(text) as JsonObject) : null;
    }
  }
}

/**
 * Whether [neutron] names a Neutron to talk to: an endpoint_override, or Keystone auth to find one
 * in the catalog. Without one, ironic-ts stays standalone: the flat interface keeps its VIF
 * records only and the neutron DHCP provider acts as `none`.
 */
export function neutronConfigured(conf: Config): boolean {
  const authType = conf.optStr(GROUP, 'auth_type');
  return conf.optStr(GROUP, 'endpoint_override') !== null || (authType !== null && authType !== 'none');
}

const clients = new WeakMap<Config, NeutronClient>();

/** neutron.get_client: one client per configuration, sharing the [neutron] adapter's token. */
export function neutronClient(conf: Config): NeutronClient {
  let client = clients.get(conf);
  if (!client) clients.set(conf, client = new NeutronClient(conf));
  return client;
}
