/**
 * The agent's in-band clean steps as the deploy interface offers them (AgentBaseMixin.get_clean_steps):
 * the cached steps (./inband-steps.ts) with [deploy]erase_devices*_priority applied.
 */
import type { OptionName } from '../../conf/registry';
import type { DriverTask, InterfaceKind, StepInfo } from '../base';
import { cachedAgentSteps } from './inband-steps';

/** get_steps(task, 'clean', interface, overrides): the cached steps of one interface. */
function cachedCleanSteps(task: DriverTask, iface: InterfaceKind, overrides: Record<string, number | null> = {}): StepInfo[] {
  const cache = cachedAgentSteps(task, 'clean');
  return (Object.hasOwn(cache, iface) ? cache[iface] : []).map((raw) => {
    const step = { ...raw } as unknown as StepInfo;
    const priority = overrides[step.step];
    if (priority !== undefined && priority !== null) step.priority = priority;
    return step;
  });
}

/** AgentBaseMixin.get_clean_steps: the agent's deploy-interface steps with the erase priorities from config. */
export function agentDeployCleanSteps(task: DriverTask): StepInfo[] {
  // Both options default to None in Ironic: the agent's own priorities (10 and 99) then apply.
  const option = (name: OptionName<'deploy'>) => {
    const v = task.ctx.conf.raw('deploy', name);
    return typeof v === 'number' ? v : null;
  };
  return cachedCleanSteps(task, 'deploy', {
    erase_devices: option('erase_devices_priority'),
    erase_devices_metadata: option('erase_devices_metadata_priority'),
  });
}

export function isCachedCleanStep(task: DriverTask, iface: InterfaceKind, name: string): boolean {
  return cachedCleanSteps(task, iface).some((s) => s.step === name);
}
