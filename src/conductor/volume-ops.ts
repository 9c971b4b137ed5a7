/**
 * update/destroy_volume_connector and _target (manager.py): the change is made under the node's
 * exclusive lock and only while the node is powered off.
 */
import { InvalidStateRequested } from '../common/errors';
import * as states from '../common/states';
import type { Database } from '../db/connection';
import type { VolumeConnectorRecord, VolumeTargetRecord } from '../db/models';
import * as connectorsRepo from '../db/repositories/volume-connectors';
import * as targetsRepo from '../db/repositories/volume-targets';
import type { ConductorContext } from './context';
import type { TaskManager } from './task-manager';

type VolumeRecord = VolumeConnectorRecord | VolumeTargetRecord;

/** The rows of one volume kind, and its noun in messages and lock purposes. */
interface VolumeRows<R extends VolumeRecord> {
  noun: string;
  get(db: Database, ident: string | number): Promise<R>;
  update(db: Database, ident: number, values: Partial<R>): Promise<R>;
  destroy(db: Database, ident: number): Promise<void>;
}

export const CONNECTORS: VolumeRows<VolumeConnectorRecord> = { noun: 'connector', ...connectorsRepo };
export const TARGETS: VolumeRows<VolumeTargetRecord> = { noun: 'target', ...targetsRepo };

async function underPoweredOffNode<T>(tasks: TaskManager, nodeId: number, action: string, fn: () => Promise<T>): Promise<T> {
  return tasks.run(nodeId, { purpose: action, loadDriver: false }, async (task) => {
    if (task.node.power_state !== states.POWER_OFF) {
      throw new InvalidStateRequested({ action, node: task.node.uuid, state: task.node.power_state });
    }
    return fn();
  });
}

/** Locks the node the record belongs to (the new node only for a record without one). */
export async function updateVolume<R extends VolumeRecord>(ctx: ConductorContext, tasks: TaskManager, rows: VolumeRows<R>,
  uuid: string, changes: Partial<R>): Promise<R> {
  const record = await rows.get(ctx.db, uuid);
  const nodeId = record.node_id ?? changes.node_id ?? -1;
  return underPoweredOffNode(tasks, nodeId, `volume ${rows.noun} update`, async () =>
    Object.keys(changes).length ? rows.update(ctx.db, record.id, changes) : record);
}

export async function destroyVolume<R extends VolumeRecord>(ctx: ConductorContext, tasks: TaskManager, rows: VolumeRows<R>,
  uuid: string): Promise<void> {
  const record = await rows.get(ctx.db, uuid);
  await underPoweredOffNode(tasks, record.node_id ?? -1, `volume ${rows.noun} deletion`, () => rows.destroy(ctx.db, record.id));
}
