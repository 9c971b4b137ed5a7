/**
 * Where Ironic sends notifications, as call sites use them: the API's start/end/error around a
 * resource change (api/controllers/v1/notification_utils.py) and the conductor's node events
 * (conductor/notification_utils.py). Payload sources are copied when the event happens; sending
 * (with the node's traits read for node payloads) runs in order behind the caller, never in its way.
 */
import type { Database } from '../db/connection';
import { traitsByNode } from '../db/repositories/node-relations';
import { currentRequestId, log } from '../common/log';
import { emitNotification, notificationsEnabled, Notification, NotificationLevel, NotificationStatus } from './notifier';
import type { PayloadName } from './payloads';

/** api/controllers/v1/notification_utils.py CRUD_NOTIFY_OBJ: event object -> payload class. */
const CRUD_PAYLOADS = new Map<string, PayloadName>([
  ['allocation', 'AllocationCRUDPayload'], ['chassis', 'ChassisCRUDPayload'],
  ['deploytemplate', 'DeployTemplateCRUDPayload'], ['node', 'NodeCRUDPayload'], ['port', 'PortCRUDPayload'],
  ['portgroup', 'PortgroupCRUDPayload'], ['runbook', 'RunbookCRUDPayload'],
  ['volumeconnector', 'VolumeConnectorCRUDPayload'], ['volumetarget', 'VolumeTargetCRUDPayload'],
  ['inspectionrule', 'InspectionRuleCRUDPayload'],
]);

type ApiObject = 'allocation' | 'chassis' | 'deploytemplate' | 'node' | 'port' | 'portgroup' | 'runbook'
  | 'volumeconnector' | 'volumetarget' | 'inspectionrule';

let chain: Promise<void> = Promise.resolve();
/** Notifications waiting for their turn; past MAX_PENDING (a stalled database) new ones are dropped. */
let pending = 0;
const MAX_PENDING = 1000;

/** Node payloads carry the node's trait names; read them unless the source has them already. */
function withTraits(db: Database | null, n: Notification): void {
  const source = n.source as { id?: unknown; traits?: unknown };
  const given = Array.isArray(source.traits) ? source.traits.map((t) => (typeof t === 'string' ? t : (t as { trait: string }).trait)) : null;
  const needsTraits = n.payloadName.startsWith('Node');
  if (pending >= MAX_PENDING) {
    log.warning(`Dropped baremetal.${n.object}.${n.action}.${n.status} notification: ${pending} are waiting to be sent`);
    return;
  }
  pending++;
  chain = chain.then(async () => {
    let traits = given;
    if (needsTraits && traits === null && db !== null && typeof source.id === 'number') {
      traits = (await traitsByNode(db.knex, [source.id])).get(source.id) ?? [];
    }
    emitNotification(needsTraits ? { ...n, extra: { traits: traits ?? [], ...n.extra } } : n);
  }).catch((err: unknown) => log.warning(`Failed to send baremetal.${n.object}.${n.action}.${n.status} notification: ${String(err)}`))
    .finally(() => { pending--; });
}

function send(db: Database | null, n: Notification): void {
  if (!notificationsEnabled(n.level)) return;
  withTraits(db, { ...n, source: structuredClone(n.source), extra: n.extra && structuredClone(n.extra) });
}

/** What an API call site knows about its request. */
export interface ApiNotifyContext {
  requestId: string;
  db: Database;
}

function apiEvent(ctx: ApiNotifyContext, object: ApiObject, action: string, status: NotificationStatus,
  source: object, extra?: Record<string, unknown>): void {
  const level: NotificationLevel = status === 'error' ? 'error' : 'info';
  const payloadName: PayloadName = action === 'maintenance_set' ? 'NodePayload' : CRUD_PAYLOADS.get(object) as PayloadName;
  send(ctx.db, { service: 'ironic-api', object, action, status, level, payloadName, source, extra, requestId: ctx.requestId });
}

/**
 * emit_start_notification, handle_error_notification and emit_end_notification around `change`:
 * the end notification describes what `change` returns (the stored object), or `source` again.
 */
export async function notifyApiChange<T extends object | void>(
  ctx: ApiNotifyContext, object: ApiObject, action: 'create' | 'update' | 'delete' | 'maintenance_set',
  source: object, change: () => Promise<T>, extra?: Record<string, unknown>, endExtra?: (result: T) => Record<string, unknown>,
): Promise<T> {
  apiEvent(ctx, object, action, 'start', source, extra);
  let result: T;
  try {
    result = await change();
  } catch (err) {
    apiEvent(ctx, object, action, 'error', source, extra);
    throw err;
  }
  const after = result !== undefined && result !== null && typeof result === 'object' ? result : source;
  apiEvent(ctx, object, action, 'end', after, endExtra ? endExtra(result) : extra);
  return result;
}

/** What the conductor's node events need from a task. */
interface NodeTaskLike {
  readonly node: object & { id: number };
  readonly ctx: { readonly db: Database };
}

function conductorEvent(task: NodeTaskLike, action: string, status: NotificationStatus, level: NotificationLevel,
  payloadName: PayloadName, extra: Record<string, unknown>): void {
  send(task.ctx.db, {
    service: 'ironic-conductor', object: 'node', action, status, level, payloadName, source: task.node, extra, requestId: currentRequestId(),
  });
}

/** emit_provision_set_notification (task_manager's _notify_provision_state_change decides status and level). */
export function notifyProvisionSet(task: NodeTaskLike, level: NotificationLevel, status: NotificationStatus,
  prevState: string | null, prevTarget: string | null, event: string): void {
  conductorEvent(task, 'provision_set', status, level, 'NodeSetProvisionStatePayload',
    { previous_provision_state: prevState, previous_target_provision_state: prevTarget, event });
}

/** emit_power_set_notification. */
export function notifyPowerSet(task: NodeTaskLike, level: NotificationLevel, status: NotificationStatus, toPower: string): void {
  conductorEvent(task, 'power_set', status, level, 'NodeSetPowerStatePayload', { to_power: toPower });
}

/** emit_power_state_corrected_notification. */
export function notifyPowerStateCorrected(task: NodeTaskLike, fromPower: string | null): void {
  conductorEvent(task, 'power_state_corrected', 'success', 'info', 'NodeCorrectedPowerStatePayload', { from_power: fromPower });
}

/** emit_console_notification: `console_set` or `console_restore`; errors at error level. */
export function notifyConsole(task: NodeTaskLike, action: 'console_set' | 'console_restore', status: NotificationStatus): void {
  conductorEvent(task, action, status, status === 'error' ? 'error' : 'info', 'NodePayload', {});
}
