/**
 * ssh power (Ironic's ssh.py SSHPower, Newton): the node's VM on a hypervisor started and stopped
 * over SSH, its state read from the hypervisor's list of running VMs. Powering on a running VM
 * stops it first, so a reboot is off then on.
 */
import { InvalidParameterValue, MissingParameterValue, PowerStateFailure } from '../../common/errors';
import * as states from '../../common/states';
import type { DriverTask, PowerInterface } from '../base';
import { fill } from './commands';
import { Hypervisor, parseSshDriverInfo, SSH_PROPERTIES, withHypervisor } from './common';

async function powerOff(h: Hypervisor): Promise<string> {
  if (await h.powerState() === states.POWER_OFF) return states.POWER_OFF;
  await h.runOnVm(h.info.commands.stop);
  return await h.powerState() === states.POWER_OFF ? states.POWER_OFF : states.ERROR;
}

async function powerOn(h: Hypervisor): Promise<string> {
  if (await h.powerState() === states.POWER_ON) await powerOff(h);
  await h.runOnVm(h.info.commands.start);
  return await h.powerState() === states.POWER_ON ? states.POWER_ON : states.ERROR;
}

/** validate: ports to find the VM by, and a working connection. */
async function validate(task: DriverTask): Promise<void> {
  if (task.ports.length === 0) {
    throw new MissingParameterValue(`Node ${task.node.uuid} does not have any port associated with it.`);
  }
  parseSshDriverInfo(task);
  try {
    await withHypervisor(task, async () => undefined);
  } catch (err) {
    if (err instanceof InvalidParameterValue || err instanceof MissingParameterValue) throw err;
    throw new InvalidParameterValue(`SSH connection cannot be established: ${(err as Error).message}`);
  }
}

export function createSshPower(): PowerInterface {
  return {
    kind: 'power', name: 'ssh', className: 'SSHPower',
    properties: () => ({ ...SSH_PROPERTIES }),
    validate,
    getPowerState: (task) => withHypervisor(task, (h) => h.powerState()),
    async setPowerState(task, powerState) {
      if (powerState !== states.POWER_ON && powerState !== states.POWER_OFF) {
        throw new InvalidParameterValue(`set_power_state called with invalid power state ${powerState}.`);
      }
      const reached = await withHypervisor(task, (h) => (powerState === states.POWER_ON ? powerOn(h) : powerOff(h)));
      if (reached !== powerState) throw new PowerStateFailure({ pstate: powerState });
    },
    async reboot(task) {
      if (await withHypervisor(task, powerOn) !== states.POWER_ON) throw new PowerStateFailure({ pstate: states.POWER_ON });
    },
    async getSupportedPowerStates() {
      return [states.POWER_ON, states.POWER_OFF, states.REBOOT];
    },
    supportsPowerSync: () => true,
  };
}

