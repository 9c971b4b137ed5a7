/**
 * Cleaning and servicing hooks of a deploy interface that brings up no agent for them: nothing to
 * prepare or tear down, so those operations run their out-of-band steps only.
 */
import type { DeployInterface } from '../base';

export const OUT_OF_BAND_CLEAN_AND_SERVICE: Pick<DeployInterface,
  'prepareCleaning' | 'tearDownCleaning' | 'prepareService' | 'tearDownService'> = {
  async prepareCleaning() {
    return null;
  },
  async tearDownCleaning() {},
  async prepareService() {
    return null;
  },
  async tearDownService() {},
};
