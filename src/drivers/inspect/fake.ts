/** Fake inspection: completes synchronously and leaves the node manageable. */
import { MANAGEABLE } from '../../common/states';
import type { InspectInterface } from '../base';

export function createFakeInspect(): InspectInterface {
  return {
    kind: 'inspect', name: 'fake', className: 'FakeInspect',
    properties: () => ({}),
    async validate() {},
    async inspectHardware() {
      return MANAGEABLE;
    },
    async abort() {},
  };
}
