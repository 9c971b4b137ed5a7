/** RAID disabled for this node. */
import type { RaidInterface } from '../base';
import { unsupported } from '../unsupported';
import { RAID_LOGICAL_DISK_PROPERTIES } from './logical-disk-properties';

export function createNoRaid(): RaidInterface {
  return {
    kind: 'raid', name: 'no-raid', className: 'NoRAID',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'raid');
    },
    async createConfiguration(task) {
      return unsupported(task, 'raid');
    },
    async deleteConfiguration(task) {
      return unsupported(task, 'raid');
    },
    async validateRaidConfig(task) {
      unsupported(task, 'raid');
    },
    getLogicalDiskProperties: () => ({ ...RAID_LOGICAL_DISK_PROPERTIES }),
  };
}
