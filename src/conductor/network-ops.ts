/** VIFs, traits, ports and portgroups under the node lock (manager.vif_*, *_node_traits, ports). */
import { InvalidState, NodeTraitNotFound, PortgroupNotEmpty } from '../common/errors';
import * as states from '../common/states';
import type { PortRecord, PortgroupRecord } from '../db/models';
import * as traitsRepo from '../db/repositories/node-traits';
import {
  deletePortRow, deletePortgroupRow, findPort, findPortgroup, insertPort, insertPortgroup, portgroupHasPorts,
  updatePortRow, updatePortgroupRow,
} from '../db/repositories/conductor-port-queries';
import type { VifInfo } from '../rpc/conductor-api';
import type { ConductorContext } from './context';
import { checkPortgroupMove, checkPortUpdate, validatePortPhysnet } from './port-rules';
import type { TaskManager } from './task-manager';

export async function vifAttach(tasks: TaskManager, nodeId: string, vif: VifInfo): Promise<void> {
  await tasks.run(nodeId, { purpose: 'attach vif' }, async (task) => {
    await task.driver.network.validate(task);
    await task.driver.network.vifAttach(task, vif);
  });
}

export async function vifDetach(tasks: TaskManager, nodeId: string, vifId: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'detach vif' }, async (task) => {
    await task.driver.network.validate(task);
    await task.driver.network.vifDetach(task, vifId);
  });
}

export async function vifList(tasks: TaskManager, nodeId: string): Promise<{ id: string }[]> {
  return tasks.run(nodeId, { shared: true, purpose: 'list vifs' }, async (task) => {
    await task.driver.network.validate(task);
    return task.driver.network.vifList(task);
  });
}

/** objects.Trait's VERSION, stamped on the rows as Ironic does. */
const TRAIT_OBJECT_VERSION = '1.0';

export async function addNodeTraits(ctx: ConductorContext, tasks: TaskManager, nodeId: string, traits: string[], replace: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'add node traits', loadDriver: false }, async (task) => {
    if (replace) await traitsRepo.setTraits(ctx.db, task.node.id, traits, TRAIT_OBJECT_VERSION);
    else for (const trait of traits) await traitsRepo.addTrait(ctx.db, task.node.id, trait, TRAIT_OBJECT_VERSION);
  });
}

export async function removeNodeTraits(ctx: ConductorContext, tasks: TaskManager, nodeId: string, traits: string[] | null): Promise<void> {
  await tasks.run(nodeId, { purpose: 'remove node traits', loadDriver: false }, async (task) => {
    if (traits !== null) {
      const have = await traitsRepo.traitNames(ctx.db, task.node.id);
      for (const t of traits) if (!have.includes(t)) throw new NodeTraitNotFound({ node_id: task.node.uuid, trait: t });
    }
    if (traits === null) await traitsRepo.removeAllTraits(ctx.db, task.node.id);
    else for (const trait of traits) await traitsRepo.removeTrait(ctx.db, task.node.id, trait);
  });
}

async function nodeUuidOf(ctx: ConductorContext, nodeId: number | null): Promise<string | null> {
  if (nodeId === null) return null;
  const row = await ctx.db.knex('nodes').where({ id: nodeId }).first('uuid') as { uuid: string } | undefined;
  return row?.uuid ?? null;
}

export async function createPort(ctx: ConductorContext, tasks: TaskManager, values: Partial<PortRecord>): Promise<PortRecord> {
  const nodeUuid = await nodeUuidOf(ctx, values.node_id ?? null);
  if (!nodeUuid) return insertPort(ctx.db, values);
  return tasks.run(nodeUuid, { purpose: 'port create' }, async (task) => {
    await validatePortPhysnet(ctx.db, values, Object.keys(values));
    await task.driver.network.validatePortCreate(task, values);
    return insertPort(ctx.db, values);
  });
}

/** update_port, under the lock of the node the port ends up on. */
export async function updatePort(ctx: ConductorContext, tasks: TaskManager, portUuid: string, changes: Partial<PortRecord>): Promise<PortRecord> {
  const port = await findPort(ctx.db, portUuid);
  const nodeUuid = await nodeUuidOf(ctx, changes.node_id ?? port.node_id);
  const apply = async () => {
    await updatePortRow(ctx.db, port.id, changes);
    return findPort(ctx.db, portUuid);
  };
  if (!nodeUuid) return apply();
  return tasks.run(nodeUuid, { purpose: 'port update' }, async (task) => {
    checkPortUpdate(task.node, port, changes);
    await validatePortPhysnet(ctx.db, { ...port, ...changes }, Object.keys(changes));
    await task.driver.network.validate(task);
    await task.driver.network.portChanged(task, port, changes);
    return apply();
  });
}

export async function destroyPort(ctx: ConductorContext, tasks: TaskManager, portUuid: string): Promise<void> {
  const port = await findPort(ctx.db, portUuid);
  const nodeUuid = await nodeUuidOf(ctx, port.node_id);
  if (!nodeUuid) return deletePortRow(ctx.db, port.id);
  await tasks.run(nodeUuid, { purpose: 'port deletion', loadDriver: false }, async (task) => {
    const vif = (port.internal_info ?? {}).tenant_vif_port_id ?? (port.extra ?? {}).vif_port_id;
    if (vif && task.node.provision_state === states.ACTIVE && !task.node.maintenance) {
      throw new InvalidState(`Cannot delete port ${port.uuid} as node ${task.node.uuid} is active or has VIFs attached`);
    }
    await deletePortRow(ctx.db, port.id);
  });
}

export async function createPortgroup(ctx: ConductorContext, tasks: TaskManager, values: Partial<PortgroupRecord>): Promise<PortgroupRecord> {
  const nodeUuid = await nodeUuidOf(ctx, values.node_id ?? null);
  if (!nodeUuid) return insertPortgroup(ctx.db, values);
  return tasks.run(nodeUuid, { purpose: 'portgroup create', loadDriver: false }, async () => insertPortgroup(ctx.db, values));
}

/** update_portgroup, under the lock of the node the portgroup ends up on. */
export async function updatePortgroup(ctx: ConductorContext, tasks: TaskManager, uuid: string,
  changes: Partial<PortgroupRecord>): Promise<PortgroupRecord> {
  const pg = await findPortgroup(ctx.db, uuid);
  const nodeUuid = await nodeUuidOf(ctx, changes.node_id ?? pg.node_id);
  const apply = async () => {
    await updatePortgroupRow(ctx.db, pg.id, changes);
    return findPortgroup(ctx.db, uuid);
  };
  if (!nodeUuid) return apply();
  return tasks.run(nodeUuid, { purpose: 'update portgroup' }, async (task) => {
    if (changes.node_id !== undefined && changes.node_id !== pg.node_id) await checkPortgroupMove(ctx.db, task.node, pg);
    await task.driver.network.validate(task);
    await task.driver.network.portgroupChanged(task, pg, changes);
    return apply();
  });
}

export async function destroyPortgroup(ctx: ConductorContext, tasks: TaskManager, uuid: string): Promise<void> {
  const pg = await findPortgroup(ctx.db, uuid);
  const nodeUuid = await nodeUuidOf(ctx, pg.node_id);
  const remove = async () => {
    // destroy_portgroup names the group by its database id, as 29.0.5 reports it.
    if (await portgroupHasPorts(ctx.db, pg.id)) throw new PortgroupNotEmpty({ portgroup: String(pg.id) });
    await deletePortgroupRow(ctx.db, pg.id);
  };
  if (!nodeUuid) return remove();
  await tasks.run(nodeUuid, { purpose: 'portgroup deletion', loadDriver: false }, async () => remove());
}
