/**
 * Driver interfaces (ironic/drivers/base.py) as TypeScript contracts. A node's driver is a
 * hardware type plus one implementation per interface kind; every operation is async so a slow
 * BMC never blocks other nodes. Steps are declared once with their run functions (Ironic's
 * @clean_step etc.), see declared-steps.ts.
 */
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import type { NodeRecord, PortRecord, PortgroupRecord, VolumeConnectorRecord, VolumeTargetRecord } from '../db/models';

export const INTERFACE_KINDS = [
  'bios', 'boot', 'console', 'deploy', 'firmware', 'inspect', 'management', 'network', 'power', 'raid',
  'rescue', 'storage', 'vendor',
] as const;
export type InterfaceKind = typeof INTERFACE_KINDS[number];

/** Interfaces `GET /v1/nodes/{id}/validate` reports (BareDriver.non_vendor_interfaces). */
export const NON_VENDOR_KINDS: readonly InterfaceKind[] = INTERFACE_KINDS.filter((k) => k !== 'vendor');

import type { JsonObject } from '../common/json-value';
import type { VirtualMediaInfo, VmediaDevice } from '../common/boot-devices';

export type { JsonObject };

/** What drivers may use of their conductor (Ironic's CONF and task.context): configuration and database. */
interface DriverContext {
  readonly conf: Config;
  readonly db: Database;
}

/** What a driver sees of the task holding a node: the node (mutable), its ports and the composed driver. */
export interface DriverTask {
  readonly ctx: DriverContext;
  readonly node: NodeRecord;
  readonly ports: PortRecord[];
  readonly portgroups: PortgroupRecord[];
  /** task.volume_connectors / task.volume_targets: the node's volume records, read when the task is taken. */
  readonly volumeConnectors: VolumeConnectorRecord[];
  readonly volumeTargets: VolumeTargetRecord[];
  readonly driver: ComposedDriver;
  readonly shared: boolean;
  /** ironic-ts extension: the deploy request's extra_data, handed to the deploy interface untouched. */
  readonly extraData?: JsonObject;
  /** Writes the node's changed fields to the database now. */
  saveNode(): Promise<void>;
  /** manager_utils.node_power_action: power change with power_state/target tracking and agent wipe. */
  powerAction(newState: string, timeout?: number): Promise<void>;
  /** Persists a change to one of the node's ports / portgroups (and updates task.ports). */
  updatePort(port: PortRecord, changes: Partial<PortRecord>): Promise<void>;
  updatePortgroup(portgroup: PortgroupRecord, changes: Partial<PortgroupRecord>): Promise<void>;
}

export type StepKind = 'clean' | 'deploy' | 'service' | 'verify';

interface ArgInfo {
  description: string;
  required?: boolean;
}

/** One step an interface offers (the data Ironic's step decorators attach); its run function is in DeclaredStep. */
export interface StepDecl {
  step: string;
  kinds: readonly StepKind[];
  priority: number;
  abortable?: boolean;
  argsinfo?: Readonly<Record<string, ArgInfo>> | null;
  requiresRamdisk?: boolean;
}

/**
 * A step returns nothing when done, or a "wait" state (e.g. `clean wait`) when it continues
 * asynchronously and a later callback resumes the flow.
 */
export type StepResult = string | null | void;

export interface BaseInterface {
  readonly kind: InterfaceKind;
  /** Entry-point name, e.g. "fake", "no-raid". */
  readonly name: string;
  /** Class-like name used in messages (Ironic prints the Python class). */
  readonly className: string;
  /** What the implementation supports beyond its contract (e.g. 'iscsi_volume_boot'); absent: nothing. */
  readonly capabilities?: readonly string[];
  properties(): Record<string, string>;
  validate(task: DriverTask): Promise<void>;
  /** The declared steps; with executeStep, built by declareSteps from one list. */
  readonly steps?: readonly StepDecl[];
  /** Steps known only at run time (an agent's in-band steps, cached on the node), in reporting shape. */
  runtimeSteps?(task: DriverTask, kind: StepKind): StepInfo[];
  /** execute_*_step: runs one of the interface's steps. */
  executeStep?(task: DriverTask, step: string, args: JsonObject): Promise<StepResult>;
}

export interface PowerInterface extends BaseInterface {
  getPowerState(task: DriverTask): Promise<string | null>;
  setPowerState(task: DriverTask, state: string, timeout?: number): Promise<void>;
  reboot(task: DriverTask, timeout?: number): Promise<void>;
  getSupportedPowerStates(task: DriverTask): Promise<string[]>;
  /** Whether the power sync may force the recorded state onto the hardware. */
  supportsPowerSync(task: DriverTask): boolean;
}

export interface ManagementInterface extends BaseInterface {
  getSupportedBootDevices(task: DriverTask): Promise<string[]>;
  setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void>;
  getBootDevice(task: DriverTask): Promise<{ boot_device: string | null; persistent: boolean | null }>;
  injectNmi(task: DriverTask): Promise<void>;
  getSupportedBootModes(task: DriverTask): Promise<string[]>;
  getBootMode(task: DriverTask): Promise<string | null>;
  setBootMode(task: DriverTask, mode: string): Promise<void>;
  getSecureBootState(task: DriverTask): Promise<boolean | null>;
  setSecureBootState(task: DriverTask, enabled: boolean): Promise<void>;
  /** The hardware vendor (detect_vendor); absent where the interface cannot tell. */
  detectVendor?(task: DriverTask): Promise<string | null>;
  /** Indicators (LEDs) per component; an interface without them is UnsupportedDriverExtension. */
  getSupportedIndicators?(task: DriverTask, component?: string): Promise<SupportedIndicators>;
  getIndicatorState?(task: DriverTask, component: string, indicator: string): Promise<string>;
  setIndicatorState?(task: DriverTask, component: string, indicator: string, state: string): Promise<void>;
  /** Virtual media (1.89/1.93); an interface without them is UnsupportedDriverExtension. */
  getVirtualMedia?(task: DriverTask): Promise<VirtualMediaInfo[]>;
  /** `deviceType` one of VMEDIA_DEVICES; `imageUrl` an HTTP(S) URL the BMC can reach. */
  attachVirtualMedia?(task: DriverTask, deviceType: VmediaDevice, imageUrl: string): Promise<void>;
  /** Ejects the devices of these types, every device when null. */
  detachVirtualMedia?(task: DriverTask, deviceTypes: readonly VmediaDevice[] | null): Promise<void>;
}

export interface IndicatorInfo {
  readonly: boolean;
  states: string[];
}

/** component (chassis, system, disk...) -> indicator id -> its facts (get_supported_indicators). */
export type SupportedIndicators = Record<string, Record<string, IndicatorInfo>>;

export interface BootInterface extends BaseInterface {
  prepareRamdisk(task: DriverTask, ramdiskParams: JsonObject, mode: string): Promise<void>;
  cleanUpRamdisk(task: DriverTask, mode: string): Promise<void>;
  /** Whether this boot interface can boot the inspection ramdisk; absent: it cannot (UnsupportedDriverExtension). */
  validateInspection?(task: DriverTask): Promise<void>;
  prepareInstance(task: DriverTask): Promise<void>;
  cleanUpInstance(task: DriverTask): Promise<void>;
}

export interface DeployInterface extends BaseInterface {
  /** Returns DELETED when the tear down is complete (Ironic's contract). */
  tearDown(task: DriverTask): Promise<string>;
  prepare(task: DriverTask): Promise<void>;
  cleanUp(task: DriverTask): Promise<void>;
  takeOver(task: DriverTask): Promise<void>;
  prepareCleaning(task: DriverTask): Promise<string | null>;
  tearDownCleaning(task: DriverTask): Promise<void>;
  prepareService(task: DriverTask): Promise<string | null>;
  tearDownService(task: DriverTask): Promise<void>;
  /**
   * Ramdisk heartbeat; implementations without an agent ignore it. The outcome tells the
   * conductor what Ironic's driver would have done to the flow itself: resume the deploy steps
   * (continue_node_deploy) or fail the deploy with a message.
   */
  heartbeat(task: DriverTask, callbackUrl: string, agentVersion: string | null): Promise<HeartbeatOutcome | void>;
  /** Data the deploy received with the request (extra_data), kept untouched. */
}

export type HeartbeatOutcome =
  | { action: 'continue-deploy' }
  /**
   * The deploy fails: through deploying_error_handler for a step the agent reports failed, or
   * through set_failed_state (no deploy clean up, a power off) when the heartbeat itself broke
   * or the node went into maintenance.
   */
  | { action: 'fail-deploy'; message: string; setFailedState?: boolean }
  /** First heartbeat in `clean wait`: the agent's steps are cached, set the node's clean steps and run them. */
  | { action: 'start-clean'; errorPrefix: string }
  /** An in-band clean step ended; resetSteps: recompute the step list first (automated cleaning, new agent). */
  | { action: 'continue-clean'; resetSteps?: boolean }
  | { action: 'fail-clean'; message: string; errmsg?: string }
  /** The rescue ramdisk took the password: resume, clean up and finish the rescue. */
  | { action: 'finish-rescue'; errorPrefix: string }
  | { action: 'fail-rescue'; message: string }
  /** First heartbeat in `service wait`: resume, cache the agent's service steps, set the node's and run them. */
  | { action: 'start-service'; errorPrefix: string }
  /** An in-band service step ended (or the agent came back after a reboot): resume and run the next. */
  | { action: 'continue-service' }
  | { action: 'fail-service'; message: string; errmsg?: string }
  | null;

export interface InspectInterface extends BaseInterface {
  /** Returns the next provision state: `manageable` when done, `inspect wait` when asynchronous. */
  inspectHardware(task: DriverTask): Promise<string>;
  abort(task: DriverTask): Promise<void>;
  /**
   * Processes the inventory the ramdisk posted to /v1/continue_inspection (in-band inspection);
   * `inspect wait` when the data is processed elsewhere. Absent: UnsupportedDriverExtension.
   */
  continueInspection?(task: DriverTask, inventory: JsonObject, pluginData: JsonObject): Promise<string | null>;
}

export interface RaidInterface extends BaseInterface {
  createConfiguration(task: DriverTask, args: JsonObject): Promise<StepResult>;
  deleteConfiguration(task: DriverTask): Promise<StepResult>;
  validateRaidConfig(task: DriverTask, config: JsonObject): Promise<void>;
  getLogicalDiskProperties(): Record<string, string>;
}

export interface BiosInterface extends BaseInterface {
  applyConfiguration(task: DriverTask, settings: JsonObject[]): Promise<StepResult>;
  factoryReset(task: DriverTask): Promise<StepResult>;
  cacheBiosSettings(task: DriverTask): Promise<void>;
}

export interface FirmwareInterface extends BaseInterface {
  update(task: DriverTask, settings: JsonObject[]): Promise<StepResult>;
  cacheFirmwareComponents(task: DriverTask): Promise<void>;
  /** Whether an update this interface started on the node is still to be followed up by the periodic checks. */
  updatePending?(node: NodeRecord): boolean;
  /**
   * The periodic look at a pending update (_query_update_status): null while it goes on, else how the
   * node's flow continues or fails (the same verdicts a heartbeat gives).
   */
  checkUpdate?(task: DriverTask): Promise<HeartbeatOutcome>;
  /** A failed flow left updates pending (_query_update_failed): they are discarded. */
  discardUpdates?(task: DriverTask): Promise<void>;
}

export interface ConsoleInterface extends BaseInterface {
  startConsole(task: DriverTask): Promise<void>;
  stopConsole(task: DriverTask): Promise<void>;
  getConsole(task: DriverTask): Promise<JsonObject>;
}

export interface RescueInterface extends BaseInterface {
  /** Returns `rescue` when done or `rescue wait` when the ramdisk will call back. */
  rescue(task: DriverTask): Promise<string>;
  unrescue(task: DriverTask): Promise<string>;
  cleanUp(task: DriverTask): Promise<void>;
}

/** One node vendor passthru method (what Ironic's @passthru decorator records). */
export interface VendorRoute {
  httpMethods: string[];
  async: boolean;
  description: string;
  /** Defaults to true, as in Ironic: the shared lock is upgraded before validation. */
  requireExclusiveLock?: boolean;
  /** Defaults to false: the return value goes in the body rather than as an attachment. */
  attach?: boolean;
}

export interface VendorInterface extends BaseInterface {
  readonly routes: Readonly<Record<string, VendorRoute>>;
  /** VendorInterface.validate(task, method, http_method, **kwargs) before a passthru call. */
  validateMethod?(task: DriverTask, method: string, args: JsonObject): Promise<void>;
  /** Runs a method of `routes`; args carry the request body plus `http_method`. */
  invoke?(task: DriverTask, method: string, args: JsonObject): Promise<unknown>;
}

export interface StorageInterface extends BaseInterface {
  attachVolumes(task: DriverTask): Promise<void>;
  detachVolumes(task: DriverTask): Promise<void>;
  shouldWriteImage(task: DriverTask): boolean;
}

export interface VifAttachInfo {
  id: string;
  port_uuid?: string;
  portgroup_uuid?: string;
  [key: string]: unknown;
}

export interface NetworkInterface extends BaseInterface {
  vifList(task: DriverTask): Promise<{ id: string }[]>;
  vifAttach(task: DriverTask, vif: VifAttachInfo): Promise<void>;
  vifDetach(task: DriverTask, vifId: string): Promise<void>;
  getCurrentVif(task: DriverTask, port: PortRecord | PortgroupRecord): string | null;
  portChanged(task: DriverTask, port: PortRecord, changes: Partial<PortRecord>): Promise<void>;
  portgroupChanged(task: DriverTask, portgroup: PortgroupRecord, changes: Partial<PortgroupRecord>): Promise<void>;
  validatePortCreate(task: DriverTask, port: Partial<PortRecord>): Promise<void>;
  addProvisioningNetwork(task: DriverTask): Promise<void>;
  removeProvisioningNetwork(task: DriverTask): Promise<void>;
  configureTenantNetworks(task: DriverTask): Promise<void>;
  unconfigureTenantNetworks(task: DriverTask): Promise<void>;
  addCleaningNetwork(task: DriverTask): Promise<void>;
  removeCleaningNetwork(task: DriverTask): Promise<void>;
  /** Whether managed in-band inspection can use this network interface; absent: it cannot. */
  validateInspection?(task: DriverTask): Promise<void>;
  addInspectionNetwork?(task: DriverTask): Promise<void>;
  removeInspectionNetwork?(task: DriverTask): Promise<void>;
  /** The servicing network (in-band servicing); absent: nothing to switch. */
  addServicingNetwork?(task: DriverTask): Promise<void>;
  removeServicingNetwork?(task: DriverTask): Promise<void>;
  /** The rescuing network (agent rescue); absent: nothing to check or switch. */
  validateRescue?(task: DriverTask): Promise<void>;
  addRescuingNetwork?(task: DriverTask): Promise<void>;
  removeRescuingNetwork?(task: DriverTask): Promise<void>;
  /** need_power_on: whether the node must be on for its network to change (Smart NIC ports); absent: no. */
  needPowerOn?(task: DriverTask): boolean;
  /** get_node_network_data: network_data.json for the node's ramdisk (Nova's layout); `{}` when none. */
  getNodeNetworkData(task: DriverTask): Promise<JsonObject>;
}

interface InterfaceByKind {
  bios: BiosInterface;
  boot: BootInterface;
  console: ConsoleInterface;
  deploy: DeployInterface;
  firmware: FirmwareInterface;
  inspect: InspectInterface;
  management: ManagementInterface;
  network: NetworkInterface;
  power: PowerInterface;
  raid: RaidInterface;
  rescue: RescueInterface;
  storage: StorageInterface;
  vendor: VendorInterface;
}

/** A node's driver: its hardware type name and one implementation per kind. */
export type ComposedDriver = { readonly hardwareType: string } & { readonly [K in InterfaceKind]: InterfaceByKind[K] };

/** Step as Ironic reports it in driver_internal_info and the API (`get_clean_steps` shape). */
export interface StepInfo {
  interface: InterfaceKind;
  step: string;
  priority: number;
  argsinfo?: Readonly<Record<string, ArgInfo>> | null;
  abortable?: boolean;
  requires_ramdisk?: boolean;
  /** Agent steps: reboot the node once the step is done. */
  reboot_requested?: boolean;
}
