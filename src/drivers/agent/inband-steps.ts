/**
 * The agent's in-band steps, one code for cleaning and servicing (AgentBaseMixin.refresh_steps and
 * execute_step with step_type 'clean' or 'service'): fetched from the agent when it first
 * heartbeats, cached in driver_internal_info.agent_cached_<kind>_steps by interface, and run through
 * the agent's `<kind>.execute_<kind>_step`, which it finishes asynchronously.
 */
import { AgentInProgress, NodeCleaningFailure, NodeServicingFailure, type IronicErrorClass } from '../../common/errors';
import { log } from '../../common/log';
import { pyRepr, pyReprSet } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, JsonObject } from '../base';
import type { AgentClient, InbandStepKind } from './client';
import { agentNodeDict } from './node-dict';

interface KindFacts {
  failure: IronicErrorClass;
  /** The state the flow waits in while the agent runs a step. */
  waitState: string;
  /** What the cached steps carry beyond the agent's own fields. */
  extra: JsonObject;
}

const KINDS: ReadonlyMap<InbandStepKind, KindFacts> = new Map<InbandStepKind, KindFacts>([
  ['clean', { failure: NodeCleaningFailure, waitState: states.CLEANWAIT, extra: { requires_ramdisk: true } }],
  ['service', { failure: NodeServicingFailure, waitState: states.SERVICEWAIT, extra: {} }],
]);

const facts = (kind: InbandStepKind): KindFacts => KINDS.get(kind)!;

const pythonIsoNow = () => new Date().toISOString().replace('Z', '000');

/** The steps cached for `kind`, by interface. */
export function cachedAgentSteps(task: DriverTask, kind: InbandStepKind): Record<string, JsonObject[]> {
  return ((task.node.driver_internal_info ?? {})[`agent_cached_${kind}_steps`] ?? {}) as Record<string, JsonObject[]>;
}

/** refresh_steps(task, kind): asks the agent for its steps and caches them by interface. */
export async function refreshAgentSteps(task: DriverTask, client: AgentClient, kind: InbandStepKind): Promise<void> {
  const node = task.node;
  const invalid = (what: string) => new (facts(kind).failure)(`agent get_${kind}_steps for node ${node.uuid} returned ${what}`);
  let result: Record<string, unknown>;
  try {
    const command = await client.getSteps(node, kind, await agentNodeDict(task), task.ports);
    result = (command.command_result ?? {}) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof AgentInProgress)) throw err;
    log.debug(`Agent for node ${node.uuid} is busy with a command, will refresh steps on the next heartbeat.`);
    return;
  }
  const missing = [`${kind}_steps`, 'hardware_manager_version'].filter((k) => !Object.hasOwn(result, k));
  if (missing.length) throw invalid(`an invalid result. Keys: ${pyReprSet(missing)} are missing from result: ${pyRepr(result)}.`);
  const byInterface = new Map<string, JsonObject[]>();
  const listed = (Object.hasOwn(result, `${kind}_steps`) ? result[`${kind}_steps`] : {}) as Record<string, JsonObject[]>;
  for (const list of Object.values(listed ?? {})) {
    for (const step of list) {
      const absent = ['interface', 'step', 'priority'].filter((k) => !Object.hasOwn(step, k));
      if (absent.length) {
        throw invalid(`an invalid ${kind} step. Keys: ${pyReprSet(absent)} are missing from step: ${pyRepr(step)}.`);
      }
      const iface = String(step.interface);
      byInterface.set(iface, [...(byInterface.get(iface) ?? []), { ...step, ...facts(kind).extra }]);
    }
  }
  node.driver_internal_info = {
    ...(node.driver_internal_info ?? {}), hardware_manager_version: result.hardware_manager_version,
    [`agent_cached_${kind}_steps`]: Object.fromEntries(byInterface), [`agent_cached_${kind}_steps_refreshed`]: pythonIsoNow(),
  };
  await task.saveNode();
}

/** execute_step(task, node.<kind>_step, kind): hands the current step to the agent; the flow waits. */
export async function executeInbandStep(task: DriverTask, client: AgentClient, kind: InbandStepKind): Promise<string> {
  const step = ((kind === 'clean' ? task.node.clean_step : task.node.service_step) ?? {}) as JsonObject;
  const result = await client.executeStep(task.node, kind, step, await agentNodeDict(task), task.ports);
  if (!result.command_status) {
    throw new (facts(kind).failure)(`Agent on node ${task.node.uuid} returned bad command result: ${pyRepr(result)}`);
  }
  return facts(kind).waitState;
}
