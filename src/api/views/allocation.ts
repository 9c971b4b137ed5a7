/** An allocation as Ironic shows it (allocation.py convert_with_links); owner from 1.60. */
import type { AllocationRecord } from '../../db/models';
import { maskMessage } from '../../common/mask';
import { V } from '../versions';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export function allocationDict(base: string, a: AllocationRecord, nodeUuid: string | null): Record<string, unknown> {
  return {
    uuid: a.uuid,
    created_at: isoformat(a.created_at),
    updated_at: isoformat(a.updated_at),
    candidate_nodes: a.candidate_nodes ?? [],
    extra: a.extra ?? {},
    last_error: a.last_error === null ? null : maskMessage(a.last_error),
    name: a.name,
    owner: a.owner,
    resource_class: a.resource_class,
    state: a.state,
    traits: a.traits ?? [],
    links: links(base, 'allocations', a.uuid),
    node_uuid: nodeUuid,
  };
}

export function sanitizeAllocation(dict: Record<string, unknown>, version: number, fields: readonly string[] | null):
  Record<string, unknown> {
  if (version < V.ALLOCATION_OWNER) delete dict.owner;
  sanitize(dict, fields);
  return dict;
}

export function allocationView(base: string, a: AllocationRecord, nodeUuid: string | null, version: number,
  fields: readonly string[] | null): Record<string, unknown> {
  const dict = allocationDict(base, a, nodeUuid);
  checkInvalidFields(fields, Object.keys(dict));
  return sanitizeAllocation(dict, version, fields);
}
