/**
 * The compute driver shim: Nova's ironic virt driver operations (spawn, destroy, reboot, power,
 * node listing) issued against the Ironic API in the order Nova issues them.
 */
import { IronicClient, IronicNode } from './client';
import {
  DeployFailedError, InstanceGoneError, IronicApiError, NodeAlreadyAssociatedError, ValidationFailedError, ComputeError,
  RescueFailedError, UnrescueFailedError,
} from './errors';
import { buildInstanceConfigDrive, filesForExtraData } from './metadata';
import { deployPatch } from './patcher';
import type { ProgressFn, SpawnRequest, WaitOptions } from './types';
import { pollUntil } from './wait';

/** driver._UNPROVISION_STATES: states from which destroy asks Ironic for `deleted`. */
const UNPROVISION_STATES = new Set([
  'active', 'deploy failed', 'error', 'wait call-back', 'deploying', 'deploy hold',
  'rescue', 'rescue wait', 'rescue failed', 'rescuing', 'unrescue failed', 'unrescuing',
  'servicing', 'service wait', 'service failed',
]);
/** States in which Nova considers the instance unprovisioned. */
const UNPROVISIONED = new Set([null, 'cleaning', 'clean wait', 'clean failed', 'available']);

export interface DriverOptions extends WaitOptions {
  onProgress?: ProgressFn;
}

export class ComputeDriver {
  constructor(readonly client: IronicClient, readonly opts: DriverOptions = {}) {}

  private progress(phase: string, node: string, extra: { provisionState?: string | null; targetState?: string | null; message?: string } = {}): void {
    this.opts.onProgress?.({ phase, node, ...extra });
  }

  /** prepare_for_spawn + spawn. */
  async spawn(req: SpawnRequest): Promise<IronicNode> {
    const node = await this.client.getNode(req.node);
    await this.setInstanceUuid(node.uuid, req.instanceUuid);
    try {
      await this.client.patchNode(node.uuid, deployPatch(node, req));
      this.progress('instance_info', node.uuid);
      if (req.network?.portId) await this.plugVif(node.uuid, req.network.portId);
      await this.validate(node.uuid);
      const configdrive = await buildInstanceConfigDrive(req);
      this.progress('configdrive', node.uuid);
      const extra: Record<string, unknown> = {};
      if (req.adminPass) extra.admin_pass = req.adminPass;
      if (req.files?.length) extra.files = filesForExtraData(req.files);
      await this.client.setProvisionState(node.uuid, {
        target: 'active', configdrive, ...(Object.keys(extra).length ? { extra_data: extra } : {}),
      });
    } catch (err) {
      // Nova's _cleanup_deploy (+ failed_spawn_cleanup): the node must not keep our instance.
      await this.cleanupDeploy(node.uuid, req.network?.portId).catch(() => undefined);
      throw err;
    }
    return this.waitForActive(node.uuid, req.instanceUuid);
  }

  private async setInstanceUuid(node: string, instanceUuid: string): Promise<void> {
    try {
      await this.client.patchNode(node, [{ op: 'replace', path: '/instance_uuid', value: instanceUuid }]);
    } catch (err) {
      if (err instanceof IronicApiError && err.status === 409) throw new NodeAlreadyAssociatedError(node, err.faultstring);
      throw err;
    }
  }

  /** _plug_vif: 409 means already attached, which is fine. */
  private async plugVif(node: string, portId: string): Promise<void> {
    try {
      await this.client.attachVif(node, portId);
    } catch (err) {
      if (!(err instanceof IronicApiError && err.status === 409)) throw err;
    }
  }

  private async validate(node: string): Promise<void> {
    const v = await this.client.validateNode(node);
    const bad = ['deploy', 'power', 'storage'].filter((k) => v[k] && v[k].result === false);
    if (bad.length) {
      const reasons = bad.map((k) => `${k}: ${v[k].reason}`).join('; ');
      throw new ValidationFailedError(`Ironic node: ${node} failed to validate. (${reasons})`);
    }
  }

  /** _wait_for_active, keyed on the instance like _validate_instance_and_node. */
  async waitForActive(node: string, instanceUuid: string): Promise<IronicNode> {
    return pollUntil('the node to become active', async () => {
      const n = await this.client.nodeByInstance(instanceUuid);
      if (!n) throw new InstanceGoneError(`instance ${instanceUuid} is no longer on node ${node}`);
      this.progress('deploying', n.uuid, { provisionState: n.provision_state, targetState: n.target_provision_state });
      if (n.provision_state === 'active') return n;
      if (n.target_provision_state === 'deleted' || n.target_provision_state === 'available') throw new InstanceGoneError(`Ironic is deleting instance ${instanceUuid}`);
      if (n.provision_state === null || n.provision_state === 'available') throw new InstanceGoneError(`instance ${instanceUuid} was removed`);
      if (n.provision_state === 'deploy failed') throw new DeployFailedError(n.uuid, n.last_error, `Failed to provision instance ${instanceUuid}: ${n.last_error}`);
      return undefined;
    }, this.opts);
  }

  /**
   * rebuild: new instance_info (preserve_ephemeral recorded), a fresh config drive, target
   * `rebuild`, then the same wait as spawn (the node ends in active).
   */
  async rebuild(req: SpawnRequest, preserveEphemeral = false): Promise<IronicNode> {
    const node = await this.client.getNode(req.node);
    await this.client.patchNode(node.uuid, deployPatch(node, req, preserveEphemeral));
    const configdrive = await buildInstanceConfigDrive(req);
    try {
      await this.client.setProvisionState(node.uuid, { target: 'rebuild', configdrive });
    } catch (err) {
      if (err instanceof IronicApiError) throw new DeployFailedError(node.uuid, null, `Failed to request Ironic to rebuild instance ${req.instanceUuid}: ${err.faultstring}`);
      throw err;
    }
    return this.waitForActive(node.uuid, req.instanceUuid);
  }

  /** rescue: target `rescue` with the password; done in `rescue`, failed in `rescue failed`. */
  async rescue(instanceUuid: string, rescuePassword: string): Promise<IronicNode> {
    const node = await this.requireInstanceNode(instanceUuid, RescueFailedError);
    await this.client.setProvisionState(node.uuid, { target: 'rescue', rescue_password: rescuePassword })
      .catch((err: unknown) => { throw new RescueFailedError(String((err as Error).message)); });
    return this.waitForProvision(instanceUuid, 'rescue', 'rescue failed', RescueFailedError);
  }

  /** unrescue: target `unrescue`; done back in `active`, failed in `unrescue failed`. */
  async unrescue(instanceUuid: string): Promise<IronicNode> {
    const node = await this.requireInstanceNode(instanceUuid, UnrescueFailedError);
    await this.client.setProvisionState(node.uuid, { target: 'unrescue' })
      .catch((err: unknown) => { throw new UnrescueFailedError(String((err as Error).message)); });
    return this.waitForProvision(instanceUuid, 'active', 'unrescue failed', UnrescueFailedError);
  }

  private async requireInstanceNode(instanceUuid: string, Failure: new (m: string) => ComputeError): Promise<IronicNode> {
    const n = await this.client.nodeByInstance(instanceUuid);
    if (!n) throw new Failure(`Instance ${instanceUuid} could not be found.`);
    return n;
  }

  private waitForProvision(instanceUuid: string, done: string, failed: string, Failure: new (m: string) => ComputeError): Promise<IronicNode> {
    return pollUntil(`the node to reach ${done}`, async () => {
      const n = await this.requireInstanceNode(instanceUuid, Failure);
      this.progress(done, n.uuid, { provisionState: n.provision_state, targetState: n.target_provision_state });
      if (n.provision_state === failed) throw new Failure(String(n.last_error));
      return n.provision_state === done ? n : undefined;
    }, this.opts);
  }

  /** destroy: unprovision when needed, wait for an unprovisioned state, then clear the node. */
  async destroy(nodeIdent: string, portIds: string[] = []): Promise<IronicNode> {
    const node = await this.client.getNode(nodeIdent);
    if (node.provision_state !== null && UNPROVISION_STATES.has(node.provision_state)) {
      await this.client.setProvisionState(node.uuid, { target: 'deleted' });
      await pollUntil('the node to be unprovisioned', async () => {
        const n = await this.client.getNode(node.uuid);
        this.progress('deleting', n.uuid, { provisionState: n.provision_state, targetState: n.target_provision_state });
        return UNPROVISIONED.has(n.provision_state) ? n : undefined;
      }, this.opts);
    }
    await this.cleanupDeploy(node.uuid, ...portIds);
    return this.client.getNode(node.uuid);
  }

  /** _cleanup_deploy: unplug VIFs (400 ignored), then _remove_instance_info_from_node. */
  private async cleanupDeploy(node: string, ...portIds: Array<string | undefined>): Promise<void> {
    for (const id of portIds) {
      if (!id) continue;
      await this.client.detachVif(node, id).catch((err: unknown) => {
        if (!(err instanceof IronicApiError && err.status === 400)) throw err;
      });
    }
    await this.removeInstanceInfo(node);
  }

  /** The SDK retries 409 (node locked by a conductor task, e.g. cleaning just started); so do we. */
  private async removeInstanceInfo(node: string, attempts = 10): Promise<void> {
    for (let i = 1; ; i++) {
      try {
        await this.client.patchNode(node, [{ op: 'remove', path: '/instance_info' }, { op: 'remove', path: '/instance_uuid' }]);
        return;
      } catch (err) {
        if (!(err instanceof IronicApiError && err.status === 409) || i >= attempts) throw err;
        await new Promise((r) => setTimeout(r, this.opts.intervalMs ?? 2000));
      }
    }
  }

  /** reboot: soft falls back to hard on 400, as Nova does. */
  async reboot(node: string, kind: 'soft' | 'hard' = 'hard'): Promise<IronicNode> {
    let hard = kind === 'hard';
    if (!hard) {
      try {
        await this.client.setPowerState(node, 'soft rebooting');
      } catch (err) {
        if (!(err instanceof IronicApiError && err.status === 400)) throw err;
        hard = true;
      }
    }
    if (hard) await this.client.setPowerState(node, 'rebooting');
    return this.waitForPowerState(node, 'reboot');
  }

  async powerOff(node: string, soft = false): Promise<IronicNode> {
    await this.client.setPowerState(node, soft ? 'soft power off' : 'power off');
    return this.waitForPowerState(node, 'power off');
  }

  async powerOn(node: string): Promise<IronicNode> {
    await this.client.setPowerState(node, 'power on');
    return this.waitForPowerState(node, 'power on');
  }

  /** _wait_for_power_state: done when target_power_state is cleared. */
  private waitForPowerState(node: string, what: string): Promise<IronicNode> {
    return pollUntil(what, async () => {
      const n = await this.client.getNode(node);
      return n.target_power_state === null ? n : undefined;
    }, this.opts);
  }

  /** list_instances: nodes associated with an instance. */
  async listInstances(): Promise<IronicNode[]> {
    return (await this.client.listNodes({ associated: 'True' })).filter((n) => n.instance_uuid);
  }

  /** get_available_nodes: every node this compute service could report (Nova lists them all). */
  async getAvailableNodes(): Promise<IronicNode[]> {
    return this.client.listNodes();
  }

  /** Nova's resource check (_node_resources_unavailable inverted): free for scheduling. */
  static isSchedulable(n: IronicNode): boolean {
    return !n.maintenance && n.power_state !== null && n.power_state !== 'error'
      && (n.provision_state === null || n.provision_state === 'available') && !n.instance_uuid;
  }
}

