/**
 * Fake deploy: a single `deploy` deploy step (priority 100) that finishes at once, and a tear
 * down that reports DELETED (drivers/modules/fake.py FakeDeploy).
 */
import { DELETED } from '../../common/states';
import type { DeployInterface } from '../base';
import { coreDeployStep, declareSteps } from '../declared-steps';
import { OUT_OF_BAND_CLEAN_AND_SERVICE } from './out-of-band-only';

export function createFakeDeploy(): DeployInterface {
  return {
    kind: 'deploy', name: 'fake', className: 'FakeDeploy',
    properties: () => ({}),
    async validate() {},
    ...declareSteps('deploy', [coreDeployStep(async () => null)]),
    async tearDown() {
      return DELETED;
    },
    async prepare() {},
    async cleanUp() {},
    async takeOver() {},
    ...OUT_OF_BAND_CLEAN_AND_SERVICE,
    async heartbeat() {},
  };
}
