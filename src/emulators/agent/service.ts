/**
 * The emulated agent's servicing (IPA 10.2's service extension over its GenericHardwareManager): the
 * service steps it reports, all of priority 0, and their execution, answered as
 * `{service_result, service_step}`. The burn-in and RAID steps have nothing to act on here and succeed;
 * the deploy-flow steps (write_image, inject_files, execute_bootc_install) are not emulated.
 */
import { checkVersions, HARDWARE_MANAGER_VERSION } from './clean';
import { AgentCommandError, type JsonObject } from './standby';

const RAID_APPLY_ARGSINFO = {
  raid_config: { description: 'The RAID configuration to apply.', required: true },
  delete_existing: {
    description: "Setting this to 'True' indicates to delete existing RAID configuration prior to creating the new " +
      "configuration. Default value is 'True'.",
    required: false,
  },
};

const step = (name: string, iface: string, extra: JsonObject = { abortable: true }) =>
  ({ step: name, priority: 0, interface: iface, reboot_requested: false, ...extra });

/** GenericHardwareManager.get_service_steps of IPA 10.2, deduplicated by manager as the agent answers. */
const SERVICE_STEPS = {
  GenericHardwareManager: [
    step('delete_configuration', 'raid'), step('apply_configuration', 'raid', { argsinfo: RAID_APPLY_ARGSINFO }),
    step('create_configuration', 'raid'), step('burnin_cpu', 'deploy'), step('burnin_gpu', 'deploy'),
    step('burnin_memory', 'deploy'), step('burnin_network', 'deploy'),
  ],
};

const NO_OP_STEPS = new Set(SERVICE_STEPS.GenericHardwareManager.map((s) => s.step));

export function getServiceSteps(): JsonObject {
  return { service_steps: SERVICE_STEPS, hardware_manager_version: HARDWARE_MANAGER_VERSION };
}

/** service.execute_service_step: the step after the version check, or IPA's errors for a bad one. */
export async function executeServiceStep(params: JsonObject): Promise<JsonObject> {
  checkVersions(params.service_version);
  const serviceStep = (params.step ?? {}) as JsonObject;
  if (!('step' in serviceStep)) {
    throw new AgentCommandError('CommandExecutionError', 'Command execution failed',
      `Malformed service_step, no "step" key: ${JSON.stringify(serviceStep)}`);
  }
  if (!NO_OP_STEPS.has(String(serviceStep.step))) {
    throw new AgentCommandError('HardwareManagerMethodNotFound', 'No HardwareManager found to handle method',
      `Could not find method: ${String(serviceStep.step)}`);
  }
  return { service_result: null, service_step: serviceStep };
}
