/**
 * Resuming cleaning after an asynchronous clean step (cleaning.continue_node_clean) and
 * starting it when the ramdisk first calls back (the conductor half of
 * _heartbeat_clean_wait): the next step index is computed from the node, an `abort_after`
 * request is honoured, and the remaining steps run.
 */
import { log } from '../common/log';
import * as states from '../common/states';
import { cleanAbort } from './abort';
import { continueCleanSteps, setNodeCleaningSteps } from './cleaning';
import { cleaningErrorHandler, errorText } from './error-handlers';
import { nextStepIndex } from './step-runner';
import type { Task } from './task';

/** task.resume_cleaning: back to `cleaning`, keeping manageable as the target of a manual cleaning. */
export async function resumeCleaning(task: Task): Promise<void> {
  const manual = task.node.target_provision_state === states.MANAGEABLE;
  await task.processEvent('resume', { targetState: manual ? states.MANAGEABLE : null });
}

async function continueNodeCleanUnguarded(task: Task): Promise<void> {
  const node = task.node;
  const next = await nextStepIndex(task, 'clean');
  const current = (node.clean_step ?? {}) as Record<string, unknown>;
  if (current.abort_after) {
    if (next !== null) {
      log.debug(`The cleaning operation for node ${node.uuid} was marked to be aborted after step "${String(current.step)}" ` +
        'completed. Aborting now that it has completed.');
      const manual = node.target_provision_state === states.MANAGEABLE;
      await task.processEvent('fail', { targetState: manual ? states.MANAGEABLE : null });
      await cleanAbort(task);
      return;
    }
    log.debug(`The cleaning operation for node ${node.uuid} was marked to be aborted after step "${String(current.step)}" ` +
      'completed. However, since there are no more clean steps after this, the abort is not going to be done.');
  }
  await continueCleanSteps(task, next);
}

/** continue_node_clean, with its fail_on_error guard. */
export async function continueNodeClean(task: Task): Promise<void> {
  try {
    await continueNodeCleanUnguarded(task);
  } catch (err) {
    const name = err instanceof Error ? (err as { kind?: string }).kind ?? err.name : 'Error';
    await cleaningErrorHandler(task, `Unexpected error when processing next clean step. ${name}: ${errorText(err)}`);
  }
}

/** The ramdisk is up and its steps are cached: resume, set the node's clean steps, run them. */
export async function startNodeClean(task: Task, errorPrefix: string): Promise<void> {
  await resumeCleaning(task);
  try {
    await setNodeCleaningSteps(task);
  } catch (err) {
    const lastError = `${errorPrefix}: ${errorText(err)}`;
    await cleaningErrorHandler(task, `Asynchronous exception for node ${task.node.uuid}: ${lastError}`, { errmsg: lastError });
    return;
  }
  await continueNodeClean(task);
}

/** A new agent version during automated cleaning: the step list is computed again and cleaning restarts. */
export async function restartNodeClean(task: Task): Promise<void> {
  await resumeCleaning(task);
  try {
    await setNodeCleaningSteps(task);
  } catch (err) {
    await cleaningErrorHandler(task, `Could not restart automated cleaning on node ${task.node.uuid}: ${errorText(err)}.`);
    return;
  }
  await continueNodeClean(task);
}
