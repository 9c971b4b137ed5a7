/**
 * Everything under /v1/nodes/{ident}/...: states and provisioning, management, maintenance and
 * validate, traits, VIFs, the node's allocation, the read-only sub-resources, firmware and virtual media. One file per group in node-actions/.
 */
import Router from '@koa/router';
import type { ApiState } from '../state';
import { addAllocationRoutes } from './node-actions/allocation';
import { addFirmwareRoutes } from './node-actions/firmware';
import { addChildrenRoutes } from './node-actions/children';
import { addIndicatorRoutes } from './node-actions/indicators';
import { addMaintenanceRoutes } from './node-actions/maintenance';
import { addManagementRoutes } from './node-actions/management';
import { setProvisionState } from './node-actions/provision';
import { addStateRoutes } from './node-actions/states';
import { addSublistRoutes } from './node-actions/sublists';
import { addTraitRoutes } from './node-actions/traits';
import { addVendorRoutes } from './node-actions/vendor';
import { addVifRoutes } from './node-actions/vifs';
import { addVmediaRoutes } from './node-actions/vmedia';

export function nodeActionsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  addStateRoutes(router);
  router.put('/v1/nodes/:node_ident/states/provision', setProvisionState);
  addManagementRoutes(router);
  addIndicatorRoutes(router);
  addVendorRoutes(router);
  addMaintenanceRoutes(router);
  addTraitRoutes(router);
  addVifRoutes(router);
  addSublistRoutes(router);
  addAllocationRoutes(router);
  addFirmwareRoutes(router);
  addVmediaRoutes(router);
  addChildrenRoutes(router);
  return router;
}
