/**
 * Fake inspection: completes synchronously and leaves the node manageable. Like Ironic's
 * FakeInspect it inherits the base abort, which is not implemented.
 */
import { UnsupportedDriverExtension } from '../../common/errors';
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
    async abort(task) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'abort' });
    },
  };
}
