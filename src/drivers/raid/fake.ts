/** Fake RAID: accepts any configuration and records nothing. */
import type { RaidInterface } from '../base';
import { RAID_LOGICAL_DISK_PROPERTIES } from './logical-disk-properties';

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
    async validateRaidConfig() {},
    getLogicalDiskProperties: () => ({ ...RAID_LOGICAL_DISK_PROPERTIES }),
  };
}
