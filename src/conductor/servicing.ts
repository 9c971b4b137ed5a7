/** Servicing an active node with user steps (conductor/servicing.py). */
import { InvalidParameterValue, InvalidStateRequested } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import type { Step } from '../rpc/conductor-api';
import { errorText, provisioningErrorHandler, servicingErrorHandler, wipeServiceInternalInfo } from './error-handlers';
import { isActionable } from './fsm';
import { maskForEcho } from '../common/mask';
import { pyRepr } from '../common/python/repr';
import { runSteps, type StepFlow } from './step-runner';
import { NodeStep, validateUserSteps } from './steps';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

export async function doNodeService(tasks: TaskManager, nodeId: string, serviceSteps: Step[], disableRamdisk = false): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node service' }, async (task) => {
    try {
      await task.driver.power.validate(task);
    } catch (err) {
      if (err instanceof InvalidParameterValue) {
        throw new InvalidParameterValue(`RPC do_node_service failed to validate power info. Can not service node ` +
          `${task.node.uuid}. Error: ${err.message}`);
      }
      throw err;
    }
    if (!isActionable(task.node.provision_state, 'service')) {
      throw new InvalidStateRequested({ action: 'service', node: task.node.uuid, state: task.node.provision_state });
    }
    await task.processEvent('service', {
      spawn: (t) => runServicing(t, serviceSteps, disableRamdisk), errHandler: provisioningErrorHandler,
    });
  });
}

async function runServicing(task: Task, userSteps: Step[], disableRamdisk: boolean): Promise<void> {
  const node = task.node;
  let steps: NodeStep[];
  try {
    steps = validateUserSteps(task, 'service', userSteps, { disableRamdisk });
  } catch (err) {
    await servicingErrorHandler(task, `Cannot service node ${node.uuid}: ${errorText(err)}`);
    return;
  }
  node.service_step = {};
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), service_steps: steps, service_step_index: null };
  await task.saveNode();
  await continueServiceSteps(task, 0);
}

/** do_next_service_step's reactions: the servicing error handler, `wait`, and `done` -> active. */
const SERVICE_FLOW: StepFlow = {
  kind: 'service',
  waitState: states.SERVICEWAIT,
  async failed(task, step, err) {
    await servicingErrorHandler(task, `Node ${task.node.uuid} failed step ${pyRepr(maskForEcho(step))}: ${errorText(err)}`);
  },
  waiting: (task) => task.processEvent('wait'),
  async finished(task) {
    task.node.service_step = null;
    wipeServiceInternalInfo(task);
    await task.saveNode();
    log.info(`Node ${task.node.uuid} service complete`);
    await task.processEvent('done');
  },
};

/** do_next_service_step: runs the steps from `index`; a wait pauses, the end returns to active. */
async function continueServiceSteps(task: Task, index: number): Promise<void> {
  await runSteps(task, SERVICE_FLOW, index);
}

/**
 * continue_node_service: after unhold (or a callback) servicing resumes with the step after the
 * current one, unless the driver asked for the current step to run again.
 */
export async function continueNodeService(task: Task): Promise<void> {
  const node = task.node;
  const info = { ...(node.driver_internal_info ?? {}) };
  const current = typeof info.service_step_index === 'number' ? info.service_step_index : -1;
  const skipCurrent = info.skip_current_service_step !== false;
  delete info.skip_current_service_step;
  node.driver_internal_info = info;
  if (node.provision_state === states.SERVICEWAIT) await task.processEvent('resume');
  await continueServiceSteps(task, skipCurrent ? current + 1 : Math.max(current, 0));
}
