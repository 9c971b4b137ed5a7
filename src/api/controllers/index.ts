/** Every v1 resource router, in the order they are mounted. One file per resource. */
import type Router from '@koa/router';
import type { ApiState } from '../state';
import { nodesRouter } from './nodes';
import { nodeActionsRouter } from './node-actions';
import { portsRouter } from './ports';
import { portgroupsRouter } from './portgroups';
import { chassisRouter } from './chassis';
import { driversRouter } from './drivers';
import { conductorsRouter } from './conductors';
import { allocationsRouter } from './allocations';
import { deployTemplatesRouter } from './deploy-templates';
import { volumeRouter } from './volume';
import { ramdiskRouter } from './ramdisk';
import { continueInspectionRouter } from './continue-inspection';
import { eventsRouter } from './events';
import { shardsRouter } from './shards';
import { inspectionRulesRouter } from './inspection-rules';

export const RESOURCE_ROUTERS: (() => Router<ApiState>)[] = [
  nodeActionsRouter,
  nodesRouter,
  portsRouter,
  portgroupsRouter,
  chassisRouter,
  driversRouter,
  conductorsRouter,
  allocationsRouter,
  deployTemplatesRouter,
  volumeRouter,
  ramdiskRouter,
  continueInspectionRouter,
  eventsRouter,
  shardsRouter,
  inspectionRulesRouter,
];
