/** A conductor as Ironic shows it (conductor.py convert_with_links): keyed by hostname, no uuid. */
import type { ConductorRecord } from '../../db/models';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export function conductorDict(base: string, c: ConductorRecord, heartbeatTimeoutS: number, now = Date.now()):
  Record<string, unknown> {
  const updated = c.updated_at ? c.updated_at.getTime() : null;
  return {
    created_at: isoformat(c.created_at),
    updated_at: isoformat(c.updated_at),
    hostname: c.hostname,
    conductor_group: c.conductor_group,
    drivers: c.drivers ?? [],
    links: links(base, 'conductors', c.hostname),
    alive: updated !== null && now - updated <= heartbeatTimeoutS * 1000,
  };
}

export function conductorView(base: string, c: ConductorRecord, heartbeatTimeoutS: number,
  fields: readonly string[] | null): Record<string, unknown> {
  const dict = conductorDict(base, c, heartbeatTimeoutS);
  checkInvalidFields(fields, Object.keys(dict));
  sanitize(dict, fields);
  return dict;
}
