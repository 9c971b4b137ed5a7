/**
 * Per request: Ironic's controller timer (`ironic.api.controllers.v1.<module>.<Controller>.<method>`,
 * sent only when the controller returned, as its METRICS.timer decorator does) and, with
 * [prometheus]enabled, the latency histogram by route and status. One map lookup per request.
 */
import type { Middleware } from 'koa';
import { MetricLogger } from '../../metrics/ironic-metrics';
import { observeApiRequest } from '../../metrics/prometheus';
import type { ApiState } from '../state';

const MODULES = new Map<string, MetricLogger>();

function logger(module: string): MetricLogger {
  let found = MODULES.get(module);
  if (!found) MODULES.set(module, found = new MetricLogger(`ironic.api.controllers.v1.${module}`));
  return found;
}

const N = '/v1/nodes/:node_ident';
/** `METHOD route` -> [module, timer], as Ironic 29.0.5's controllers decorate their methods. */
const TIMERS = new Map<string, readonly [string, string]>(Object.entries({
  'GET /v1/nodes': ['node', 'NodesController.get_all'], 'GET /v1/nodes/detail': ['node', 'NodesController.detail'],
  [`GET ${N}`]: ['node', 'NodesController.get_one'], 'POST /v1/nodes': ['node', 'NodesController.post'],
  [`PATCH ${N}`]: ['node', 'NodesController.patch'], [`DELETE ${N}`]: ['node', 'NodesController.delete'],
  'GET /v1/nodes/validate': ['node', 'NodesController.validate'], [`GET ${N}/validate`]: ['node', 'NodesController.validate'],
  [`GET ${N}/states`]: ['node', 'NodeStatesController.get'], [`PUT ${N}/states/power`]: ['node', 'NodeStatesController.power'],
  [`PUT ${N}/states/provision`]: ['node', 'NodeStatesController.provision'], [`PUT ${N}/states/raid`]: ['node', 'NodeStatesController.raid'],
  [`PUT ${N}/states/boot_mode`]: ['node', 'NodeStatesController.boot_mode'],
  [`PUT ${N}/states/secure_boot`]: ['node', 'NodeStatesController.secure_boot'],
  [`GET ${N}/states/console`]: ['node', 'NodeConsoleController.get'], [`PUT ${N}/states/console`]: ['node', 'NodeConsoleController.put'],
  [`PUT ${N}/maintenance`]: ['node', 'NodeMaintenanceController.put'], [`DELETE ${N}/maintenance`]: ['node', 'NodeMaintenanceController.delete'],
  [`GET ${N}/management/boot_device`]: ['node', 'BootDeviceController.get'],
  [`PUT ${N}/management/boot_device`]: ['node', 'BootDeviceController.put'],
  [`GET ${N}/management/boot_device/supported`]: ['node', 'BootDeviceController.supported'],
  [`PUT ${N}/management/inject_nmi`]: ['node', 'InjectNmiController.put'],
  [`GET ${N}/management/indicators`]: ['node', 'IndicatorController.get_all'],
  [`GET ${N}/management/indicators/:indicator`]: ['node', 'IndicatorController.get_one'],
  [`PUT ${N}/management/indicators/:indicator`]: ['node', 'IndicatorController.put'],
  [`GET ${N}/traits`]: ['node', 'NodeTraitsController.get_all'], [`PUT ${N}/traits`]: ['node', 'NodeTraitsController.put'],
  [`PUT ${N}/traits/:trait`]: ['node', 'NodeTraitsController.put'], [`DELETE ${N}/traits`]: ['node', 'NodeTraitsController.delete'],
  [`DELETE ${N}/traits/:trait`]: ['node', 'NodeTraitsController.delete'],
  [`GET ${N}/vifs`]: ['node', 'NodeVIFController.get_all'], [`POST ${N}/vifs`]: ['node', 'NodeVIFController.post'],
  [`DELETE ${N}/vifs/:vif_id`]: ['node', 'NodeVIFController.delete'],
  [`GET ${N}/vmedia`]: ['node', 'NodeVmediaController.get'], [`POST ${N}/vmedia`]: ['node', 'NodeVmediaController.post'],
  [`DELETE ${N}/vmedia`]: ['node', 'NodeVmediaController.delete'],
  [`GET ${N}/history`]: ['node', 'NodeHistoryController.get_all'], [`GET ${N}/history/:event`]: ['node', 'NodeHistoryController.get_one'],
  [`GET ${N}/inventory`]: ['node', 'NodeInventoryController.get'],
  [`GET ${N}/vendor_passthru/methods`]: ['node', 'NodeVendorPassthruController.methods'],
  [`GET ${N}/bios`]: ['bios', 'NodeBiosController.get_all'], [`GET ${N}/bios/:setting_name`]: ['bios', 'NodeBiosController.get_one'],
  [`GET ${N}/firmware`]: ['firmware', 'NodeFirmwareController.get_all'],
  [`GET ${N}/allocation`]: ['allocation', 'NodeAllocationController.get_all'],
  [`DELETE ${N}/allocation`]: ['allocation', 'NodeAllocationController.delete'],
  [`GET ${N}/ports`]: ['port', 'PortsController.get_all'], [`GET ${N}/ports/detail`]: ['port', 'PortsController.detail'],
  [`GET ${N}/portgroups`]: ['portgroup', 'PortgroupsController.get_all'],
  [`GET ${N}/portgroups/detail`]: ['portgroup', 'PortgroupsController.detail'],
  'GET /v1/ports': ['port', 'PortsController.get_all'], 'GET /v1/ports/detail': ['port', 'PortsController.detail'],
  'GET /v1/ports/:port_uuid': ['port', 'PortsController.get_one'], 'POST /v1/ports': ['port', 'PortsController.post'],
  'PATCH /v1/ports/:port_uuid': ['port', 'PortsController.patch'], 'DELETE /v1/ports/:port_uuid': ['port', 'PortsController.delete'],
  'GET /v1/portgroups': ['portgroup', 'PortgroupsController.get_all'], 'GET /v1/portgroups/detail': ['portgroup', 'PortgroupsController.detail'],
  'GET /v1/portgroups/:ident': ['portgroup', 'PortgroupsController.get_one'], 'POST /v1/portgroups': ['portgroup', 'PortgroupsController.post'],
  'PATCH /v1/portgroups/:ident': ['portgroup', 'PortgroupsController.patch'],
  'DELETE /v1/portgroups/:ident': ['portgroup', 'PortgroupsController.delete'],
  'GET /v1/chassis': ['chassis', 'ChassisController.get_all'], 'GET /v1/chassis/detail': ['chassis', 'ChassisController.detail'],
  'GET /v1/chassis/:uuid': ['chassis', 'ChassisController.get_one'], 'POST /v1/chassis': ['chassis', 'ChassisController.post'],
  'PATCH /v1/chassis/:uuid': ['chassis', 'ChassisController.patch'], 'DELETE /v1/chassis/:uuid': ['chassis', 'ChassisController.delete'],
  'GET /v1/deploy_templates': ['deploy_template', 'DeployTemplatesController.get_all'],
  'GET /v1/deploy_templates/:ident': ['deploy_template', 'DeployTemplatesController.get_one'],
  'POST /v1/deploy_templates': ['deploy_template', 'DeployTemplatesController.post'],
  'PATCH /v1/deploy_templates/:ident': ['deploy_template', 'DeployTemplatesController.patch'],
  'DELETE /v1/deploy_templates/:ident': ['deploy_template', 'DeployTemplatesController.delete'],
  'GET /v1/allocations': ['allocation', 'AllocationsController.get_all'],
  'GET /v1/allocations/:ident': ['allocation', 'AllocationsController.get_one'],
  'POST /v1/allocations': ['allocation', 'AllocationsController.post'],
  'PATCH /v1/allocations/:ident': ['allocation', 'AllocationsController.patch'],
  'DELETE /v1/allocations/:ident': ['allocation', 'AllocationsController.delete'],
  'GET /v1/runbooks': ['runbook', 'RunbooksController.get_all'], 'GET /v1/runbooks/:ident': ['runbook', 'RunbooksController.get_one'],
  'POST /v1/runbooks': ['runbook', 'RunbooksController.post'], 'PATCH /v1/runbooks/:ident': ['runbook', 'RunbooksController.patch'],
  'DELETE /v1/runbooks/:ident': ['runbook', 'RunbooksController.delete'],
  'GET /v1/inspection_rules': ['inspection_rule', 'InspectionRuleController.get_all'],
  'GET /v1/inspection_rules/:ident': ['inspection_rule', 'InspectionRuleController.get_one'],
  'POST /v1/inspection_rules': ['inspection_rule', 'InspectionRuleController.post'],
  'PATCH /v1/inspection_rules/:ident': ['inspection_rule', 'InspectionRuleController.patch'],
  'DELETE /v1/inspection_rules/:ident': ['inspection_rule', 'InspectionRuleController.delete'],
  'DELETE /v1/inspection_rules': ['inspection_rule', 'InspectionRuleController.delete'],
  'GET /v1/conductors': ['conductor', 'ConductorsController.get_all'],
  'GET /v1/conductors/:hostname': ['conductor', 'ConductorsController.get_one'],
  'GET /v1/drivers': ['driver', 'DriversController.get_all'], 'GET /v1/drivers/:name': ['driver', 'DriversController.get_one'],
  'GET /v1/drivers/:name/properties': ['driver', 'DriversController.properties'],
  'GET /v1/drivers/:name/raid/logical_disk_properties': ['driver', 'DriverRaidController.logical_disk_properties'],
  'GET /v1/drivers/:name/vendor_passthru/methods': ['driver', 'DriverPassthruController.methods'],
  'GET /v1/shards': ['shard', 'ShardController.get_all'], 'GET /v1/shards/:name': ['shard', 'ShardController.get_one'],
  'POST /v1/events': ['event', 'EventsController.post'],
}));

/** Runs inside the request-id middleware, outside the fault handler, so it sees the final status. */
export const requestMetrics: Middleware<ApiState> = async (ctx, next) => {
  const started = performance.now();
  let failed = true;
  try {
    await next();
    failed = false;
  } finally {
    const ms = performance.now() - started;
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    observeApiRequest(ctx.method, route, ctx.status, ms / 1000);
    const timer = TIMERS.get(`${ctx.method} ${route}`);
    if (timer && !failed && ctx.status < 400) logger(timer[0]).sendTimer(timer[1], ms);
  }
};
