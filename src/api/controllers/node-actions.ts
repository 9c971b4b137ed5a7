/**
 * Everything under /v1/nodes/{ident}/...: states and provisioning, management, maintenance and
 * validate, traits, VIFs, the node's allocation, and the read-only sub-resources. One file per group in node-actions/.
 */
import Router from '@koa/router';
import type { ApiState } from '../state';
import { addAllocationRoutes } from './node-actions/allocation';
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
  addChildrenRoutes(router);
  return router;
}
