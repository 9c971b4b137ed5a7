/**
 * ssh management (Ironic's ssh.py SSHManagement, Newton): the VM's boot device written and read
 * through the hypervisor's own tools. vmware has no such commands: setting fails, reading gives
 * an unknown device. A VirtualBox VM running headless is stopped first, as VirtualBox requires.
 */
import { InvalidParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { ManagementInterface } from '../base';
import { UNSUPPORTED_BOOT_MODE_METHODS } from '../management/base-unsupported';
import { BOOT_DEVICE_MAPS, fill, SUPPORTED_BOOT_DEVICES } from './commands';
import { Hypervisor, parseSshDriverInfo, SSH_PROPERTIES, withHypervisor } from './common';

function deviceWord(h: Hypervisor, device: string): string | undefined {
  return BOOT_DEVICE_MAPS.get(h.info.virtType)?.get(device);
}

async function stopHeadlessVbox(h: Hypervisor): Promise<void> {
  if (h.info.virtType !== 'vbox' || !h.info.headless || await h.powerState() !== states.POWER_ON) return;
  log.debug(`Forcing VBox VM ${await h.nodeName()} to power off in order to set the boot device.`);
  await h.runOnVm(h.info.commands.stop);
}

async function readBootDevice(h: Hypervisor): Promise<string | null> {
  const template = h.info.commands.getBootDevice;
  if (template === undefined) {
    log.warning(`Failed to get boot device for node ${h.info.uuid}, virt_type ${h.info.virtType} does not support ` +
      'this operation');
    return null;
  }
  const { base } = h.info.commands;
  const [first = ''] = await h.run(fill(template, { base, name: await h.nodeName() }));
  const map = BOOT_DEVICE_MAPS.get(h.info.virtType);
  return [...(map ?? new Map<string, string>())].find(([, word]) => word === first.trim())?.[0] ?? null;
}

export function createSshManagement(): ManagementInterface {
  return {
    kind: 'management', name: 'ssh', className: 'SSHManagement',
    properties: () => ({ ...SSH_PROPERTIES }),
    async validate(task) {
      parseSshDriverInfo(task);
    },
    async getSupportedBootDevices() {
      return [...SUPPORTED_BOOT_DEVICES];
    },
    async setBootDevice(task, device) {
      const info = parseSshDriverInfo(task);
      if (!SUPPORTED_BOOT_DEVICES.includes(device)) throw new InvalidParameterValue(`Invalid boot device ${device} specified.`);
      const template = info.commands.setBootDevice;
      if (template === undefined) {
        log.error(`Failed to set boot device for node ${info.uuid}, virt_type ${info.virtType} does not support this operation`);
        throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'set_boot_device' });
      }
      await withHypervisor(task, async (h) => {
        await stopHeadlessVbox(h);
        const word = deviceWord(h, device) ?? device;
        await h.run(fill(template, { base: info.commands.base, name: await h.nodeName(), device: word }));
      });
    },
    async getBootDevice(task) {
      return { boot_device: await withHypervisor(task, readBootDevice), persistent: null };
    },
    async injectNmi(task) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'inject_nmi' });
    },
    ...UNSUPPORTED_BOOT_MODE_METHODS,
  };
}
