/** Volume connectors and targets as Ironic shows them; target properties are password-masked. */
import type { VolumeConnectorRecord, VolumeTargetRecord } from '../../db/models';
import { maskDictPassword } from '../../common/mask';
import { isoformat, links, sanitize } from './resource-dict';

export function connectorDict(base: string, c: VolumeConnectorRecord, nodeUuid: string | null): Record<string, unknown> {
  return {
    uuid: c.uuid,
    created_at: isoformat(c.created_at),
    updated_at: isoformat(c.updated_at),
    connector_id: c.connector_id,
    extra: c.extra ?? {},
    type: c.type,
    links: links(base, 'volume/connectors', c.uuid),
    node_uuid: nodeUuid,
  };
}

export function targetDict(base: string, t: VolumeTargetRecord, nodeUuid: string | null): Record<string, unknown> {
  return {
    uuid: t.uuid,
    created_at: isoformat(t.created_at),
    updated_at: isoformat(t.updated_at),
    boot_index: t.boot_index,
    extra: t.extra ?? {},
    properties: t.properties ?? {},
    volume_id: t.volume_id,
    volume_type: t.volume_type,
    links: links(base, 'volume/targets', t.uuid),
    node_uuid: nodeUuid,
  };
}

export function sanitizeConnector(dict: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  sanitize(dict, fields);
  return dict;
}

export function sanitizeTarget(dict: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  sanitize(dict, fields);
  const props = dict.properties as Record<string, unknown> | undefined;
  if (props && Object.keys(props).length) dict.properties = maskDictPassword(props);
  return dict;
}

/** GET /v1/volume (or /v1/nodes/{id}/volume): links to the connectors and targets collections. */
export function volumeIndex(base: string, nodeIdent: string | null): Record<string, unknown> {
  const [resource, prefix] = nodeIdent ? ['nodes', `${nodeIdent}/volume/`] : ['volume', ''];
  return {
    links: links(base, resource, prefix),
    connectors: links(base, resource, `${prefix}connectors`),
    targets: links(base, resource, `${prefix}targets`),
  };
}
