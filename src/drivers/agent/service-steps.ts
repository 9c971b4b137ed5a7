/**
 * The agent's in-band service steps as the deploy interface offers them (AgentBaseMixin.get_service_steps
 * of Ironic 2025.1): every interface's cached steps (./inband-steps.ts).
 */
import * as states from '../../common/states';
import type { DriverTask, StepInfo } from '../base';
import { cachedAgentSteps } from './inband-steps';

/** get_service_steps: every cached step, whatever its interface (Ironic asks for no interface here). */
export function agentServiceSteps(task: DriverTask): StepInfo[] {
  return Object.values(cachedAgentSteps(task, 'service')).flat().map((raw) => ({ ...raw }) as unknown as StepInfo);
}

/** A deploy-interface step the agent offered for servicing, while the node is being serviced. */
export function isAgentServiceStep(task: DriverTask, name: string): boolean {
  const servicing = [states.SERVICING, states.SERVICEWAIT].includes(task.node.provision_state ?? '');
  return servicing && agentServiceSteps(task).some((s) => s.interface === 'deploy' && s.step === name);
}
