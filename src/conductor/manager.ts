/**
 * The conductor's local implementation of every ConductorApi call (conductor/manager.py),
 * delegating to one small module per area.
 */
import type { VirtualMediaInfo, VmediaDevice } from '../common/boot-devices';
import { InvalidParameterValue } from '../common/errors';
import { log } from '../common/log';
import * as allocationsRepo from '../db/repositories/allocations';
import type { AllocationRecord, NodeRecord, PortRecord, PortgroupRecord, VolumeConnectorRecord, VolumeTargetRecord } from '../db/models';
import type {
  BootDevice, ConductorApi, ConsoleInfo, DeployRequest, IndicatorFields, InterfaceValidation, JsonObject, Step,
  VendorMethodInfo, VendorPassthruResult, VifInfo,
} from '../rpc/conductor-api';
import { storeAgentCertificate } from './agent-certificate';
import { getNodeWithToken } from './agent-token';
import * as allocations from './allocations';
import { doNodeClean } from './cleaning';
import { processHeartbeat } from './continue-deploy';
import { continueInspection } from './continue-inspection';
import type { ConductorContext } from './context';
import { doNodeDeploy } from './deployments';
import * as indicators from './indicators';
import { inspectHardware } from './inspection';
import * as mgmt from './management';
import * as net from './network-ops';
import * as nodes from './node-ops';
import { changeNodePowerState, nodePowerAction } from './power';
import { doProvisioningAction } from './provisioning';
import { doNodeRescue, doNodeUnrescue } from './rescue';
import type { RingManager } from '../rpc/ring-manager';
import { doNodeService } from './servicing';
import { TaskManager } from './task-manager';
import { doNodeTearDown } from './teardown';
import * as vendor from './vendor-passthru';
import * as vmedia from './virtual-media';
import * as volume from './volume-ops';

export class ConductorManager implements ConductorApi {
  readonly tasks: TaskManager;

  constructor(readonly ctx: ConductorContext, private readonly rings: RingManager) {
    // Power actions through tasks also reach the node's parent and children.
    this.tasks = new TaskManager(ctx, (task, state, timeout) => nodePowerAction(task, state, timeout, this.tasks));
  }

  topicFor(node: Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>): Promise<string> {
    return this.rings.topicFor(node);
  }

  conductorHostsFor(nodes: ReadonlyArray<Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>>): Promise<Array<string | null>> {
    return this.rings.hostsFor(nodes);
  }

  createNode(values: Partial<NodeRecord> & { traits?: string[] }): Promise<NodeRecord> {
    return nodes.createNode(this.ctx, values);
  }

  updateNode(nodeUuid: string, changes: Partial<NodeRecord>, resetInterfaces?: boolean): Promise<NodeRecord> {
    return nodes.updateNode(this.ctx, this.tasks, nodeUuid, changes, resetInterfaces);
  }

  destroyNode(nodeUuid: string): Promise<void> {
    return nodes.destroyNode(this.ctx, this.tasks, nodeUuid);
  }

  validateDriverInterfaces(nodeUuid: string): Promise<Record<string, InterfaceValidation>> {
    return nodes.validateDriverInterfaces(this.ctx, this.tasks, nodeUuid);
  }

  changeNodePowerState(nodeUuid: string, target: string, timeout?: number): Promise<void> {
    return changeNodePowerState(this.tasks, nodeUuid, target, timeout);
  }

  doNodeDeploy(nodeUuid: string, request: DeployRequest): Promise<void> {
    return doNodeDeploy(this.tasks, nodeUuid, request);
  }

  doNodeTearDown(nodeUuid: string): Promise<void> {
    return doNodeTearDown(this.tasks, nodeUuid);
  }

  doProvisioningAction(nodeUuid: string, action: string): Promise<void> {
    return doProvisioningAction(this.tasks, nodeUuid, action);
  }

  doNodeClean(nodeUuid: string, cleanSteps: Step[], disableRamdisk?: boolean): Promise<void> {
    return doNodeClean(this.tasks, nodeUuid, cleanSteps, disableRamdisk);
  }

  doNodeService(nodeUuid: string, serviceSteps: Step[], disableRamdisk?: boolean): Promise<void> {
    return doNodeService(this.tasks, nodeUuid, serviceSteps, disableRamdisk);
  }

  doNodeRescue(nodeUuid: string, rescuePassword: string): Promise<void> {
    return doNodeRescue(this.tasks, nodeUuid, rescuePassword);
  }

  doNodeUnrescue(nodeUuid: string): Promise<void> {
    return doNodeUnrescue(this.tasks, nodeUuid);
  }

  inspectHardware(nodeUuid: string): Promise<void> {
    return inspectHardware(this.tasks, nodeUuid);
  }

  setBootDevice(nodeUuid: string, device: string, persistent: boolean): Promise<void> {
    return mgmt.setBootDevice(this.tasks, nodeUuid, device, persistent);
  }

  getBootDevice(nodeUuid: string): Promise<BootDevice> {
    return mgmt.getBootDevice(this.tasks, nodeUuid);
  }

  getSupportedBootDevices(nodeUuid: string): Promise<string[]> {
    return mgmt.getSupportedBootDevices(this.tasks, nodeUuid);
  }

  injectNmi(nodeUuid: string): Promise<void> {
    return mgmt.injectNmi(this.tasks, nodeUuid);
  }

  setConsoleMode(nodeUuid: string, enabled: boolean): Promise<void> {
    return mgmt.setConsoleMode(this.tasks, nodeUuid, enabled);
  }

  getConsoleInformation(nodeUuid: string): Promise<ConsoleInfo> {
    return mgmt.getConsoleInformation(this.tasks, nodeUuid);
  }

  setTargetRaidConfig(nodeUuid: string, config: JsonObject): Promise<void> {
    return mgmt.setTargetRaidConfig(this.tasks, nodeUuid, config);
  }

  changeNodeBootMode(nodeUuid: string, mode: string): Promise<void> {
    return mgmt.changeBootMode(this.tasks, nodeUuid, mode);
  }

  changeNodeSecureBoot(nodeUuid: string, enabled: boolean): Promise<void> {
    return mgmt.changeSecureBoot(this.tasks, nodeUuid, enabled);
  }

  vifAttach(nodeUuid: string, vif: VifInfo): Promise<void> {
    return net.vifAttach(this.tasks, nodeUuid, vif);
  }

  vifDetach(nodeUuid: string, vifId: string): Promise<void> {
    return net.vifDetach(this.tasks, nodeUuid, vifId);
  }

  vifList(nodeUuid: string): Promise<{ id: string }[]> {
    return net.vifList(this.tasks, nodeUuid);
  }

  addNodeTraits(nodeUuid: string, traits: string[], replace: boolean): Promise<void> {
    return net.addNodeTraits(this.ctx, this.tasks, nodeUuid, traits, replace);
  }

  removeNodeTraits(nodeUuid: string, traits: string[] | null): Promise<void> {
    return net.removeNodeTraits(this.ctx, this.tasks, nodeUuid, traits);
  }

  createPort(values: Partial<PortRecord>): Promise<PortRecord> {
    return net.createPort(this.ctx, this.tasks, values);
  }

  updatePort(portUuid: string, changes: Partial<PortRecord>): Promise<PortRecord> {
    return net.updatePort(this.ctx, this.tasks, portUuid, changes);
  }

  destroyPort(portUuid: string): Promise<void> {
    return net.destroyPort(this.ctx, this.tasks, portUuid);
  }

  createPortgroup(values: Partial<PortgroupRecord>): Promise<PortgroupRecord> {
    return net.createPortgroup(this.ctx, this.tasks, values);
  }

  updatePortgroup(portgroupUuid: string, changes: Partial<PortgroupRecord>): Promise<PortgroupRecord> {
    return net.updatePortgroup(this.ctx, this.tasks, portgroupUuid, changes);
  }

  destroyPortgroup(portgroupUuid: string): Promise<void> {
    return net.destroyPortgroup(this.ctx, this.tasks, portgroupUuid);
  }

  updateVolumeConnector(connectorUuid: string, changes: Partial<VolumeConnectorRecord>): Promise<VolumeConnectorRecord> {
    return volume.updateVolume(this.ctx, this.tasks, volume.CONNECTORS, connectorUuid, changes);
  }

  destroyVolumeConnector(connectorUuid: string): Promise<void> {
    return volume.destroyVolume(this.ctx, this.tasks, volume.CONNECTORS, connectorUuid);
  }

  updateVolumeTarget(targetUuid: string, changes: Partial<VolumeTargetRecord>): Promise<VolumeTargetRecord> {
    return volume.updateVolume(this.ctx, this.tasks, volume.TARGETS, targetUuid, changes);
  }

  destroyVolumeTarget(targetUuid: string): Promise<void> {
    return volume.destroyVolume(this.ctx, this.tasks, volume.TARGETS, targetUuid);
  }

  createAllocation(values: Partial<AllocationRecord>, nodeId: number | null): Promise<AllocationRecord> {
    return allocations.createAllocation(this.allocationContext(), values, nodeId);
  }

  async destroyAllocation(allocationUuid: string): Promise<void> {
    const allocation = await allocationsRepo.get(this.ctx.db, allocationUuid);
    return allocations.destroyAllocation(this.allocationContext(), allocation);
  }

  private allocationContext(): allocations.AllocationContext {
    const conf = this.ctx.conf;
    return {
      db: this.ctx.db, tasks: this.tasks, conductorId: this.ctx.conductorId,
      retryAttempts: conf.int('conductor', 'node_locked_retry_attempts'),
      retryIntervalMs: conf.int('conductor', 'node_locked_retry_interval') * 1000,
    };
  }

  async getDriverProperties(driverName: string): Promise<Record<string, string>> {
    return this.ctx.driverFactory.driverProperties(driverName);
  }

  async getRaidLogicalDiskProperties(driverName: string): Promise<Record<string, string>> {
    return this.ctx.driverFactory.raidLogicalDiskProperties(driverName);
  }

  getSupportedIndicators(nodeUuid: string): Promise<Record<string, Record<string, IndicatorFields>>> {
    return indicators.getSupportedIndicators(this.tasks, nodeUuid);
  }

  getIndicatorState(nodeUuid: string, component: string, indicator: string): Promise<string> {
    return indicators.getIndicatorState(this.tasks, nodeUuid, component, indicator);
  }

  setIndicatorState(nodeUuid: string, component: string, indicator: string, state: string): Promise<void> {
    return indicators.setIndicatorState(this.tasks, nodeUuid, component, indicator, state);
  }

  getNodeVendorPassthruMethods(nodeUuid: string): Promise<Record<string, VendorMethodInfo>> {
    return vendor.getNodeVendorPassthruMethods(this.tasks, nodeUuid);
  }

  vendorPassthru(nodeUuid: string, method: string, httpMethod: string, data: unknown): Promise<VendorPassthruResult> {
    return vendor.vendorPassthru(this.tasks, nodeUuid, method, httpMethod, data);
  }

  getVirtualMedia(nodeUuid: string): Promise<VirtualMediaInfo[]> {
    return vmedia.getVirtualMedia(this.tasks, nodeUuid);
  }

  attachVirtualMedia(nodeUuid: string, deviceType: VmediaDevice, imageUrl: string): Promise<void> {
    return vmedia.attachVirtualMedia(this.tasks, nodeUuid, deviceType, imageUrl);
  }

  detachVirtualMedia(nodeUuid: string, deviceTypes: VmediaDevice[] | null): Promise<void> {
    return vmedia.detachVirtualMedia(this.tasks, nodeUuid, deviceTypes);
  }

  /**
   * Agent heartbeat (manager.heartbeat): the token is checked under a shared lock and the
   * processing runs in a worker, so the agent gets its 202 at once.
   */
  async heartbeat(nodeUuid: string, callbackUrl: string, agentVersion: string | null, agentToken: string | null,
    extra: JsonObject): Promise<void> {
    if (agentVersion === null && !extra.agent_status) {
      throw new InvalidParameterValue('Agent did not transmit a version, and a version is required. Please update the agent being used.');
    }
    await this.tasks.run(nodeUuid, { purpose: 'heartbeat', shared: true }, async (task) => {
      const expected = (task.node.driver_internal_info ?? {}).agent_secret_token;
      if (agentToken === null || agentToken !== expected) {
        throw new InvalidParameterValue('Invalid or missing agent token received.');
      }
      if (this.ctx.conf.bool('agent', 'require_tls') && callbackUrl && !callbackUrl.startsWith('https://')) {
        log.error(`Rejecting callback_url ${callbackUrl} for node ${task.node.uuid} because it does not use TLS`);
        throw new InvalidParameterValue('TLS is required by configuration');
      }
      if (typeof extra.agent_verify_ca === 'string' && extra.agent_verify_ca) {
        extra = { ...extra, agent_verify_ca: await storeAgentCertificate(this.ctx.conf, task.node, extra.agent_verify_ca) };
      }
      task.spawnAfter((t) => processHeartbeat(this.tasks, t, callbackUrl, agentVersion, extra));
    });
  }

  /** Inspection data posted by the ramdisk to /v1/continue_inspection. */
  continueInspection(nodeUuid: string, inventory: JsonObject, pluginData: JsonObject): Promise<void> {
    return continueInspection(this.tasks, nodeUuid, inventory, pluginData);
  }

  /** Lookup by the ramdisk: hands out the agent token once (get_node_with_token). */
  getNodeWithToken(nodeUuid: string): Promise<NodeRecord> {
    return getNodeWithToken(this.tasks, nodeUuid);
  }
}
