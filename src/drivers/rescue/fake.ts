/** Fake rescue: rescue and unrescue complete at once. */
import { ACTIVE, RESCUE } from '../../common/states';
import type { RescueInterface } from '../base';

export function createFakeRescue(): RescueInterface {
  return {
    kind: 'rescue', name: 'fake', className: 'FakeRescue',
    properties: () => ({}),
    async validate() {},
    async rescue() {
      return RESCUE;
    },
    async unrescue() {
      return ACTIVE;
    },
    async cleanUp() {},
  };
}
