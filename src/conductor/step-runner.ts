/**
 * The loop shared by deployment, cleaning and servicing (do_next_deploy_step,
 * do_next_clean_step, do_next_service_step): from an index of the node's step list, record each
 * step on the node, run it, pause on the flow's wait state, stop on a failure, and finish once no
 * step is left. What each flow does at those points (state transitions, messages, error handler)
 * is its own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../common/log';
import { pyRepr } from '../common/python/repr';
import { childNodeUuids } from '../db/repositories/nodes';
import * as states from '../common/states';
import type { StepResult } from '../drivers/base';
import { executeStep, type NodeStep } from './steps';
import type { Task } from './task';

type FlowKind = 'clean' | 'deploy' | 'service';

/** How one flow reacts around the shared loop. */
export interface StepFlow {
  readonly kind: FlowKind;
  /** What a step returns when it goes on asynchronously (`clean wait`, `wait call-back`...). */
  readonly waitState: string;
  /** The step is recorded on the node and about to run. */
  starting?(task: Task, step: NodeStep): void;
  /** The step raised: the flow's error handling. */
  failed(task: Task, step: NodeStep, err: unknown): Promise<void>;
  /** The step returned the wait state: pause until a callback resumes the flow. */
  waiting(task: Task): Promise<void>;
  /** The step returned neither nothing nor the wait state; without this hook that counts as done. */
  unexpected?(task: Task, step: NodeStep, result: string): Promise<void>;
  /** Every step ran. */
  finished(task: Task): Promise<void>;
  /** A step finished without going asynchronous; false stops the flow (the hook handled a failure). */
  stepDone?(task: Task, step: NodeStep): Promise<boolean>;
}

/** driver_internal_info.<kind>_steps: the list this flow runs. */
function stepList(task: Task, kind: FlowKind): NodeStep[] {
  return ((task.node.driver_internal_info ?? {})[`${kind}_steps`] ?? []) as NodeStep[];
}

/** The flag a driver sets while it polls for the end of an asynchronous step. */
const POLLING_FLAG = { clean: 'cleaning_polling', deploy: 'deployment_polling', service: 'servicing_polling' } as const;

/**
 * update_next_step_index: where a flow resumes after a step went asynchronous: the next step, or
 * the same one again when the driver said so (skip_current_<kind>_step false); null when none is
 * left. The skip and polling flags are consumed.
 */
export async function nextStepIndex(task: Task, kind: FlowKind): Promise<number | null> {
  const node = task.node;
  const info = { ...(node.driver_internal_info ?? {}) };
  const skip = info[`skip_current_${kind}_step`];
  delete info[`skip_current_${kind}_step`];
  delete info[POLLING_FLAG[kind]];
  node.driver_internal_info = info;
  await task.saveNode();
  const current = node[`${kind}_step`];
  if (!current || Object.keys(current).length === 0) return 0;
  const index = info[`${kind}_step_index`];
  if (typeof index !== 'number') return null;
  const next = skip === false ? index : index + 1;
  return next >= stepList(task, kind).length ? null : next;
}

/**
 * The node's <kind>_step and driver_internal_info.<kind>_step_index, saved before the step runs;
 * a polling flag left by the previous step is out of date.
 */
async function recordCurrentStep(task: Task, kind: FlowKind, step: NodeStep, index: number): Promise<void> {
  const node = task.node;
  node[`${kind}_step`] = { ...step };
  const info: Record<string, unknown> = { ...(node.driver_internal_info ?? {}), [`${kind}_step_index`]: index };
  delete info[POLLING_FLAG[kind]];
  node.driver_internal_info = info as typeof node.driver_internal_info;
  await task.saveNode();
}

const POWER_STEPS: ReadonlyMap<string, string> = new Map([
  ['power_on', states.POWER_ON], ['power_off', states.POWER_OFF], ['reboot', states.REBOOT],
]);

/** A `wait` step's pause: its `seconds`, at most [conductor]max_conductor_wait_step_seconds. */
async function waitStepPause(task: Task, step: NodeStep): Promise<void> {
  const max = task.ctx.conf.int('conductor', 'max_conductor_wait_step_seconds');
  let seconds = Math.trunc(Number((step.args ?? {}).seconds));
  if (seconds > max) {
    const warning = `A wait time exceeding the configured maximum has been requested. Holding for ${seconds}, got ${max}.`;
    await task.recordHistory(warning, task.node.provision_state ?? '', false);
    log.warning(warning);
    seconds = max;
  }
  await sleep(seconds * 1000);
  await task.processEvent('resume');
}

/**
 * use_reserved_step_handler: the step names the conductor runs itself. Power steps run and the flow
 * goes on ('used'); `hold` and `wait` move the node to the flow's hold or wait state and end this
 * run ('exit'), `wait` with `seconds` resuming once they passed. Anything else runs on its interface (null).
 */
async function reservedStep(task: Task, step: NodeStep): Promise<'used' | 'exit' | null> {
  const power = POWER_STEPS.get(step.step);
  if (power !== undefined) {
    await task.powerAction(power);
    return 'used';
  }
  if (step.step === 'hold') {
    await task.processEvent('hold');
    return 'exit';
  }
  if (step.step !== 'wait') return null;
  await task.processEvent('wait');
  if (Object.hasOwn(step.args ?? {}, 'seconds')) await waitStepPause(task, step);
  return 'exit';
}

/** A step meant for child nodes: all of them, or those of limit_child_node_execution when it names any. */
function childTargets(step: NodeStep): readonly string[] | null {
  const limit = (step as { limit_child_node_execution?: unknown }).limit_child_node_execution;
  return Array.isArray(limit) && limit.length > 0 ? limit.map(String) : null;
}

/**
 * execute_step_on_child_nodes: each child (locked in turn) runs the step itself, the reserved ones
 * included; the first result other than nothing (or the flow's wait state, where
 * [conductor]permit_child_node_step_async_result allows it) ends the loop with a message the parent's
 * flow treats as the step's invalid result. A child held elsewhere fails the step (NodeLocked).
 */
async function runOnChildNodes(task: Task, flow: StepFlow, step: NodeStep): Promise<string | null> {
  log.info(`Executing ${pyRepr(step)} on child nodes for node ${task.node.uuid}.`);
  for (const uuid of await childNodeUuids(task.ctx.db, task.node.uuid, childTargets(step))) {
    log.info(`Executing step ${pyRepr(step)} on child node ${uuid} for parent node ${task.node.uuid}`);
    const message = await task.holdNode(uuid, 'execute step', async (child) => {
      log.info(`Executing ${pyRepr(step)} on node ${child.node.uuid}`);
      const result = await reservedStep(child, step) === null ? await executeStep(child, step) : null;
      if (result === null || result === undefined) return null;
      if (result === flow.waitState && task.ctx.conf.bool('conductor', 'permit_child_node_step_async_result')) return null;
      return `While executing step ${pyRepr(step)} on child node ${child.node.uuid}, step returned invalid value: ${result}`;
    });
    if (message !== null) {
      log.error(message);
      return message;
    }
  }
  return null;
}

/** Runs one step; true when the flow goes on with the next one. */
async function runOne(task: Task, flow: StepFlow, step: NodeStep): Promise<boolean> {
  let result: StepResult;
  try {
    if ((step as { execute_on_child_nodes?: unknown }).execute_on_child_nodes) {
      result = await runOnChildNodes(task, flow, step);
    } else {
      const reserved = await reservedStep(task, step);
      if (reserved === 'exit') return false;
      result = reserved === 'used' ? null : await executeStep(task, step);
    }
  } catch (err) {
    await flow.failed(task, step, err);
    return false;
  }
  if (result === flow.waitState) {
    await flow.waiting(task);
    return false;
  }
  if (result !== null && result !== undefined && flow.unexpected) {
    await flow.unexpected(task, step, result);
    return false;
  }
  return true;
}

/** Runs the node's steps from `index` (none when null), then finishes the flow. */
export async function runSteps(task: Task, flow: StepFlow, index: number | null): Promise<void> {
  // The list is read again before each step: a step may change it in flight, as Ironic allows (a
  // fast-track deploy learns the agent's steps inside the `deploy` step).
  for (let i = index ?? 0; index !== null && i < stepList(task, flow.kind).length; i++) {
    const step = stepList(task, flow.kind)[i];
    await recordCurrentStep(task, flow.kind, step, i);
    flow.starting?.(task, step);
    if (!await runOne(task, flow, step)) return;
    if (flow.stepDone && !await flow.stepDone(task, step)) return;
  }
  await flow.finished(task);
}
