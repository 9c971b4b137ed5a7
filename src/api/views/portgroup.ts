/** A portgroup as Ironic shows it (portgroup.py convert_with_links); nothing is hidden by version. */
import type { PortgroupRecord } from '../../db/models';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export function portgroupDict(base: string, pg: PortgroupRecord, nodeUuid: string | null): Record<string, unknown> {
  return {
    uuid: pg.uuid,
    created_at: isoformat(pg.created_at),
    updated_at: isoformat(pg.updated_at),
    address: pg.address,
    extra: pg.extra ?? {},
    internal_info: pg.internal_info ?? {},
    mode: pg.mode,
    name: pg.name,
    properties: pg.properties ?? {},
    standalone_ports_supported: pg.standalone_ports_supported,
    node_uuid: nodeUuid,
    links: links(base, 'portgroups', pg.uuid),
    ports: links(base, 'portgroups', `${pg.uuid}/ports`),
  };
}

export function portgroupView(base: string, pg: PortgroupRecord, nodeUuid: string | null,
  fields: readonly string[] | null): Record<string, unknown> {
  const dict = portgroupDict(base, pg, nodeUuid);
  checkInvalidFields(fields, Object.keys(dict));
  sanitize(dict, fields);
  return dict;
}
