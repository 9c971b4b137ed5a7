/** A port as Ironic shows it (port.py convert_with_links + hide_fields_in_newer_versions). */
import type { PortRecord } from '../../db/models';
import { LOCAL_LINK_OVN_FIELDS } from '../schemas/local-link';
import { V } from '../versions';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export interface PortRefs {
  nodeUuid: string | null;
  portgroupUuid: string | null;
}

/** Every field, in Ironic's order, before version hiding and field selection. */
export function portDict(base: string, port: PortRecord, refs: PortRefs): Record<string, unknown> {
  return {
    uuid: port.uuid,
    created_at: isoformat(port.created_at),
    updated_at: isoformat(port.updated_at),
    address: port.address,
    extra: port.extra ?? {},
    internal_info: port.internal_info ?? {},
    is_smartnic: port.is_smartnic,
    local_link_connection: port.local_link_connection ?? {},
    physical_network: port.physical_network,
    pxe_enabled: port.pxe_enabled,
    node_uuid: refs.nodeUuid,
    name: port.name,
    links: links(base, 'ports', port.uuid),
    portgroup_uuid: refs.portgroupUuid,
  };
}

/** Fields hidden below the version that introduced them. */
const PORT_FIELD_VERSIONS: [string, number][] = [
  ['internal_info', V.PORT_INTERNAL_INFO],
  ['pxe_enabled', V.PORT_ADVANCED_NET_FIELDS],
  ['local_link_connection', V.PORT_ADVANCED_NET_FIELDS],
  ['portgroup_uuid', V.PORTGROUP_SUBRESOURCES],
  ['physical_network', V.PORT_PHYSICAL_NETWORK],
  ['is_smartnic', V.SMARTNIC_PORT],
  ['name', V.PORT_NAME],
];

/** Below 1.90 a local_link_connection naming an OVN VTEP switch is shown empty (the key itself stays). */
function hideOvnLink(dict: Record<string, unknown>, version: number): void {
  const llc = dict.local_link_connection;
  if (version >= V.OVN_VTEP || !llc || typeof llc !== 'object') return;
  if (LOCAL_LINK_OVN_FIELDS.some((key) => Object.hasOwn(llc, key))) dict.local_link_connection = {};
}

export function sanitizePort(dict: Record<string, unknown>, version: number, fields: readonly string[] | null): Record<string, unknown> {
  for (const [field, minor] of PORT_FIELD_VERSIONS) if (version < minor) delete dict[field];
  hideOvnLink(dict, version);
  sanitize(dict, fields);
  return dict;
}

export function portView(base: string, port: PortRecord, refs: PortRefs, version: number,
  fields: readonly string[] | null): Record<string, unknown> {
  const dict = portDict(base, port, refs);
  checkInvalidFields(fields, Object.keys(dict));
  return sanitizePort(dict, version, fields);
}
