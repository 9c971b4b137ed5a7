/**
 * The contract between the API and the conductors: Ironic's conductor RPC methods (rpcapi.py),
 * with camelCase names. Transports (in-process, AMQP) carry exactly these calls; the API never
 * touches driver code or takes node locks itself.
 *
 * Calls that start long work return once the conductor has taken the lock and fired the first
 * state-machine event, as Ironic's `spawn_after` does, so the API can answer 202.
 */
import type { AllocationRecord, NodeRecord, PortRecord, PortgroupRecord, VolumeConnectorRecord, VolumeTargetRecord } from '../db/models';

import type { JsonObject } from '../common/json-value';
import type { VirtualMediaInfo, VmediaDevice } from '../common/boot-devices';

export type { JsonObject };

/** One interface's validation outcome, as `GET /v1/nodes/{id}/validate` reports it. */
export interface InterfaceValidation {
  result: boolean | null;
  reason?: string;
}

export interface Step {
  interface: string;
  step: string;
  args?: JsonObject;
  priority?: number;
}

export interface DeployRequest {
  rebuild: boolean;
  configdrive?: string | JsonObject;
  deploySteps?: Step[];
  /** ironic-ts extension: carried untouched to the deploy interface (admin password, files). */
  extraData?: JsonObject;
}

export interface VifInfo {
  id: string;
  port_uuid?: string;
  portgroup_uuid?: string;
  [key: string]: unknown;
}

export interface BootDevice {
  boot_device: string | null;
  persistent: boolean | null;
}

/** What the console interface's get_console returns, passed through untouched (fake: {}). */
export interface ConsoleInfo {
  type?: string;
  url?: string;
  [key: string]: unknown;
}

/** One indicator's facts in get_supported_indicators. */
export interface IndicatorFields {
  readonly: boolean;
  states: string[];
}

/** What get_node_vendor_passthru_methods reports per method (the @passthru metadata). */
export interface VendorMethodInfo {
  http_methods: string[];
  async: boolean;
  description: string;
  attach: boolean;
  require_exclusive_lock: boolean;
}

/** vendor_passthru's answer: the method's return (null when it runs asynchronously). */
export interface VendorPassthruResult {
  return: unknown;
  async: boolean;
  attach: boolean;
}

export interface ConductorApi {
  /** Which conductor (host) owns this node, by the hash ring. Throws NoValidHost when none can. */
  topicFor(node: Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>): Promise<string>;
  /** The owning conductor's host for each node (null where none can take it), for node lists. */
  conductorHostsFor(nodes: ReadonlyArray<Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>>): Promise<Array<string | null>>;

  createNode(values: Partial<NodeRecord> & { traits?: string[] }): Promise<NodeRecord>;
  /** Applies a validated node change under an exclusive lock; `resetInterfaces` as PATCH ?reset_interfaces. */
  updateNode(nodeUuid: string, changes: Partial<NodeRecord>, resetInterfaces?: boolean): Promise<NodeRecord>;
  destroyNode(nodeUuid: string): Promise<void>;
  validateDriverInterfaces(nodeUuid: string): Promise<Record<string, InterfaceValidation>>;

  changeNodePowerState(nodeUuid: string, target: string, timeout?: number): Promise<void>;
  doNodeDeploy(nodeUuid: string, request: DeployRequest): Promise<void>;
  doNodeTearDown(nodeUuid: string): Promise<void>;
  /** manage, provide, abort, adopt, unhold. */
  doProvisioningAction(nodeUuid: string, action: string): Promise<void>;
  doNodeClean(nodeUuid: string, cleanSteps: Step[], disableRamdisk?: boolean): Promise<void>;
  doNodeService(nodeUuid: string, serviceSteps: Step[], disableRamdisk?: boolean): Promise<void>;
  doNodeRescue(nodeUuid: string, rescuePassword: string): Promise<void>;
  doNodeUnrescue(nodeUuid: string): Promise<void>;
  inspectHardware(nodeUuid: string): Promise<void>;

  setBootDevice(nodeUuid: string, device: string, persistent: boolean): Promise<void>;
  getBootDevice(nodeUuid: string): Promise<BootDevice>;
  getSupportedBootDevices(nodeUuid: string): Promise<string[]>;
  injectNmi(nodeUuid: string): Promise<void>;
  setConsoleMode(nodeUuid: string, enabled: boolean): Promise<void>;
  getConsoleInformation(nodeUuid: string): Promise<ConsoleInfo>;
  setTargetRaidConfig(nodeUuid: string, config: JsonObject): Promise<void>;
  changeNodeBootMode(nodeUuid: string, mode: string): Promise<void>;
  changeNodeSecureBoot(nodeUuid: string, enabled: boolean): Promise<void>;

  vifAttach(nodeUuid: string, vif: VifInfo): Promise<void>;
  vifDetach(nodeUuid: string, vifId: string): Promise<void>;
  vifList(nodeUuid: string): Promise<{ id: string }[]>;
  addNodeTraits(nodeUuid: string, traits: string[], replace: boolean): Promise<void>;
  removeNodeTraits(nodeUuid: string, traits: string[] | null): Promise<void>;

  createPort(values: Partial<PortRecord>): Promise<PortRecord>;
  updatePort(portUuid: string, changes: Partial<PortRecord>): Promise<PortRecord>;
  destroyPort(portUuid: string): Promise<void>;
  createPortgroup(values: Partial<PortgroupRecord>): Promise<PortgroupRecord>;
  updatePortgroup(portgroupUuid: string, changes: Partial<PortgroupRecord>): Promise<PortgroupRecord>;
  destroyPortgroup(portgroupUuid: string): Promise<void>;
  /** Volume connector/target changes, under the node's lock while it is powered off (creates need no lock). */
  updateVolumeConnector(connectorUuid: string, changes: Partial<VolumeConnectorRecord>): Promise<VolumeConnectorRecord>;
  destroyVolumeConnector(connectorUuid: string): Promise<void>;
  updateVolumeTarget(targetUuid: string, changes: Partial<VolumeTargetRecord>): Promise<VolumeTargetRecord>;
  destroyVolumeTarget(targetUuid: string): Promise<void>;

  /** Stores an allocation and, with `nodeId`, backfills it at once; otherwise a node is picked in the background. */
  createAllocation(values: Partial<AllocationRecord>, nodeId: number | null): Promise<AllocationRecord>;
  /** Deletes an allocation, under its node's lock when it has one. */
  destroyAllocation(allocationUuid: string): Promise<void>;

  getDriverProperties(driverName: string): Promise<Record<string, string>>;
  getRaidLogicalDiskProperties(driverName: string): Promise<Record<string, string>>;

  /** Ramdisk callbacks. */
  heartbeat(nodeUuid: string, callbackUrl: string, agentVersion: string | null, agentToken: string | null, extra: JsonObject): Promise<void>;
  getNodeWithToken(nodeUuid: string): Promise<NodeRecord>;
  /** The inventory and plugin data the ramdisk posted to /v1/continue_inspection. */
  continueInspection(nodeUuid: string, inventory: JsonObject, pluginData: JsonObject): Promise<void>;

  /** Indicators by component (shared lock). */
  getSupportedIndicators(nodeUuid: string): Promise<Record<string, Record<string, IndicatorFields>>>;
  /** One indicator's state, e.g. "on" (exclusive lock). */
  getIndicatorState(nodeUuid: string, component: string, indicator: string): Promise<string>;
  /** Sets an indicator (exclusive lock). */
  setIndicatorState(nodeUuid: string, component: string, indicator: string, state: string): Promise<void>;
  /** The node's vendor interface methods (shared lock). */
  getNodeVendorPassthruMethods(nodeUuid: string): Promise<Record<string, VendorMethodInfo>>;
  /** Calls a vendor method with the request body; upgrades to exclusive when the method requires it. */
  vendorPassthru(nodeUuid: string, method: string, httpMethod: string, data: unknown): Promise<VendorPassthruResult>;

  /** The node's virtual media devices (get_virtual_media, 1.93). */
  getVirtualMedia(nodeUuid: string): Promise<VirtualMediaInfo[]>;
  /** Starts attaching an HTTP(S) image as a device (attach_virtual_media, 1.89); failures end in last_error. */
  attachVirtualMedia(nodeUuid: string, deviceType: VmediaDevice, imageUrl: string): Promise<void>;
  /** Starts detaching the devices of these types, all when null (detach_virtual_media, 1.89). */
  detachVirtualMedia(nodeUuid: string, deviceTypes: VmediaDevice[] | null): Promise<void>;
}
