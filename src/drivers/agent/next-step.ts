/**
 * agent_base.process_next_step(task, step_type): on a heartbeat while a clean or deploy step runs
 * in the ramdisk, the agent's command list tells whether the step finished, failed, hit a
 * hardware manager version change, or still runs. The outcome tells the conductor what to do.
 */
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { cleanVersionMismatch, postCleanStepReboot } from './clean-step-hooks';
import { commandErrorText, type AgentClient, type AgentCommand } from './client';
import { collectRamdiskLogs } from './ramdisk-logs';
import { postServiceStepReboot, serviceVersionMismatch } from './service-step-hooks';

type AgentStepType = 'clean' | 'deploy' | 'service';

/** What differs between the step types. */
interface StepTypeFacts {
  /** Title-case name in messages. */
  readonly title: string;
  /** driver_internal_info flag of a reboot into the ramdisk, dropped once the agent is up. */
  readonly rebootFlag: string;
  continued(): HeartbeatOutcome;
  failed(message: string): HeartbeatOutcome;
  /** The step as the unknown-status message shows it. */
  show(step: JsonObject): string;
  /** VERSION_MISMATCH handling; without it the status is an unknown one. */
  versionMismatch?(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome>;
  /** reboot_requested handling once the step succeeded; without it the flag is ignored. */
  rebootAfterStep?(task: DriverTask): Promise<HeartbeatOutcome>;
}

const FACTS: { readonly [T in AgentStepType]: StepTypeFacts } = {
  clean: {
    title: 'Clean',
    rebootFlag: 'cleaning_reboot',
    continued: () => ({ action: 'continue-clean' }),
    failed: (message) => ({ action: 'fail-clean', message }),
    show: pyRepr,
    versionMismatch: cleanVersionMismatch,
    rebootAfterStep: postCleanStepReboot,
  },
  service: {
    title: 'Service',
    rebootFlag: 'servicing_reboot',
    continued: () => ({ action: 'continue-service' }),
    // Ironic 2025.1 hands a failed agent service step to its deploy error handler (which cleans the
    // instance's boot up); the servicing one keeps the instance and still ends in `service failed`.
    failed: (message) => ({ action: 'fail-service', message }),
    show: pyRepr,
    versionMismatch: serviceVersionMismatch,
    rebootAfterStep: postServiceStepReboot,
  },
  deploy: {
    title: 'Deploy',
    rebootFlag: 'deployment_reboot',
    continued: () => ({ action: 'continue-deploy' }),
    failed: (message) => ({ action: 'fail-deploy', message }),
    show: (step) => JSON.stringify(step),
  },
};

const VERSION_MISMATCH = ['CLEAN_VERSION_MISMATCH', 'VERSION_MISMATCH'];

const stepId = (s: JsonObject) => `${String(s.interface)}.${String(s.step)}`;

const currentStep = (task: DriverTask, type: AgentStepType): JsonObject => task.node[`${type}_step`] ?? {};

/** _freshly_booted: nothing ran yet but the steps query (or nothing at all, after a reboot). */
function freshlyBooted(commands: AgentCommand[], type: AgentStepType): boolean {
  return commands.length === 0 || (commands.length === 1 && commands[0].command_name === `get_${type}_steps`);
}

/** _get_completed_command: the finished command of the current step, if it is done. */
function completedCommand(task: DriverTask, commands: AgentCommand[], type: AgentStepType): AgentCommand | null {
  const last = commands[commands.length - 1];
  if (last.command_name !== `execute_${type}_step` || last.command_status === 'RUNNING') return null;
  const lastStep = ((last.command_result ?? {}) as Record<string, unknown>)[`${type}_step`] as JsonObject | undefined;
  if (last.command_status === 'SUCCEEDED' && (!lastStep || stepId(lastStep) !== stepId(currentStep(task, type)))) return null;
  return last;
}

/** The agent booted again: drop the reboot flag and go on with the steps. */
async function afterBoot(task: DriverTask, type: AgentStepType): Promise<HeartbeatOutcome> {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  delete info[FACTS[type].rebootFlag];
  task.node.driver_internal_info = info;
  await task.saveNode();
  return FACTS[type].continued();
}

async function succeeded(task: DriverTask, type: AgentStepType): Promise<HeartbeatOutcome> {
  const facts = FACTS[type];
  if (currentStep(task, type).reboot_requested && facts.rebootAfterStep) return facts.rebootAfterStep(task);
  log.info(`Agent on node ${task.node.uuid} returned ${type} command success, moving to next step`);
  return facts.continued();
}

/** process_next_step(task, step_type). */
export async function processNextStep(task: DriverTask, client: AgentClient, type: AgentStepType): Promise<HeartbeatOutcome> {
  const node = task.node;
  const facts = FACTS[type];
  const commands = await client.getCommandsStatus(node);
  if (freshlyBooted(commands, type)) return afterBoot(task, type);
  const command = completedCommand(task, commands, type);
  if (!command) return null;
  const current = currentStep(task, type);
  const status = command.command_status;
  if (status === 'FAILED') {
    return stepFailed(task, client, type, `${facts.title} step ${stepId(current)} failed on node ${node.uuid}. ${commandErrorText(command)}`);
  }
  if (VERSION_MISMATCH.includes(status) && facts.versionMismatch) return facts.versionMismatch(task, client);
  if (status === 'SUCCEEDED') return succeeded(task, type);
  return stepFailed(task, client, type,
    `Agent returned unknown status for ${type} step ${facts.show(current)} on node ${node.uuid} : ${status}.`);
}

/** _step_failure_handler: the ramdisk's logs are kept (labelled for cleaning), then the flow fails. */
async function stepFailed(task: DriverTask, client: AgentClient, type: AgentStepType, message: string): Promise<HeartbeatOutcome> {
  await collectRamdiskLogs(task, client, type === 'clean' ? 'cleaning' : null);
  return FACTS[type].failed(message);
}
