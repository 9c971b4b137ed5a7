/**
 * ssh (an ironic-ts hardware type): a hypervisor's VMs standing in for bare metal, powered and
 * booted over SSH as Ironic's classic pxe_ssh / agent_ssh drivers did before Pike removed them.
 */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const SSH_HARDWARE: HardwareType = {
  name: 'ssh',
  className: 'SSHHardware',
  supported: { ...G, management: ['ssh'], power: ['ssh'] },
};
