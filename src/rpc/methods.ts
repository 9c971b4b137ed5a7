/** ConductorApi methods a transport may carry, and how each finds the node that routes it. */
import type { ConductorApi } from './conductor-api';

/** RPC methods: everything but the hash-ring lookups, which every API process answers itself. */
export type MethodName = Exclude<keyof ConductorApi, 'topicFor' | 'conductorHostsFor'>;

/** How to find the routing node: the node UUID argument, node_id in values, the node of the named port, portgroup, volume connector, target or allocation, or none. */
type Route = 'node' | 'values' | 'port' | 'portgroup' | 'volumeConnector' | 'volumeTarget' | 'allocation' | 'any';

export const METHOD_ROUTES: Readonly<Record<MethodName, Route>> = {
  createNode: 'values', updateNode: 'node', destroyNode: 'node', validateDriverInterfaces: 'node',
  changeNodePowerState: 'node', doNodeDeploy: 'node', doNodeTearDown: 'node', doProvisioningAction: 'node',
  doNodeClean: 'node', doNodeService: 'node', doNodeRescue: 'node', doNodeUnrescue: 'node', inspectHardware: 'node',
  setBootDevice: 'node', getBootDevice: 'node', getSupportedBootDevices: 'node', injectNmi: 'node',
  setConsoleMode: 'node', getConsoleInformation: 'node', setTargetRaidConfig: 'node', changeNodeBootMode: 'node',
  changeNodeSecureBoot: 'node', vifAttach: 'node', vifDetach: 'node', vifList: 'node', addNodeTraits: 'node',
  removeNodeTraits: 'node', createPort: 'values', updatePort: 'port', destroyPort: 'port', createPortgroup: 'values',
  updatePortgroup: 'portgroup', destroyPortgroup: 'portgroup', updateVolumeConnector: 'volumeConnector',
  destroyVolumeConnector: 'volumeConnector', updateVolumeTarget: 'volumeTarget', destroyVolumeTarget: 'volumeTarget',
  createAllocation: 'any', destroyAllocation: 'allocation', getDriverProperties: 'any',
  getRaidLogicalDiskProperties: 'any', heartbeat: 'node', getNodeWithToken: 'node', continueInspection: 'node',
  getSupportedIndicators: 'node', getIndicatorState: 'node', setIndicatorState: 'node',
  getNodeVendorPassthruMethods: 'node', vendorPassthru: 'node',
  getVirtualMedia: 'node', attachVirtualMedia: 'node', detachVirtualMedia: 'node',
};

export const METHOD_NAMES = Object.keys(METHOD_ROUTES) as MethodName[];
