/**
 * Redfish out-of-band inspection (drivers/modules/redfish/inspect.py): memory, logical CPUs and
 * architecture, local disk size and boot mode from the ComputerSystem, and a port for every
 * enabled NIC. Only SimpleStorage is consulted for disks (the emulated BMCs offer no Storage).
 */
import { HardwareInspectionFailure, UnsupportedDriverExtension } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { getByAddress } from '../../db/repositories/ports';
import { insertPort } from '../../db/repositories/conductor-port-queries';
import * as redfish from '../../protocols/redfish';
import type { DriverTask, InspectInterface, JsonObject } from '../base';
import { REDFISH_INTERFACE, connectRedfish, redfishAction } from './common';
import { lookupTable } from '../../common/own-keys';

const CPU_ARCH: Readonly<Record<string, string>> = lookupTable({ x86: 'x86_64', 'IA-64': 'ia64', ARM: 'arm', MIPS: 'mips', OEM: 'oem' });
const BOOT_MODE: Readonly<Record<string, string>> = lookupTable({ UEFI: 'uefi', Legacy: 'bios' });
const ESSENTIAL = ['memory_mb', 'local_gb', 'cpus', 'cpu_arch'];
const GIB = 1024 ** 3;
const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

type Client = redfish.RedfishClient;

function obj(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

function link(json: JsonObject, key: string): string | null {
  const id = obj(json[key])?.['@odata.id'];
  return typeof id === 'string' ? id : null;
}

async function members(client: Client, json: JsonObject, key: string): Promise<JsonObject[]> {
  const path = link(json, key);
  if (!path) return [];
  const paths = await redfish.listMembers(client.connection, path);
  return Promise.all(paths.map((p) => client.connection.get(p)));
}

/** processors.summary: logical CPUs (TotalThreads) and the first architecture reported. */
async function processorSummary(client: Client, system: JsonObject): Promise<{ count: number; arch: string | null }> {
  let count = 0;
  let arch: string | null = null;
  for (const proc of await members(client, system, 'Processors')) {
    if (typeof proc.TotalThreads === 'number') count += proc.TotalThreads;
    if (arch === null && typeof proc.ProcessorArchitecture === 'string') arch = proc.ProcessorArchitecture;
  }
  return { count, arch };
}

/** _detect_local_gb: the first disk of at least 4 GiB, in GiB minus one (room for partitioning). */
async function localGb(client: Client, system: JsonObject): Promise<number> {
  const sizes: number[] = [];
  for (const storage of await members(client, system, 'SimpleStorage')) {
    for (const device of Array.isArray(storage.Devices) ? storage.Devices : []) {
      const bytes = obj(device)?.CapacityBytes;
      if (typeof bytes === 'number') sizes.push(bytes);
    }
  }
  const size = sizes.find((s) => s >= 4 * GIB) ?? 0;
  return Math.max(0, Math.trunc(size / GIB - 1));
}

/** get_enabled_macs: NICs whose health is OK and state Enabled. */
async function enabledMacs(client: Client, system: JsonObject): Promise<string[]> {
  const macs: string[] = [];
  for (const nic of await members(client, system, 'EthernetInterfaces')) {
    const status = obj(nic.Status);
    if (typeof nic.MACAddress === 'string' && status?.Health === 'OK' && status.State === 'Enabled') macs.push(nic.MACAddress);
  }
  return macs;
}

/** boot_mode capability unless the operator set one ("k:v,k:v" as Ironic keeps capabilities). */
function withBootMode(capabilities: unknown, mode: string): string {
  const text = typeof capabilities === 'string' ? capabilities : '';
  const pairs = text.split(',').filter((p) => p !== '');
  if (pairs.some((p) => p.split(':')[0] === 'boot_mode')) return text;
  return [...pairs, `boot_mode:${mode}`].join(',');
}

async function createPorts(task: DriverTask, macs: string[]): Promise<void> {
  for (const mac of macs) {
    if (!MAC.test(mac)) {
      log.warning(`Ignoring NIC address ${mac} for node ${task.node.uuid} because it is not a valid MAC`);
      continue;
    }
    const address = mac.toLowerCase();
    if (await getByAddress(task.ctx.db, address)) {
      log.info(`Port already exists for MAC address ${address} for node ${task.node.uuid}`);
      continue;
    }
    await insertPort(task.ctx.db, { address, node_id: task.node.id });
    log.info(`Port created for MAC address ${address} for node ${task.node.uuid}`);
  }
}

async function inspectHardware(task: DriverTask): Promise<string> {
  const { client, system } = await connectRedfish(task);
  const raw = system.raw;
  const props: JsonObject = { ...(task.node.properties ?? {}) };
  const found = await redfishAction(async () => ({
    cpus: await processorSummary(client, raw), localGb: await localGb(client, raw), macs: await enabledMacs(client, raw),
  }), (error) => `Inspection of node ${task.node.uuid} failed. Error: ${error}`);
  const memoryGib = obj(raw.MemorySummary)?.TotalSystemMemoryGiB;
  if (typeof memoryGib === 'number' && memoryGib > 0) props.memory_mb = String(memoryGib * 1024);
  if (found.cpus.count) props.cpus = found.cpus.count;
  if (found.cpus.arch) {
    if (CPU_ARCH[found.cpus.arch]) props.cpu_arch = CPU_ARCH[found.cpus.arch];
    else log.warning(`Unknown CPU arch ${found.cpus.arch} discovered for node ${task.node.uuid}`);
  }
  props.local_gb = String(found.localGb);
  const mode = system.boot.mode === null ? undefined : BOOT_MODE[system.boot.mode];
  if (mode) props.capabilities = withBootMode(props.capabilities, mode);
  const missing = ESSENTIAL.filter((k) => !Object.hasOwn(props, k));
  if (missing.length) {
    throw new HardwareInspectionFailure({
      error: `Failed to discover the following properties: ${missing.join(', ')} on node ${task.node.uuid}`,
    });
  }
  task.node.properties = props;
  await task.saveNode();
  await createPorts(task, found.macs);
  return states.MANAGEABLE;
}

export function createRedfishInspect(): InspectInterface {
  return {
    kind: 'inspect', className: 'RedfishInspect', ...REDFISH_INTERFACE,
    inspectHardware,
    async abort(task) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'abort' });
    },
  };
}
