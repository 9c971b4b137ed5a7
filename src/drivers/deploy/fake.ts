/**
 * Fake deploy: a single `deploy` deploy step (priority 100) that finishes at once, and a tear
 * down that reports DELETED (drivers/modules/fake.py FakeDeploy).
 */
import { DELETED } from '../../common/states';
import type { DeployInterface, StepDecl } from '../base';

const STEPS: readonly StepDecl[] = [{ step: 'deploy', kinds: ['deploy'], priority: 100 }];

export function createFakeDeploy(): DeployInterface {
  return {
    kind: 'deploy', name: 'fake', className: 'FakeDeploy',
    properties: () => ({}),
    async validate() {},
    steps: STEPS,
    async executeStep() {
      return null;
    },
    async tearDown() {
      return DELETED;
    },
    async prepare() {},
    async cleanUp() {},
    async takeOver() {},
    async prepareCleaning() {
      return null;
    },
    async tearDownCleaning() {},
    async prepareService() {
      return null;
    },
    async tearDownService() {},
    async heartbeat() {},
  };
}
