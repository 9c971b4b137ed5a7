/**
 * The compute driver shim: Nova's ironic virt driver deploy operations (spawn, rebuild, rescue,
 * unrescue, destroy) issued against the Ironic API in the order Nova issues them; the rest of
 * the driver contract is in InstanceOps.
 */
import type { IronicNode } from './client';
import { buildInstanceConfigDrive } from './configdrive';
import {
  ComputeError, ComputeResourcesUnavailable, DeployFailedError, instanceNotFound, InstanceDeployFailure, IronicApiError,
  NodeAlreadyAssociatedError, RescueFailedError, UnrescueFailedError, ValidationFailedError, WaitTimeoutError,
} from './errors';
import { InstanceOps, reasonOf } from './instance-ops';
import { filesForExtraData } from './metadata';
import { nodeNetworkMetadata, NetworkMetadata } from './network-metadata';
import { deployPatch } from './patcher';
import { pyRepr } from '../common/python/repr';
import { resourcesUnavailable, resourcesUsed } from './resources';
import type { NetworkInfo, SpawnRequest } from './types';
import { pollUntil } from './wait';

/** driver._UNPROVISION_STATES: states from which destroy asks Ironic for `deleted`. */
const UNPROVISION_STATES = new Set([
  'active', 'deploy failed', 'error', 'wait call-back', 'deploying',
  'rescue', 'rescuing', 'rescue wait', 'rescue failed', 'unrescuing', 'unrescue failed',
]);
/** States in which Nova considers the instance unprovisioned. */
const UNPROVISIONED = new Set([null, 'cleaning', 'clean wait', 'clean failed', 'available']);

export class ComputeDriver extends InstanceOps {

  /** prepare_for_spawn: refuse a used or unschedulable node, then reserve it for the instance. */
  async prepareForSpawn(nodeIdent: string, instanceUuid: string): Promise<IronicNode> {
    const node = await this.client.getNode(nodeIdent);
    if (resourcesUsed(node) || resourcesUnavailable(node)) throw new ComputeResourcesUnavailable(node.uuid);
    await this.reserve(node, instanceUuid);
    this.progress('reserved', node.uuid, `for instance ${instanceUuid}`);
    return node;
  }

  /** _set_instance_id, without the SDK's conflict retry: any refusal fails the reservation (409: another instance won). */
  async reserve(node: IronicNode, instanceUuid: string): Promise<void> {
    try {
      await this.client.patchNode(node.uuid, [{ op: 'replace', path: '/instance_uuid', value: instanceUuid }]);
    } catch (err) {
      if (err instanceof IronicApiError) throw new NodeAlreadyAssociatedError(node.uuid, instanceUuid, err.faultstring);
      throw err;
    }
  }

  /** prepare_for_spawn, prepare_networks_before_block_device_mapping, spawn. */
  async spawn(req: SpawnRequest): Promise<IronicNode> {
    const node = await this.prepareForSpawn(req.node, req.instanceUuid);
    try {
      await this.plugVifs(node.uuid, req.networkInfo);
      await this.deploy(node, req);
    } catch (err) {
      // failed_spawn_cleanup + _cleanup_deploy: the node must not keep our instance or VIFs.
      await this.cleanupDeploy(node.uuid, req.networkInfo, true).catch(() => undefined);
      throw err;
    }
    return this.waitForActive(node.uuid, req.instanceUuid);
  }

  private async deploy(node: IronicNode, req: SpawnRequest): Promise<void> {
    await this.addInstanceInfo(node, req);
    this.progress('instance_info', node.uuid, 'updated');
    await this.validate(node.uuid);
    const configdrive = await this.configDrive(node.uuid, req);
    this.progress('configdrive', node.uuid, 'built');
    try {
      await this.client.setProvisionState(node.uuid, { target: 'active', configdrive, ...extraData(req) });
    } catch (err) {
      if (err instanceof IronicApiError) throw new InstanceDeployFailure(`Failed to request Ironic to provision instance ${req.instanceUuid}: ${err.faultstring}`);
      throw err;
    }
  }

  private async addInstanceInfo(node: IronicNode, req: SpawnRequest, preserveEphemeral?: boolean): Promise<void> {
    try {
      await this.client.patchNode(node.uuid, deployPatch(node, req, preserveEphemeral));
    } catch (err) {
      if (err instanceof IronicApiError && err.status === 400) {
        throw new InstanceDeployFailure(`Failed to add deploy parameters on node ${node.uuid} when provisioning the instance ${req.instanceUuid}`);
      }
      throw err;
    }
  }

  /** _generate_configdrive: Nova's metadata with network_data.json from the node's ports. */
  async configDrive(node: string, req: SpawnRequest): Promise<string> {
    return buildInstanceConfigDrive(req, await this.networkMetadata(node, req.networkInfo));
  }

  /** _get_network_metadata. */
  async networkMetadata(node: string, networkInfo: NetworkInfo | undefined): Promise<NetworkMetadata | null> {
    if (!networkInfo?.length) return null;
    const [ports, portgroups] = await Promise.all([this.client.listPorts(node), this.client.listPortgroups(node)]);
    return nodeNetworkMetadata(networkInfo, ports, portgroups);
  }

  private async validate(node: string): Promise<void> {
    const v = await this.client.validateNode(node);
    const ok = (k: string): boolean => Boolean(v[k]?.result);
    if (!ok('deploy') || !ok('power') || !ok('storage')) {
      const show = (k: string): string => pyRepr(v[k] ?? null);
      throw new ValidationFailedError(`Ironic node: ${node} failed to validate. (deploy: ${show('deploy')}, power: ${show('power')}, storage: ${show('storage')})`);
    }
  }

  /** _wait_for_active. */
  async waitForActive(node: string, instanceUuid: string): Promise<IronicNode> {
    return pollUntil('the node to become active', async () => {
      const n = await this.instanceNode(instanceUuid);
      this.progress('deploying', n);
      if (n.provision_state === 'active') return n;
      if (n.target_provision_state === 'deleted' || n.target_provision_state === 'available') throw instanceNotFound(instanceUuid);
      if (n.provision_state === null || n.provision_state === 'available') throw instanceNotFound(instanceUuid);
      if (n.provision_state === 'deploy failed') throw new DeployFailedError(n.uuid, n.last_error, `Failed to provision instance ${instanceUuid}: ${n.last_error}`);
      return undefined;
    }, this.opts);
  }

  /** rebuild: new instance_info (preserve_ephemeral recorded), a fresh config drive, target `rebuild`. */
  async rebuild(req: SpawnRequest, preserveEphemeral = false): Promise<IronicNode> {
    const node = await this.instanceNode(req.instanceUuid);
    await this.addInstanceInfo(node, req, preserveEphemeral);
    this.progress('instance_info', node.uuid, 'updated');
    let configdrive: string;
    try {
      configdrive = await this.configDrive(node.uuid, req);
    } catch (err) {
      throw new InstanceDeployFailure(`Failed to build configdrive: ${(err as Error).message}`);
    }
    try {
      await this.client.setProvisionState(node.uuid, { target: 'rebuild', configdrive });
    } catch (err) {
      if (err instanceof IronicApiError) throw new InstanceDeployFailure(`Failed to request Ironic to rebuild instance ${req.instanceUuid}: ${err.faultstring}`);
      throw err;
    }
    return this.waitForActive(node.uuid, req.instanceUuid);
  }

  /** rescue: target `rescue` with the password; done in `rescue`, failed in `rescue failed`. */
  async rescue(instanceUuid: string, rescuePassword: string): Promise<IronicNode> {
    const node = await this.instanceNode(instanceUuid).catch((e: Error) => { throw new RescueFailedError(e.message); });
    await this.client.setProvisionState(node.uuid, { target: 'rescue', rescue_password: rescuePassword })
      .catch((err: unknown) => { throw new RescueFailedError(reasonOf(err)); });
    return this.waitForProvision(instanceUuid, 'rescue', 'rescue failed', (r) => new RescueFailedError(r));
  }

  /** unrescue: target `unrescue`; done back in `active`, failed in `unrescue failed`. */
  async unrescue(instanceUuid: string): Promise<IronicNode> {
    const node = await this.instanceNode(instanceUuid).catch((e: Error) => { throw new UnrescueFailedError(e.message); });
    await this.client.setProvisionState(node.uuid, { target: 'unrescue' })
      .catch((err: unknown) => { throw new UnrescueFailedError(reasonOf(err)); });
    return this.waitForProvision(instanceUuid, 'active', 'unrescue failed', (r) => new UnrescueFailedError(r));
  }

  private waitForProvision(instanceUuid: string, done: string, failed: string, fail: (reason: string) => ComputeError): Promise<IronicNode> {
    return pollUntil(`the node to reach ${done}`, async () => {
      const n = await this.instanceNode(instanceUuid).catch((e: Error) => { throw fail(e.message); });
      this.progress(done === 'active' ? 'unrescuing' : 'rescuing', n);
      if (n.provision_state === failed) throw fail(String(n.last_error));
      return n.provision_state === done ? n : undefined;
    }, this.opts);
  }

  /**
   * destroy: unprovision from an active-like state and wait for an unprovisioned one, or just drop
   * the instance from a node Ironic never started deploying; then unplug the VIFs.
   */
  async destroy(instanceUuid: string, vifIds: string[] = []): Promise<IronicNode | null> {
    const node = await this.client.nodeByInstance(instanceUuid);
    if (!node) return null; // Nova: destroying a missing instance succeeds.
    try {
      if (node.provision_state !== null && UNPROVISION_STATES.has(node.provision_state)) await this.unprovision(node, instanceUuid);
      else await this.removeInstanceInfo(node.uuid);
    } finally {
      await this.cleanupVolumeTargets(node.uuid);
      await this.unplugVifs(node.uuid, vifIds);
    }
    return this.client.getNode(node.uuid);
  }

  private async unprovision(node: IronicNode, instanceUuid: string): Promise<void> {
    await this.client.setProvisionState(node.uuid, { target: 'deleted' });
    this.progress('deleting', node.uuid, `unprovision requested from ${node.provision_state}`);
    let last = node.provision_state;
    await pollUntil('the node to be unprovisioned', async () => {
      const n = await this.client.nodeByInstance(instanceUuid);
      if (!n) return true;
      last = n.provision_state;
      this.progress('deleting', n);
      return UNPROVISIONED.has(n.provision_state) ? true : undefined;
    }, this.opts).catch((err: unknown) => {
      if (!(err instanceof WaitTimeoutError)) throw err;
      throw new ComputeError(`Error destroying the instance on node ${node.uuid}. Provision state still '${last}'.`);
    });
  }

  /** _cleanup_deploy. */
  private async cleanupDeploy(node: string, networkInfo: NetworkInfo = [], removeInstanceInfo: boolean): Promise<void> {
    await this.cleanupVolumeTargets(node);
    await this.unplugVifs(node, networkInfo.map((v) => v.id));
    if (removeInstanceInfo) await this.removeInstanceInfo(node);
  }

  /** _cleanup_volume_target_info: every volume target of the node goes; failures are only reported. */
  private async cleanupVolumeTargets(node: string): Promise<void> {
    for (const t of await this.client.listVolumeTargets(node)) {
      try {
        await this.client.deleteVolumeTarget(t.uuid);
        this.progress('volume', node, `removed target ${t.uuid} of volume ${t.volume_id}`);
      } catch (err) {
        if (err instanceof IronicApiError && err.status === 404) continue;
        this.progress('volume', node, `failed to remove target ${t.uuid} of volume ${t.volume_id}: ${reasonOf(err)}`);
      }
    }
  }

  /** _remove_instance_info_from_node; the SDK retries 409 (node locked by a conductor task). */
  private async removeInstanceInfo(node: string, attempts = 10): Promise<void> {
    for (let i = 1; ; i++) {
      try {
        await this.client.patchNode(node, [{ op: 'remove', path: '/instance_info' }, { op: 'remove', path: '/instance_uuid' }]);
        return;
      } catch (err) {
        if (err instanceof IronicApiError && err.status === 400) return; // Nova logs and goes on.
        if (!(err instanceof IronicApiError && err.status === 409) || i >= attempts) throw err;
        await new Promise((r) => setTimeout(r, this.opts.intervalMs ?? 2000));
      }
    }
  }
}

/** The shim's addition: admin password and injected files as extra_data for the deploy to inject. */
function extraData(req: SpawnRequest): { extra_data?: Record<string, unknown> } {
  const extra: Record<string, unknown> = {};
  if (req.adminPass) extra.admin_pass = req.adminPass;
  if (req.files?.length) extra.files = filesForExtraData(req.files);
  return Object.keys(extra).length ? { extra_data: extra } : {};
}
