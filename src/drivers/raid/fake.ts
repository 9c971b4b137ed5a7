/** Fake RAID: validates target configurations as every RAID interface does, and records nothing. */
import type { RaidInterface } from '../base';
import { RAID_LOGICAL_DISK_PROPERTIES } from './logical-disk-properties';
import { validateRaidConfiguration } from './raid-config';

export function createFakeRaid(): RaidInterface {
  return {
    kind: 'raid', name: 'fake', className: 'FakeRAID',
    properties: () => ({}),
    async validate() {},
    async createConfiguration() {
      return null;
    },
    async deleteConfiguration() {
      return null;
    },
    async validateRaidConfig(_task, config) {
      validateRaidConfiguration(config);
    },
    getLogicalDiskProperties: () => ({ ...RAID_LOGICAL_DISK_PROPERTIES }),
  };
}
