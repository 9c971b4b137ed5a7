// RedfishClient: the operations Ironic's redfish hardware interfaces need, on one ComputerSystem.

import { systemPathFromId } from './address';
import { getBios, applyBiosAttributes, getSecureBoot, resetBiosToDefaults, setSecureBoot } from './bios-ops';
import { AuthType } from './auth';
import { RedfishConnection, RedfishConnectionOptions } from './connection';
import { RedfishConfigError, RedfishUnsupportedError, RedfishSystemResolutionError } from './errors';
import { getFirmwareInventory, simpleUpdate } from './firmware-ops';
import { listMembers } from './collections';
import { RedfishObject, linkOf } from './json';
import { readSystem, resetSystem, setBootOverride, setIndicatorLed, systemInfo } from './system-ops';
import { pollTask, TaskResult, waitForTask } from './tasks';
import { VerifyCa } from './tls';
import {
  AsyncOperation, BiosInfo, BiosValue, BootOverrideRequest, FirmwareComponent, InsertMediaOptions, ResetType,
  SecureBootInfo, SimpleUpdateRequest, SystemInfo, VirtualMediaDevice,
} from './types';
import {
  VirtualMediaGroups, ejectMediaFrom, ejectVirtualMedia, insertMediaInto, insertVirtualMedia, listVirtualMedia,
  virtualMediaGroups,
} from './virtual-media-ops';

export interface RedfishClientOptions extends RedfishConnectionOptions {
  /** redfish_system_id: a path ("/redfish/v1/Systems/1") or a bare id; auto-detected when omitted. */
  systemId?: string | null;
  /** Poll interval of task monitors when the BMC gives no Retry-After; default 1000. */
  taskPollIntervalMs?: number;
}

export class RedfishClient {
  readonly connection: RedfishConnection;
  private readonly systemId: string | null;
  private readonly taskPollIntervalMs: number;
  private resolvedSystemPath: string | null = null;

  constructor(options: RedfishClientOptions) {
    this.connection = new RedfishConnection(options);
    this.systemId = options.systemId ?? null;
    this.taskPollIntervalMs = options.taskPollIntervalMs ?? 1000;
  }

  /** Options from a node's driver_info (redfish_address, redfish_username, ...), as Ironic names them. */
  static optionsFromDriverInfo(info: Record<string, unknown>): RedfishClientOptions {
    const address = info.redfish_address;
    if (typeof address !== 'string' || address === '') throw new RedfishConfigError('driver_info/redfish_address is required');
    const str = (key: string): string | null => (typeof info[key] === 'string' ? (info[key] as string) : null);
    const verify = info.redfish_verify_ca;
    if (verify !== undefined && typeof verify !== 'boolean' && typeof verify !== 'string') {
      throw new RedfishConfigError('driver_info/redfish_verify_ca must be a boolean or a path');
    }
    return {
      address,
      username: str('redfish_username'),
      password: str('redfish_password'),
      authType: (str('redfish_auth_type') ?? 'auto') as AuthType,
      verifyCa: (verify as VerifyCa | undefined) ?? true,
      systemId: str('redfish_system_id'),
    };
  }

  async getServiceRoot(): Promise<RedfishObject> {
    return this.connection.get(this.connection.endpoint.rootPrefix);
  }

  /** The ComputerSystem path: from redfish_system_id, else the single member of the Systems collection. */
  async systemPath(): Promise<string> {
    if (this.resolvedSystemPath) return this.resolvedSystemPath;
    const { rootPrefix } = this.connection.endpoint;
    if (this.systemId !== null) {
      this.resolvedSystemPath = systemPathFromId(this.systemId, rootPrefix);
    } else {
      const systems = linkOf(await this.getServiceRoot(), 'Systems');
      if (!systems) throw new RedfishUnsupportedError(`The Redfish service at ${this.connection.endpoint.origin} has no Systems collection`);
      const members = await listMembers(this.connection, systems);
      if (members.length !== 1) throw new RedfishSystemResolutionError(members.length);
      this.resolvedSystemPath = members[0];
    }
    return this.resolvedSystemPath;
  }

  async getSystem(): Promise<SystemInfo> {
    return systemInfo(await readSystem(this.connection, await this.systemPath()));
  }

  async getPowerState(): Promise<string | null> {
    return (await this.getSystem()).powerState;
  }

  async reset(type: ResetType): Promise<void> {
    await resetSystem(this.connection, await this.systemPath(), type);
  }

  async setBootOverride(req: BootOverrideRequest): Promise<void> {
    await setBootOverride(this.connection, await this.systemPath(), req);
  }

  async getIndicatorLed(): Promise<string | null> {
    return (await this.getSystem()).indicatorLed;
  }

  async setIndicatorLed(state: 'Lit' | 'Blinking' | 'Off'): Promise<void> {
    await setIndicatorLed(this.connection, await this.systemPath(), state);
  }

  async getSecureBoot(): Promise<SecureBootInfo> {
    return getSecureBoot(this.connection, await this.systemPath());
  }

  async setSecureBoot(enabled: boolean): Promise<void> {
    await setSecureBoot(this.connection, await this.systemPath(), enabled);
  }

  async listVirtualMedia(): Promise<VirtualMediaDevice[]> {
    return listVirtualMedia(this.connection, await this.systemPath());
  }

  /** mediaType is a Redfish MediaTypes value: "CD", "DVD", "Floppy", "USBStick". Returns the device path. */
  async insertVirtualMedia(mediaType: string, image: string, opts?: InsertMediaOptions): Promise<string> {
    return insertVirtualMedia(this.connection, await this.systemPath(), mediaType, image, opts);
  }

  async ejectVirtualMedia(mediaType?: string): Promise<string[]> {
    return ejectVirtualMedia(this.connection, await this.systemPath(), mediaType);
  }

  /** The system's own virtual media and each manager's, for callers choosing devices themselves. */
  async virtualMediaGroups(): Promise<VirtualMediaGroups> {
    return virtualMediaGroups(this.connection, await this.systemPath());
  }

  async insertMediaInto(device: VirtualMediaDevice, image: string, opts?: InsertMediaOptions): Promise<void> {
    await insertMediaInto(this.connection, device, image, opts);
  }

  async ejectMediaFrom(device: VirtualMediaDevice): Promise<void> {
    await ejectMediaFrom(this.connection, device);
  }

  async getBios(): Promise<BiosInfo> {
    return getBios(this.connection, await this.systemPath());
  }

  async applyBiosAttributes(attributes: Record<string, BiosValue>, applyTime?: string): Promise<void> {
    await applyBiosAttributes(this.connection, await this.systemPath(), attributes, applyTime);
  }

  async resetBiosToDefaults(): Promise<void> {
    await resetBiosToDefaults(this.connection, await this.systemPath());
  }

  async getFirmwareInventory(): Promise<FirmwareComponent[]> {
    return getFirmwareInventory(this.connection);
  }

  /** How many ComputerSystems the service lists (SimpleUpdate needs Targets when there are several). */
  async systemCount(): Promise<number> {
    const systems = linkOf(await this.getServiceRoot(), 'Systems');
    return systems ? (await listMembers(this.connection, systems)).length : 0;
  }

  async simpleUpdate(req: SimpleUpdateRequest): Promise<AsyncOperation> {
    return simpleUpdate(this.connection, req);
  }

  /** Polls a task monitor until the task ends; RedfishTaskError if it failed, RedfishTaskTimeoutError past the deadline. */
  /** One look at a task monitor: still processing, gone, or the finished task. */
  async pollTask(monitorUri: string): Promise<TaskResult | 'processing' | 'gone'> {
    return pollTask(this.connection, monitorUri);
  }

  async waitForTask(monitorUri: string, timeoutMs: number): Promise<TaskResult> {
    return waitForTask(this.connection, monitorUri, { timeoutMs, pollIntervalMs: this.taskPollIntervalMs });
  }

  /** Ends the BMC session this client uses (shared sessions are re-created on demand). */
  async logout(): Promise<void> {
    await this.connection.logout();
  }
}
