/**
 * Callback timeouts (_check_deploy_timeouts, _check_cleanwait_timeouts,
 * _check_inspect_wait_timeouts, _check_rescuewait_timeouts, _check_servicewait_timeouts).
 */
import * as states from '../../common/states';
import { cleaningErrorHandler, deployingErrorHandler, servicingErrorHandler } from '../error-handlers';
import type { ConductorManager } from '../manager';
import type { RingManager } from '../../rpc/ring-manager';
import type { Task } from '../task';
import { failIfInState } from './fail-in-state';
import { maskForEcho } from '../../common/mask';
import { pyRepr } from '../../common/python/repr';

type Check = (manager: ConductorManager, rings: RingManager) => Promise<void>;

const waitFilter = (state: string, timeout: number) =>
  ({ reserved: false, provisionState: [state], maintenance: false, provisionedBeforeSeconds: timeout });

export const checkDeployTimeouts: Check = async (manager, rings) => {
  const timeout = manager.ctx.conf.int('conductor', 'deploy_callback_timeout');
  if (timeout <= 0) return;
  await failIfInState(manager, rings, waitFilter(states.DEPLOYWAIT, timeout), [states.DEPLOYWAIT], {
    callback: async (task: Task) => {
      const msg = `Timeout reached while waiting for callback for node ${task.node.uuid}`;
      await deployingErrorHandler(task, msg, msg);
    },
  });
};

export const checkCleanwaitTimeouts: Check = async (manager, rings) => {
  const timeout = manager.ctx.conf.int('conductor', 'clean_callback_timeout');
  if (timeout <= 0) return;
  await failIfInState(manager, rings, waitFilter(states.CLEANWAIT, timeout), [states.CLEANWAIT], {
    keepTargetState: true,
    callback: async (task: Task) => {
      const lastError = 'Timeout reached while cleaning the node. Please check if the ramdisk responsible for the ' +
        `cleaning is running on the node. Failed on step ${pyRepr(maskForEcho(task.node.clean_step ?? {}))}.`;
      await cleaningErrorHandler(task, `Cleaning for node ${task.node.uuid} failed. ${lastError}`,
        { errmsg: lastError, setFailState: false });
    },
  });
};

export const checkInspectWaitTimeouts: Check = async (manager, rings) => {
  const timeout = manager.ctx.conf.int('conductor', 'inspect_wait_timeout');
  if (timeout <= 0) return;
  // Measured from inspection_started_at, not provision_updated_at (inspection_started_before).
  await failIfInState(manager, rings, { reserved: false, maintenance: false, provisionState: [states.INSPECTWAIT],
    inspectionStartedBeforeSeconds: timeout }, [states.INSPECTWAIT], {
    lastError: 'timeout reached while inspecting the node',
  });
};

export const checkRescuewaitTimeouts: Check = async (manager, rings) => {
  const timeout = manager.ctx.conf.int('conductor', 'rescue_callback_timeout');
  if (timeout <= 0) return;
  await failIfInState(manager, rings, waitFilter(states.RESCUEWAIT, timeout), [states.RESCUEWAIT], {
    keepTargetState: true,
    callback: async (task: Task) => {
      const msg = 'Timeout reached while waiting for rescue ramdisk callback for node';
      try {
        await task.powerAction(states.POWER_OFF);
        await task.driver.rescue.cleanUp(task);
        await task.recordHistory(msg, states.HISTORY_RESCUE, true);
      } catch (err) {
        await task.recordHistory(`Rescue operation was unsuccessful, clean up failed for node: ${(err as Error).message}`,
          states.HISTORY_RESCUE, true);
      }
      await task.saveNode();
    },
  });
};

export const checkServicewaitTimeouts: Check = async (manager, rings) => {
  const timeout = manager.ctx.conf.int('conductor', 'service_callback_timeout');
  if (timeout <= 0) return;
  await failIfInState(manager, rings, waitFilter(states.SERVICEWAIT, timeout), [states.SERVICEWAIT], {
    keepTargetState: true,
    callback: async (task: Task) => {
      const lastError = 'Timeout reached while servicing the node. Please check if the ramdisk responsible for the ' +
        `servicing is running on the node. Failed on step ${pyRepr(maskForEcho(task.node.service_step ?? {}))}.`;
      await servicingErrorHandler(task, lastError, lastError, false);
    },
  });
};
