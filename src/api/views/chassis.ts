/** A chassis as Ironic shows it (chassis.py convert_with_links). */
import type { ChassisRecord } from '../../db/models';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export function chassisDict(base: string, c: ChassisRecord): Record<string, unknown> {
  return {
    uuid: c.uuid,
    created_at: isoformat(c.created_at),
    updated_at: isoformat(c.updated_at),
    description: c.description,
    extra: c.extra ?? {},
    links: links(base, 'chassis', c.uuid),
    // Upstream builds this with a trailing comma, so the links list sits inside a one-element tuple.
    nodes: [links(base, 'chassis', `${c.uuid}/nodes`)],
  };
}

export function chassisView(base: string, c: ChassisRecord, fields: readonly string[] | null): Record<string, unknown> {
  const dict = chassisDict(base, c);
  checkInvalidFields(fields, Object.keys(dict));
  sanitize(dict, fields);
  return dict;
}
