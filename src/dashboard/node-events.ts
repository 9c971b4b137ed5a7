/** What the event stream says about a node: the fields it shows, the event types, and the diff between two reads. */

/** The node fields every event carries (the contract with the dashboard's front end). */
export interface NodeView {
  uuid: string;
  name: string | null;
  provision_state: string | null;
  target_provision_state: string | null;
  power_state: string | null;
  target_power_state: string | null;
  maintenance: boolean;
  maintenance_reason: string | null;
  last_error: string | null;
  owner: string | null;
  lessee: string | null;
  conductor_group: string;
  driver: string;
  resource_class: string | null;
  updated_at: string | null;
}

interface HistoryView {
  event: string | null;
  event_type: string | null;
  severity: string | null;
  created_at: string | null;
  user: string | null;
}

export const EVENT_TYPES = ['created', 'deleted', 'provision_state', 'power_state', 'maintenance', 'last_error', 'history', 'updated'] as const;
export type NodeEventType = typeof EVENT_TYPES[number];

export interface NodeEvent {
  type: NodeEventType;
  node: NodeView;
  history?: HistoryView;
  /** On `updated`: the node before, so a stream whose caller gains or loses sight of it (owner, lessee) can say so. */
  previous?: NodeView;
}

/** Which fields make which event type; `updated` covers the rest of the view. */
const FIELDS_OF: ReadonlyArray<[NodeEventType, ReadonlyArray<keyof NodeView>]> = [
  ['provision_state', ['provision_state', 'target_provision_state']],
  ['power_state', ['power_state', 'target_power_state']],
  ['maintenance', ['maintenance', 'maintenance_reason']],
  ['last_error', ['last_error']],
  ['updated', ['name', 'owner', 'lessee', 'conductor_group', 'driver', 'resource_class']],
];

/** The events a change from `before` to `after` makes (none when only updated_at or a lock moved). */
export function diffNode(before: NodeView, after: NodeView): NodeEvent[] {
  const events: NodeEvent[] = [];
  for (const [type, fields] of FIELDS_OF) {
    if (fields.some((f) => before[f] !== after[f])) events.push({ type, node: after, ...(type === 'updated' ? { previous: before } : {}) });
  }
  return events;
}
