/**
 * What api-ref/ says about each route the routers serve: a summary, the first microversion that
 * serves it, its success status and request schema. The api-ref test fails when a router gains a
 * route this table does not describe.
 */
import type { Schema } from '../schemas/jsonschema';
import { ALLOCATION_SCHEMA } from '../schemas/allocation';
import { CHASSIS_SCHEMA } from '../schemas/chassis';
import { TEMPLATE_SCHEMA } from '../schemas/deploy-template';
import { EVENTS_SCHEMA } from '../schemas/event';
import { INSPECTION_DATA_SCHEMA } from '../schemas/inspection-data';
import { INSPECTION_RULE_SCHEMA } from '../../common/inspection-rules/validation';
import { NODE_CREATE_SCHEMA, TRAITS_BODY_SCHEMA, VIF_SCHEMA } from '../schemas/node';
import { PATCH_SCHEMA } from '../schemas/patch';
import { PORT_SCHEMA } from '../schemas/port';
import { PORTGROUP_SCHEMA } from '../schemas/portgroup';
import { VMEDIA_ATTACH_SCHEMA } from '../schemas/vmedia';
import { RUNBOOK_SCHEMA } from '../schemas/runbook';
import { CONNECTOR_SCHEMA, TARGET_SCHEMA } from '../schemas/volume';
import { V } from '../versions';
import { PROVISION_BODY_SCHEMA, POWER_BODY_SCHEMA, BOOT_DEVICE_BODY_SCHEMA } from './action-schemas';

interface EndpointDoc {
  summary: string;
  minVersion: number;
  status: number;
  body?: Schema;
  /** Routes that exist only to answer 405 the way Ironic does. */
  methodNotAllowed?: boolean;
}

type Row = [method: string, path: string, summary: string, minVersion: number, status: number, body?: Schema];

const N = '/v1/nodes/:node_ident';
const ROWS: Row[] = [
  ['GET', '/v1', 'API v1 discovery document', 1, 200],
  ['GET', '/v1/', 'API v1 discovery document', 1, 200],
  ['GET', '/v1/nodes', 'List nodes', 1, 200],
  ['POST', '/v1/nodes', 'Create a node', 1, 201, NODE_CREATE_SCHEMA],
  ['GET', '/v1/nodes/detail', 'List nodes with details', 1, 200],
  ['GET', '/v1/nodes/validate', 'Validate a node given as ?node=', 1, 200],
  ['GET', N, 'Show a node', 1, 200],
  ['PATCH', N, 'Update a node (JSON patch)', 1, 200, PATCH_SCHEMA],
  ['DELETE', N, 'Delete a node', 1, 204],
  ['DELETE', '/v1/nodes', 'Delete the node named by ?node_ident= or the body', 1, 204],
  ['DELETE', `${N}/*rest`, 'Unknown node sub-resource', 1, 404],
  ['GET', `${N}/*rest`, 'Unknown node sub-resource', 1, 404],
  ['GET', `${N}/ports/:port_ident`, 'Not permitted: list the node\'s ports instead', 1, 403],
  ['GET', `${N}/portgroups/:portgroup_ident`, 'Not permitted: list the node\'s portgroups instead', 24, 403],
  ['GET', `${N}/children`, 'The UUIDs of the node\'s child nodes', 83, 200],
  ['GET', '/v1/nodes/management/indicators/:node_ident',
    'Refused: IndicatorController.get_one needs the indicator after the node (400)', 63, 400],
  ['GET', `${N}/children/*rest`, 'Refused: the children list takes no path arguments (405)', 83, 405],
  ['GET', `${N}/states`, 'Node states', 1, 200],
  ['PUT', `${N}/states/power`, 'Change power state', 1, 202, POWER_BODY_SCHEMA],
  ['PUT', `${N}/states/provision`, 'Change provision state', 1, 202, PROVISION_BODY_SCHEMA],
  ['PUT', `${N}/states/raid`, 'Set target RAID config', 12, 204, { type: 'object' }],
  ['PUT', `${N}/states/boot_mode`, 'Change boot mode', 76, 202, { type: 'object', properties: { target: { type: 'string', enum: ['uefi', 'bios'] } }, required: ['target'] }],
  ['PUT', `${N}/states/secure_boot`, 'Change secure boot', 76, 202, { type: 'object', properties: { target: { type: 'boolean' } }, required: ['target'] }],
  ['GET', `${N}/states/console`, 'Console state and info', 1, 200],
  ['PUT', `${N}/states/console`, 'Enable or disable the console', 1, 202, { type: 'object', properties: { enabled: { type: 'boolean' } }, required: ['enabled'] }],
  ['GET', `${N}/management/boot_device`, 'Current boot device', 1, 200],
  ['PUT', `${N}/management/boot_device`, 'Set boot device', 1, 204, BOOT_DEVICE_BODY_SCHEMA],
  ['GET', `${N}/management/boot_device/supported`, 'Supported boot devices', 1, 200],
  ['PUT', `${N}/management/inject_nmi`, 'Inject NMI', 29, 204, { type: 'object' }],
  ['GET', `${N}/maintenance`, 'Refused: maintenance is only set and cleared (405)', 1, 405],
  ['GET', `${N}/management`, 'Refused: management has no listing (405)', 1, 405],
  ['GET', `${N}/detail`, 'Not found: detail is a collection path (a non-UUID is refused as chassis_uuid)', 1, 404],
  ['GET', `${N}/:fields`, 'Show a node: a further path segment is the fields to show', 1, 200],
  ['PUT', `${N}/maintenance`, 'Set maintenance (with reason)', 1, 202, { type: 'object', properties: { reason: { type: 'string' } } }],
  ['DELETE', `${N}/maintenance`, 'Clear maintenance', 1, 202],
  ['GET', `${N}/validate`, 'Validate driver interfaces', 1, 200],
  ['GET', `${N}/traits`, 'List node traits', 37, 200],
  ['PUT', `${N}/traits`, 'Replace node traits', 37, 204, TRAITS_BODY_SCHEMA],
  ['PUT', `${N}/traits/:trait`, 'Add a trait', 37, 204],
  ['DELETE', `${N}/traits`, 'Remove all traits (or the one named by ?trait= or the body)', 37, 204],
  ['DELETE', `${N}/traits/:trait`, 'Remove a trait', 37, 204],
  ['GET', `${N}/vifs`, 'List attached VIFs', 28, 200],
  ['POST', `${N}/vifs`, 'Attach a VIF', 28, 204, VIF_SCHEMA],
  ['DELETE', `${N}/vifs/:vif_id`, 'Detach a VIF', 28, 204],
  ['DELETE', `${N}/vifs`, 'Detach the VIF named by ?vif_id= or the body', 28, 204],
  ['GET', `${N}/ports`, "List a node's ports", 1, 200],
  ['GET', `${N}/ports/detail`, "List a node's ports with details", 1, 200],
  ['GET', `${N}/portgroups`, "List a node's portgroups", 24, 200],
  ['GET', `${N}/portgroups/detail`, "List a node's portgroups with details", 24, 200],
  ['GET', `${N}/volume`, "A node's volume resources", 32, 200],
  ['GET', `${N}/bios`, 'List BIOS settings', 40, 200],
  ['GET', `${N}/bios/:setting_name`, 'Show a BIOS setting', 40, 200],
  ['GET', `${N}/history`, 'List node history', 78, 200],
  ['GET', `${N}/history/:event`, 'Show a history event', 78, 200],
  ['GET', `${N}/inventory`, 'Show node inventory', 81, 200],
  ['GET', `${N}/firmware`, 'List firmware components', V.FIRMWARE_INTERFACE, 200],
  ['GET', `${N}/vmedia`, 'List virtual media devices', V.GET_VMEDIA, 200],
  ['POST', `${N}/vmedia`, 'Attach a virtual media image', V.ATTACH_DETACH_VMEDIA, 204, VMEDIA_ATTACH_SCHEMA],
  ['DELETE', `${N}/vmedia`, 'Detach virtual media (device_types in the query or the body)', V.ATTACH_DETACH_VMEDIA, 204],
  ['GET', `${N}/allocation`, "Show a node's allocation", 52, 200],
  ['DELETE', `${N}/allocation`, "Delete a node's allocation", 52, 204],
  ['GET', `${N}/volume/connectors`, "List a node's volume connectors", 32, 200],
  ['GET', `${N}/volume/targets`, "List a node's volume targets", 32, 200],
  ['GET', `${N}/management/indicators`, 'List indicators', 63, 200],
  ['GET', `${N}/management/indicators/:indicator`, 'Show an indicator state', 63, 200],
  ['PUT', `${N}/management/indicators/:indicator`, 'Set an indicator state', 63, 204, { type: 'object', properties: { state: { type: 'string' } }, required: ['state'] }],
  ['GET', `${N}/vendor_passthru/methods`, 'List vendor passthru methods', 1, 200],
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((m): Row[] => [
    [m, `${N}/vendor_passthru`, 'Call a vendor passthru method (?method=)', 1, 200],
    [m, `${N}/vendor_passthru/*method`, 'Call a vendor passthru method', 1, 200],
  ]),
  ['GET', '/v1/chassis/:chassis_uuid/nodes', 'List nodes of a chassis', 1, 200],
  ['GET', '/v1/chassis/:chassis_uuid/nodes/detail', 'List nodes of a chassis with details', 1, 200],
  ['GET', '/v1/chassis/:chassis_uuid/nodes/:node_ident', 'Not allowed: nodes are shown from /v1/nodes', 1, 403],
  ['GET', '/v1/ports', 'List ports', 1, 200],
  ['GET', '/v1/ports/detail', 'List ports with details', 1, 200],
  ['GET', '/v1/ports/:port_uuid', 'Show a port', 1, 200],
  ['GET', '/v1/ports/:port_uuid/detail', 'Not found: detail is a collection path', 1, 404],
  ['GET', '/v1/ports/:port_uuid/:fields', 'Show a port: a further path segment is the fields to show', 1, 200],
  ['POST', '/v1/ports', 'Create a port', 1, 201, PORT_SCHEMA],
  ['PATCH', '/v1/ports/:port_uuid', 'Update a port (JSON patch)', 1, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/ports/:port_uuid', 'Delete a port', 1, 204],
  ['DELETE', '/v1/ports', 'Delete the port named by ?port_uuid= or the body', 1, 204],
  ['GET', '/v1/portgroups', 'List portgroups', 23, 200],
  ['GET', '/v1/portgroups/detail', 'List portgroups with details', 23, 200],
  ['GET', '/v1/portgroups/:ident', 'Show a portgroup', 23, 200],
  ['GET', '/v1/portgroups/:ident/detail', 'Not found: detail is a collection path', 23, 404],
  ['GET', '/v1/portgroups/:ident/ports', "List a portgroup's ports", 24, 200],
  ['GET', '/v1/portgroups/:ident/ports/detail', "List a portgroup's ports with details", 24, 200],
  ['GET', '/v1/portgroups/:ident/:fields', 'Show a portgroup: a further path segment is the fields to show', 23, 200],
  ['POST', '/v1/portgroups', 'Create a portgroup', 23, 201, PORTGROUP_SCHEMA],
  ['PATCH', '/v1/portgroups/:ident', 'Update a portgroup (JSON patch)', 23, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/portgroups/:ident', 'Delete a portgroup', 23, 204],
  ['DELETE', '/v1/portgroups', 'Delete the portgroup named by ?portgroup_ident= or the body', 23, 204],
  ['GET', '/v1/chassis', 'List chassis', 1, 200],
  ['GET', '/v1/chassis/detail', 'List chassis with details', 1, 200],
  ['GET', '/v1/chassis/:uuid', 'Show a chassis', 1, 200],
  ['GET', '/v1/chassis/:uuid/detail', 'Not found: detail is a collection path', 1, 404],
  ['POST', '/v1/chassis', 'Create a chassis', 1, 201, CHASSIS_SCHEMA],
  ['PATCH', '/v1/chassis/:uuid', 'Update a chassis (JSON patch)', 1, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/chassis/:uuid', 'Delete a chassis', 1, 204],
  ['DELETE', '/v1/chassis', 'Delete the chassis named by ?chassis_uuid= or the body', 1, 204],
  ['GET', '/v1/drivers', 'List drivers (hardware types)', 1, 200],
  ['GET', '/v1/drivers/:name', 'Show a driver', 1, 200],
  ['GET', '/v1/drivers/:name/properties', "A driver's driver_info properties", 1, 200],
  ['GET', '/v1/drivers/:name/raid/logical_disk_properties', 'RAID logical disk properties', 12, 200],
  ['GET', '/v1/drivers/:name/vendor_passthru/methods', 'Driver vendor passthru methods', 1, 200],
  ['GET', '/v1/conductors', 'List conductors', 49, 200],
  ['GET', '/v1/conductors/:hostname', 'Show a conductor', 49, 200],
  ['GET', '/v1/allocations', 'List allocations', 52, 200],
  ['GET', '/v1/allocations/:ident', 'Show an allocation', 52, 200],
  ['POST', '/v1/allocations', 'Create an allocation', 52, 201, ALLOCATION_SCHEMA],
  ['PATCH', '/v1/allocations/:ident', 'Update an allocation', 57, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/allocations/:ident', 'Delete an allocation', 52, 204],
  ['DELETE', '/v1/allocations', 'Delete the allocation named by ?allocation_ident= or the body', 52, 204],
  ['GET', '/v1/deploy_templates', 'List deploy templates', 55, 200],
  ['GET', '/v1/deploy_templates/:ident', 'Show a deploy template', 55, 200],
  ['POST', '/v1/deploy_templates', 'Create a deploy template', 55, 201, TEMPLATE_SCHEMA],
  ['PATCH', '/v1/deploy_templates/:ident', 'Update a deploy template', 55, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/deploy_templates/:ident', 'Delete a deploy template', 55, 204],
  ['DELETE', '/v1/deploy_templates', 'Delete the template named by ?template_ident= or the body', 55, 204],
  ['GET', '/v1/runbooks', 'List runbooks', 92, 200],
  ['GET', '/v1/runbooks/:ident', 'Show a runbook', 92, 200],
  ['POST', '/v1/runbooks', 'Create a runbook', 92, 201, RUNBOOK_SCHEMA],
  ['PATCH', '/v1/runbooks/:ident', 'Update a runbook', 92, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/runbooks/:ident', 'Delete a runbook', 92, 204],
  ['DELETE', '/v1/runbooks', 'Delete the runbook named by ?runbook_ident= or the body', 92, 204],
  ['GET', '/v1/volume', 'Volume resources', 32, 200],
  ['GET', '/v1/volume/connectors', 'List volume connectors', 32, 200],
  ['GET', '/v1/volume/connectors/:uuid', 'Show a volume connector', 32, 200],
  ['POST', '/v1/volume/connectors', 'Create a volume connector', 32, 201, CONNECTOR_SCHEMA],
  ['PATCH', '/v1/volume/connectors/:uuid', 'Update a volume connector', 32, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/volume/connectors/:uuid', 'Delete a volume connector', 32, 204],
  ['DELETE', '/v1/volume/connectors', 'Delete the connector named by ?connector_uuid= or the body', 32, 204],
  ['GET', '/v1/volume/targets', 'List volume targets', 32, 200],
  ['GET', '/v1/volume/targets/:uuid', 'Show a volume target', 32, 200],
  ['POST', '/v1/volume/targets', 'Create a volume target', 32, 201, TARGET_SCHEMA],
  ['PATCH', '/v1/volume/targets/:uuid', 'Update a volume target', 32, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/volume/targets/:uuid', 'Delete a volume target', 32, 204],
  ['DELETE', '/v1/volume/targets', 'Delete the target named by ?target_uuid= or the body', 32, 204],
  ['GET', '/v1/lookup', 'Ramdisk lookup by MAC addresses', 22, 200],
  ['POST', '/v1/heartbeat/:node_ident', 'Ramdisk heartbeat', 22, 202, { type: 'object', properties: { callback_url: { type: 'string' }, agent_version: { type: 'string' }, agent_token: { type: 'string' } } }],
  ['POST', '/v1/continue_inspection', 'Ramdisk inspection data (also at 1.1 for ironic-inspector ramdisks)', 84, 202, INSPECTION_DATA_SCHEMA],
  ['POST', '/v1/events', 'Post external events', 54, 204, EVENTS_SCHEMA],
  ['GET', '/v1/inspection_rules', 'List inspection rules', 96, 200],
  ['GET', '/v1/inspection_rules/:ident', 'Show an inspection rule', 96, 200],
  ['POST', '/v1/inspection_rules', 'Create an inspection rule', 96, 201, INSPECTION_RULE_SCHEMA],
  ['PATCH', '/v1/inspection_rules/:ident', 'Update an inspection rule', 96, 200, PATCH_SCHEMA],
  ['DELETE', '/v1/inspection_rules/:ident', 'Delete an inspection rule', 96, 204],
  ['DELETE', '/v1/inspection_rules', 'Delete the rule named by ?inspection_rule_uuid= or the body', 96, 204],
  ['GET', '/v1/shards', 'List shards with node counts', 82, 200],
  ['GET', '/v1/shards/:name', 'Not found: shards are only listed', 82, 404],
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((m): Row[] => [
    [m, '/v1/drivers/:name/vendor_passthru', 'Call a driver vendor passthru method (?method=)', 1, 200],
    [m, '/v1/drivers/:name/vendor_passthru/*method', 'Call a driver vendor passthru method', 1, 200],
  ]),
];

/** Paths whose other methods exist only to answer Ironic's 405. */
const METHOD_NOT_ALLOWED_PATHS = ['/v1/events', '/v1/shards', '/v1', '/v1/', '/v1/nodes/:node_ident/children'];

export function endpointDoc(method: string, path: string): EndpointDoc | undefined {
  const row = ROWS.find(([m, p]) => m === method && p === path);
  if (row) return { summary: row[2], minVersion: row[3], status: row[4], body: row[5] };
  if (METHOD_NOT_ALLOWED_PATHS.includes(path)) {
    return { summary: 'Answers 405 Method Not Allowed, as Ironic does', minVersion: 1, status: 405, methodNotAllowed: true };
  }
  return undefined;
}
