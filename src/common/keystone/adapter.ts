/**
 * keystone.get_adapter for one config group: the group's session (null when it does not
 * authenticate) and its endpoint, [group]endpoint_override when set, else found in the
 * service token's catalog. One adapter per configuration and group, so every client of a
 * service shares one cached token, as Ironic's module-level sessions do.
 */
import type { Config } from '../../conf/config';
import type { GroupWith } from '../../conf/registry';
import { catalogNotFound, endpointFilterFromConf, endpointFromCatalog, type EndpointFilter } from './endpoint';
import { KeystoneSession, passwordAuthFromConf, type KeystoneToken } from './session';

type ServiceGroup = GroupWith<'auth_type'> & GroupWith<'valid_interfaces'> & GroupWith<'endpoint_override'>;

export class ServiceAdapter {
  readonly session: KeystoneSession | null;
  readonly override: string | null;
  readonly filter: EndpointFilter;

  constructor(conf: Config, readonly group: ServiceGroup) {
    const auth = passwordAuthFromConf(conf, group);
    this.session = auth ? new KeystoneSession(auth) : null;
    this.override = conf.optStr(group, 'endpoint_override');
    this.filter = endpointFilterFromConf(conf, group);
  }

  /** Per-request timeout from [group]timeout, when set. */
  get timeoutMs(): number | undefined {
    return this.session?.auth.timeoutMs;
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
}

const adapters = new WeakMap<Config, Map<ServiceGroup, ServiceAdapter>>();

export function adapterFor(conf: Config, group: ServiceGroup): ServiceAdapter {
  let byGroup = adapters.get(conf);
  if (!byGroup) adapters.set(conf, byGroup = new Map());
  let adapter = byGroup.get(group);
  if (!adapter) byGroup.set(group, adapter = new ServiceAdapter(conf, group));
  return adapter;
}
