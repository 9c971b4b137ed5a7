/**
 * keystone.get_endpoint for a config group: [group]endpoint_override when set, else the
 * service's endpoint in the token's catalog, picked as a keystoneauth Adapter does:
 * service_type (and service_name when set), the first of valid_interfaces that has an
 * endpoint, in region_name when set. Nothing found -> CatalogNotFound.
 */
import { CatalogNotFound } from '../errors';
import type { Config } from '../../conf/config';
import type { GroupWith } from '../../conf/registry';
import type { CatalogService } from './session';

export interface EndpointFilter {
  serviceType: string;
  serviceName: string | null;
  interfaces: string[];
  region: string | null;
}

export function endpointFilterFromConf(conf: Config, group: GroupWith<'valid_interfaces'>): EndpointFilter {
  const interfaces = conf.list(group, 'valid_interfaces');
  return {
    serviceType: conf.str(group, 'service_type'),
    serviceName: conf.optStr(group, 'service_name'),
    // keystoneauth also accepts the v2 spellings (internalURL...).
    interfaces: (interfaces.length ? interfaces : ['internal', 'public']).map((i) => i.replace(/URL$/, '')),
    region: conf.optStr(group, 'region_name'),
  };
}

/** Ironic reports the first valid interface as the endpoint type it looked for. */
export function catalogNotFound(filter: EndpointFilter): Error {
  return new CatalogNotFound({ service_type: filter.serviceType, endpoint_type: filter.interfaces[0] ?? 'internal' });
}

export function endpointFromCatalog(catalog: CatalogService[], filter: EndpointFilter): string {
  const services = catalog.filter((s) => s.type === filter.serviceType && (!filter.serviceName || s.name === filter.serviceName));
  for (const wanted of filter.interfaces) {
    for (const service of services) {
      const hit = (service.endpoints ?? []).find((e) => e.interface === wanted &&
        (!filter.region || e.region_id === filter.region || e.region === filter.region));
      if (hit?.url) return hit.url;
    }
  }
  throw catalogNotFound(filter);
}
