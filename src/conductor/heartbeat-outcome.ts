/**
 * Acting on what the deploy interface made of a heartbeat: what Ironic's HeartbeatMixin does to
 * the flow itself (resume deploy or cleaning, finish a rescue, or fail the operation) happens
 * here, under the heartbeat's exclusive lock.
 */
import * as states from '../common/states';
import type { HeartbeatOutcome } from '../drivers/base';
import { continueNodeClean, restartNodeClean, resumeCleaning, startNodeClean } from './continue-clean';
import { cleaningErrorHandler, deployingErrorHandler, errorText, servicingErrorHandler, setFailedState } from './error-handlers';
import { finishRescue, rescuingErrorHandler } from './rescue-finish';
import { continueNodeService, startNodeService } from './servicing';
import type { Task } from './task';

type Outcome = NonNullable<HeartbeatOutcome>;

async function actOnDeploy(task: Task, outcome: Outcome, continueNodeDeploy: (task: Task) => Promise<void>): Promise<void> {
  if (outcome.action === 'continue-deploy') {
    await task.processEvent('resume');
    try {
      await continueNodeDeploy(task);
    } catch (err) {
      await deployingErrorHandler(task, `Unexpected error when processing next deploy step: ${errorText(err)}`);
    }
  } else if (outcome.action === 'fail-deploy' && [states.DEPLOYING, states.DEPLOYWAIT].includes(task.node.provision_state ?? '')) {
    if (outcome.setFailedState) await setFailedState(task, outcome.message);
    else await deployingErrorHandler(task, outcome.message);
  }
}

export async function actOnHeartbeat(task: Task, outcome: Outcome, continueNodeDeploy: (task: Task) => Promise<void>): Promise<void> {
  const state = task.node.provision_state ?? '';
  switch (outcome.action) {
    case 'start-clean':
      return startNodeClean(task, outcome.errorPrefix);
    case 'continue-clean':
      if (outcome.resetSteps) return restartNodeClean(task);
      await resumeCleaning(task);
      return continueNodeClean(task);
    case 'fail-clean':
      if ([states.CLEANING, states.CLEANWAIT].includes(state)) {
        await cleaningErrorHandler(task, outcome.message, { errmsg: outcome.errmsg });
      }
      return;
    case 'finish-rescue':
      return finishRescue(task, outcome.errorPrefix);
    case 'fail-rescue':
      if ([states.RESCUING, states.RESCUEWAIT].includes(state)) await rescuingErrorHandler(task, outcome.message);
      return;
    case 'start-service':
      return startNodeService(task, outcome.errorPrefix);
    case 'continue-service':
      await task.processEvent('resume');
      return continueNodeService(task);
    case 'fail-service':
      if ([states.SERVICING, states.SERVICEWAIT].includes(state)) {
        await servicingErrorHandler(task, outcome.message, { errmsg: outcome.errmsg });
      }
      return;
    default:
      return actOnDeploy(task, outcome, continueNodeDeploy);
  }
}
