/** Hardware inspection (manager.inspect_hardware / _do_inspect_hardware). */
import { InvalidStateRequested, IronicError } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { errorText, provisioningErrorHandler } from './error-handlers';
import { isActionable } from './fsm';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

export async function inspectHardware(tasks: TaskManager, nodeId: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'inspect hardware' }, async (task) => {
    // Validation errors reach the caller as they are (a bad driver_info is the client's 400).
    await task.driver.power.validate(task);
    await task.driver.inspect.validate(task);
    if (!isActionable(task.node.provision_state, 'inspect')) {
      throw new InvalidStateRequested({ action: 'inspect', node: task.node.uuid, state: task.node.provision_state });
    }
    await task.processEvent('inspect', { spawn: runInspection, errHandler: provisioningErrorHandler });
  });
}

/** Inspection cannot start in fast-track mode: the agent's token and URL go (wipe_token_and_url). */
function wipeTokenAndUrl(task: Task): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  for (const k of ['agent_secret_token', 'agent_secret_token_pregenerated', 'agent_url', 'agent_verify_ca']) delete info[k];
  task.node.driver_internal_info = info;
}

async function runInspection(task: Task): Promise<void> {
  const node = task.node;
  wipeTokenAndUrl(task);
  let next: string;
  try {
    next = await task.driver.inspect.inspectHardware(task);
  } catch (err) {
    // An Ironic error is recorded as it reads; anything else with its type, as Ironic does.
    const error = err instanceof IronicError ? err.message
      : `Unexpected exception of type ${err instanceof Error ? err.name : 'Error'}: ${errorText(err)}`;
    log.error(`Failed to inspect node ${node.uuid}: ${error}`);
    await task.recordHistory(error, states.HISTORY_INTROSPECTION, true);
    await task.processEvent('fail');
    return;
  }
  if (next === states.MANAGEABLE) {
    await task.processEvent('done');
    log.info(`Successfully inspected node ${node.uuid}`);
  } else if (next === states.INSPECTWAIT) {
    await task.processEvent('wait');
  } else {
    const error = `During inspection, driver returned unexpected state ${next}`;
    await task.recordHistory(error, states.HISTORY_INTROSPECTION, true);
    await task.processEvent('fail');
  }
}
