/** Node create/update/delete/validate: the conductor's half of the node resource (manager.py). */
import { randomUUID } from 'node:crypto';
import {
  InvalidParameterValue, InvalidState, NodeAssociated, NodeProtected, UnsupportedDriverExtension,
} from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import type { NodeRecord } from '../db/models';
import { STATE_LIMITED_FIELDS, StateLimitedField } from '../db/node-field-lists';
import * as nodesRepo from '../db/repositories/nodes';
import { INTERFACE_KINDS, NON_VENDOR_KINDS } from '../drivers/base';
import type { InterfaceValidation } from '../rpc/conductor-api';
import type { ConductorContext } from './context';
import { errorText } from './error-handlers';
import { pyReprTuple } from '../common/python/repr';
import { validateDeployStepsAndTemplates, validateInstanceInfoTraits } from './deploy-validation';
import type { TaskManager } from './task-manager';

export async function createNode(ctx: ConductorContext, values: Partial<NodeRecord> & { traits?: string[] }): Promise<NodeRecord> {
  const { traits, ...fields } = values;
  // Node object version of Ironic 21.4.4: a newer one makes 21.4.4 refuse to load the row (rollback).
  const node = {
    uuid: randomUUID(), provision_state: states.ENROLL, version: '1.37', ...fields,
  } as NodeRecord;
  ctx.driverFactory.checkAndUpdateNodeInterfaces(node);
  return nodesRepo.create(ctx.db, node, traits ?? []);
}

/**
 * The refusal of a change to a field the registry limits to some provision states (patchStates), or
 * null when it is allowed. `current` is the node as stored, `node` with the changes applied.
 */
function stateRefusal(field: StateLimitedField, current: NodeRecord, node: NodeRecord): string | null {
  const rule = field.patchStates;
  const name = field.name as keyof NodeRecord;
  const state = current.provision_state ?? '';
  if (rule.states.includes(state) || (rule.orMaintenance && node.maintenance)) return null;
  const allowed = rule.states.join(', ');
  if (rule.settingTrue) {
    return node[name] ? `Node ${node.uuid} can only be made ${field.name} in provision states ` +
      `${rule.states.map((s) => `'${s}'`).join(' or ')}, the current state is '${current.provision_state}'` : null;
  }
  if (rule.onceSet) {
    return current[name] && node[name] !== current[name]
      ? `Node ${node.uuid} can not have ${field.name} updated unless it is in one of allowed (${allowed}) states.` : null;
  }
  return `Node ${node.uuid} can not have ${field.name} updated unless it is in one of allowed (${allowed}) states` +
    `${rule.orMaintenance ? ' or in maintenance mode' : ''}.`;
}

/** update_node's state rules, for each changed field the registry limits. */
function checkPatchStates(current: NodeRecord, node: NodeRecord, changes: Partial<NodeRecord>): void {
  for (const field of STATE_LIMITED_FIELDS) {
    if (!Object.hasOwn(changes, field.name)) continue;
    const refusal = stateRefusal(field, current, node);
    if (refusal !== null) throw new InvalidState(refusal);
  }
}

function checkProtected(node: NodeRecord, changes: Partial<NodeRecord>): void {
  if ('protected' in changes && !node.protected) node.protected_reason = null;
  if ('protected_reason' in changes && changes.protected_reason && !node.protected) {
    throw new InvalidParameterValue('The protected_reason field can only be set when protected is True');
  }
}

function checkRetired(node: NodeRecord, changes: Partial<NodeRecord>): void {
  if ('retired' in changes && !node.retired) node.retired_reason = null;
  if ('retired_reason' in changes && changes.retired_reason && !node.retired) {
    throw new InvalidParameterValue('The retired_reason field can only be set when retired is True');
  }
}

export async function updateNode(ctx: ConductorContext, tasks: TaskManager, nodeUuid: string, changes: Partial<NodeRecord>,
  resetInterfaces = false): Promise<NodeRecord> {
  return tasks.run(nodeUuid, { purpose: 'node update', loadDriver: false }, async (task) => {
    const current = task.node;
    if ('instance_uuid' in changes && changes.instance_uuid && current.instance_uuid &&
      changes.instance_uuid !== current.instance_uuid) {
      throw new NodeAssociated({ node: current.uuid, instance: current.instance_uuid });
    }
    const node = { ...current, ...changes } as NodeRecord;
    checkPatchStates(current, node, changes);
    if ('maintenance' in changes && !node.maintenance) {
      node.maintenance_reason = null;
      node.fault = null;
    }
    checkProtected(node, changes);
    checkRetired(node, changes);
    const updatingDriver = 'driver' in changes && changes.driver !== current.driver;
    let checkInterfaces = updatingDriver;
    for (const kind of INTERFACE_KINDS) {
      const field = `${kind}_interface` as const;
      if (!Object.hasOwn(changes, field)) {
        if (updatingDriver && resetInterfaces) node[field] = null;
        continue;
      }
      checkInterfaces = true;
    }
    if (checkInterfaces) ctx.driverFactory.checkAndUpdateNodeInterfaces(node);
    task.node = node;
    await task.saveNode();
    return node;
  });
}

export async function destroyNode(ctx: ConductorContext, tasks: TaskManager, nodeUuid: string): Promise<void> {
  await tasks.run(nodeUuid, { purpose: 'node deletion', loadDriver: false }, async (task) => {
    const node = task.node;
    if (!node.maintenance && node.instance_uuid !== null) {
      throw new NodeAssociated({ node: node.uuid, instance: node.instance_uuid });
    }
    if (node.protected) throw new NodeProtected({ node: node.uuid });
    const allowed = [...states.DELETE_ALLOWED_STATES];
    if (ctx.conf.bool('conductor', 'allow_deleting_available_nodes')) allowed.push(states.AVAILABLE);
    if (!node.maintenance && !allowed.includes(node.provision_state ?? '')) {
      throw new InvalidState(`Can not delete node "${node.uuid}" while it is in provision state "${node.provision_state}". ` +
        `Valid provision states to perform deletion are: "${pyReprTuple(allowed)}", or set the node into maintenance mode`);
    }
    if (node.console_enabled) {
      try {
        await task.driver.console.stopConsole(task);
      } catch (err) {
        log.error(`Failed to stop console while deleting the node ${node.uuid}: ${errorText(err)}.`);
      }
    }
    // Ironic's destroy_node: ports, portgroups, traits, tags, volume objects and allocations go too.
    await nodesRepo.destroy(ctx.db, node.id);
    log.info(`Successfully deleted node ${node.uuid}.`);
  });
}

export async function validateDriverInterfaces(ctx: ConductorContext, tasks: TaskManager,
  nodeUuid: string): Promise<Record<string, InterfaceValidation>> {
  return tasks.run(nodeUuid, { shared: true, purpose: 'driver interface validation' }, async (task) => {
    const out: Record<string, InterfaceValidation> = {};
    for (const kind of NON_VENDOR_KINDS) {
      let result: InterfaceValidation;
      try {
        await task.driver[kind].validate(task);
        if (kind === 'deploy') {
          await validateInstanceInfoTraits(task);
          // Without an agent the full step list is unknown: steps not known yet are skipped.
          await validateDeployStepsAndTemplates(task, undefined, true);
        }
        result = { result: true };
      } catch (err) {
        if (err instanceof InvalidParameterValue || err instanceof UnsupportedDriverExtension) {
          result = { result: false, reason: errorText(err) };
        } else {
          result = { result: false, reason: `Unexpected exception, traceback saved into log by ironic conductor ` +
            `service that is running on ${ctx.host}: ${errorText(err)}` };
        }
      }
      out[kind] = result;
    }
    return out;
  });
}
