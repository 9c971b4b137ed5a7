/**
 * The instance operations of the compute driver shim that do not deploy: power, reboot, get_info,
 * VIF attach/detach, console, and the node listings Nova's resource tracker reads. Instances find
 * their node as Nova's driver does, by `GET /v1/nodes?instance_uuid=` (_validate_instance_and_node).
 */
import { IronicClient, IronicNode } from './client';
import { consoleWithReset, ConsoleAccess } from './console';
import { instanceNotFound, IronicApiError, VifPlugError } from './errors';
import { nodeInventory, nodeResource, resourcesUnavailable, resourcesUsed, Inventory, NodeResource } from './resources';
import type { NetworkInfo, ProgressFn, WaitOptions } from './types';
import { pollUntil } from './wait';
import { lookupTable } from '../common/own-keys';

/** _POWER_STATE_MAP onto nova.compute.power_state. */
const NOVA_POWER_STATE: Record<string, { code: number; name: string }> = lookupTable({
  'power on': { code: 1, name: 'RUNNING' },
  'power off': { code: 4, name: 'SHUTDOWN' },
});

interface DriverOptions extends WaitOptions {
  onProgress?: ProgressFn;
}

interface InstanceInfo {
  node: string;
  powerState: string | null;
  /** nova.compute.power_state code and name (NOSTATE when the instance is gone). */
  state: number;
  stateName: string;
}

export function reasonOf(err: unknown): string {
  return err instanceof IronicApiError ? err.faultstring : (err as Error).message;
}

export class InstanceOps {
  constructor(readonly client: IronicClient, readonly opts: DriverOptions = {}) {}

  protected progress(phase: string, n: IronicNode | string, message?: string): void {
    if (typeof n === 'string') this.opts.onProgress?.({ phase, node: n, message });
    else this.opts.onProgress?.({ phase, node: n.uuid, provisionState: n.provision_state, targetState: n.target_provision_state, powerState: n.power_state, message });
  }

  /** _validate_instance_and_node. */
  async instanceNode(instanceUuid: string): Promise<IronicNode> {
    const n = await this.client.nodeByInstance(instanceUuid);
    if (!n) throw instanceNotFound(instanceUuid);
    return n;
  }

  /** _plug_vif for each VIF: 409 means already attached, anything else fails the plug. */
  async plugVifs(node: string, networkInfo: NetworkInfo = []): Promise<void> {
    for (const vif of networkInfo) {
      try {
        await this.client.attachVif(node, vif.id);
        this.progress('vif', node, `attached ${vif.id}`);
      } catch (err) {
        if (err instanceof IronicApiError && err.status === 409) continue;
        throw new VifPlugError(`Cannot attach VIF ${vif.id} to the node ${node} due to error: ${reasonOf(err)}`);
      }
    }
  }

  /** _unplug_vifs: a VIF that is not attached (400) is fine. */
  async unplugVifs(node: string, vifIds: string[]): Promise<void> {
    for (const id of vifIds) {
      try {
        await this.client.detachVif(node, id);
        this.progress('vif', node, `detached ${id}`);
      } catch (err) {
        if (!(err instanceof IronicApiError && err.status === 400)) throw err;
      }
    }
  }

  /** reboot: soft falls back to hard on 400, as Nova does. Returns whether it was hard. */
  async reboot(instanceUuid: string, kind: 'soft' | 'hard' = 'hard'): Promise<{ node: IronicNode; hard: boolean }> {
    const node = await this.instanceNode(instanceUuid);
    let hard = kind === 'hard';
    if (!hard) {
      try {
        await this.client.setPowerState(node.uuid, 'soft rebooting');
      } catch (err) {
        if (!(err instanceof IronicApiError && err.status === 400)) throw err;
        this.progress('reboot', node.uuid, `soft reboot not supported, falling back to hard: ${err.faultstring}`);
        hard = true;
      }
    }
    if (hard) await this.client.setPowerState(node.uuid, 'rebooting');
    return { node: await this.waitForPowerState(instanceUuid, 'reboot'), hard };
  }

  /** power_off: with a timeout, soft power off first and hard power off if it did not take. */
  async powerOff(instanceUuid: string, timeoutSeconds = 0): Promise<{ node: IronicNode; soft: boolean }> {
    const node = await this.instanceNode(instanceUuid);
    if (timeoutSeconds) {
      try {
        await this.client.setPowerState(node.uuid, 'soft power off', timeoutSeconds);
        const n = await this.waitForPowerState(instanceUuid, 'soft power off');
        if (n.power_state === 'power off') return { node: n, soft: true };
        this.progress('power off', n.uuid, `soft power off did not complete (${n.last_error}); powering off hard`);
      } catch (err) {
        if (!(err instanceof IronicApiError)) throw err;
        this.progress('power off', node.uuid, `soft power off failed (${err.faultstring}); powering off hard`);
      }
    }
    await this.client.setPowerState(node.uuid, 'power off');
    return { node: await this.waitForPowerState(instanceUuid, 'power off'), soft: false };
  }

  async powerOn(instanceUuid: string): Promise<IronicNode> {
    const node = await this.instanceNode(instanceUuid);
    await this.client.setPowerState(node.uuid, 'power on');
    return this.waitForPowerState(instanceUuid, 'power on');
  }

  /** _wait_for_power_state: done when target_power_state is cleared. */
  private waitForPowerState(instanceUuid: string, what: string): Promise<IronicNode> {
    return pollUntil(what, async () => {
      const n = await this.instanceNode(instanceUuid);
      this.progress(what, n);
      return n.target_power_state === null ? n : undefined;
    }, this.opts);
  }

  /** get_info(use_cache=False). */
  async getInfo(instanceUuid: string): Promise<InstanceInfo | null> {
    const n = await this.client.nodeByInstance(instanceUuid);
    if (!n) return null;
    const s = (n.power_state && NOVA_POWER_STATE[n.power_state]) || { code: 0, name: 'NOSTATE' };
    return { node: n.uuid, powerState: n.power_state, state: s.code, stateName: s.name };
  }

  /** attach_interface: plug one VIF on the instance's node. */
  async attachInterface(instanceUuid: string, vifId: string): Promise<string[]> {
    const n = await this.instanceNode(instanceUuid);
    await this.plugVifs(n.uuid, [{ id: vifId, network: { id: '', subnets: [] } }]);
    return this.client.listVifs(n.uuid);
  }

  /** detach_interface (unplug_vifs). */
  async detachInterface(instanceUuid: string, vifId: string): Promise<string[]> {
    const n = await this.instanceNode(instanceUuid);
    await this.unplugVifs(n.uuid, [vifId]);
    return this.client.listVifs(n.uuid);
  }

  /** get_serial_console's console acquisition (with Nova's reset of an enabled console). */
  async getConsole(instanceUuid: string, enable = false): Promise<ConsoleAccess> {
    const n = await this.instanceNode(instanceUuid);
    return consoleWithReset(this.client, n.uuid, this.opts, enable);
  }

  /** list_instances / list_instance_uuids: nodes associated with an instance. */
  async listInstances(): Promise<IronicNode[]> {
    return (await this.client.listNodes({ associated: 'True' })).filter((n) => n.instance_uuid);
  }

  /** get_available_nodes: with one compute service in the hash ring, every node without another's instance. */
  async getAvailableNodes(): Promise<IronicNode[]> {
    return this.client.listNodes();
  }

  /** get_available_resource + update_provider_tree for one node. */
  async getAvailableResource(nodeIdent: string): Promise<{ resource: NodeResource; inventory: Record<string, Inventory>; traits: string[] }> {
    const n = await this.client.getNode(nodeIdent);
    return { resource: nodeResource(n), inventory: nodeInventory(n), traits: [...(n.traits ?? [])].sort() };
  }

  /** Free for scheduling: neither used nor unavailable. */
  static isSchedulable(n: IronicNode): boolean {
    return !resourcesUsed(n) && !resourcesUnavailable(n);
  }
}
