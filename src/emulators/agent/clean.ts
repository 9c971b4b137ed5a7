/**
 * The emulated agent's cleaning (IPA's clean extension over its GenericHardwareManager): the
 * steps it reports, with IPA 9.4's priorities, and what erasing does to the file standing for
 * the root disk. erase_devices_metadata zeroes the first and last MiB (where partition tables
 * and filesystem signatures live); erase_devices shreds the whole disk (random passes as
 * driver_internal_info.agent_erase_devices_iterations says, then zeros unless
 * agent_erase_devices_zeroize is false).
 */
import { randomFillSync } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { AgentCommandError, type Disks, type JsonObject } from './standby';

/** hardware.get_current_versions() of an agent with only the generic manager (IPA 9.4). */
export const HARDWARE_MANAGER_VERSION = { generic_hardware_manager: '1.1' };

const step = (name: string, priority: number, iface = 'deploy') =>
  ({ step: name, priority, interface: iface, reboot_requested: false, abortable: true });

/** GenericHardwareManager.get_clean_steps, as IPA 9.4.1 reports them. */
export const CLEAN_STEPS = {
  GenericHardwareManager: [
    step('erase_devices', 10), step('erase_devices_metadata', 99), step('erase_devices_express', 0),
    step('erase_pstore', 0), step('delete_configuration', 0, 'raid'), step('create_configuration', 0, 'raid'),
    step('burnin_cpu', 0), step('burnin_disk', 0), step('burnin_memory', 0), step('burnin_network', 0),
  ],
};

const MIB = 1024 * 1024;

/** hardware.check_versions: a step planned against other hardware managers must not run. */
export class VersionMismatch extends AgentCommandError {
  constructor(nodeVersion: unknown) {
    super('VersionMismatch', 'Hardware managers version mismatch, reload agent with correct version',
      `Current versions: ${JSON.stringify(HARDWARE_MANAGER_VERSION)}, versions used by ironic: ${JSON.stringify(nodeVersion)}`);
  }
}

export function checkVersions(cleanVersion: unknown): void {
  if (cleanVersion === null || cleanVersion === undefined) return;
  if (JSON.stringify(cleanVersion) !== JSON.stringify(HARDWARE_MANAGER_VERSION)) throw new VersionMismatch(cleanVersion);
}

async function diskSize(disk: string, what: string): Promise<number> {
  try {
    const st = await fsp.stat(disk);
    if (!st.isFile()) throw new Error('not a block device');
    return st.size;
  } catch (err) {
    throw new AgentCommandError('BlockDeviceEraseError', 'Error erasing block device',
      `Failed to erase the ${what} on the device(s): ${disk}: ${(err as Error).message}`);
  }
}

async function writeRange(disk: string, offset: number, length: number, fill: (buf: Buffer) => void): Promise<void> {
  const fh = await fsp.open(disk, 'r+');
  try {
    const chunk = Buffer.alloc(Math.min(length, MIB));
    for (let done = 0; done < length; done += chunk.length) {
      const n = Math.min(chunk.length, length - done);
      fill(chunk);
      await fh.write(chunk, 0, n, offset + done);
    }
  } finally {
    await fh.close();
  }
}

async function eraseMetadata(disks: Disks): Promise<null> {
  const size = await diskSize(disks.root, 'metadata');
  const zero = (b: Buffer) => b.fill(0);
  await writeRange(disks.root, 0, Math.min(MIB, size), zero);
  if (size > MIB) await writeRange(disks.root, Math.max(MIB, size - MIB), Math.min(MIB, size - MIB), zero);
  return null;
}

async function eraseDevices(disks: Disks, node: JsonObject): Promise<JsonObject> {
  const size = await diskSize(disks.root, 'devices');
  const info = (node.driver_internal_info ?? {}) as JsonObject;
  const iterations = typeof info.agent_erase_devices_iterations === 'number' ? info.agent_erase_devices_iterations : 1;
  for (let i = 0; i < iterations; i++) await writeRange(disks.root, 0, size, (b) => randomFillSync(b));
  if (info.agent_erase_devices_zeroize !== false) await writeRange(disks.root, 0, size, (b) => b.fill(0));
  return { [disks.root]: 'shred' };
}

/** clean.execute_clean_step: runs one step, answering {clean_result, clean_step} as IPA does. */
export async function executeCleanStep(disks: Disks, params: JsonObject): Promise<JsonObject> {
  checkVersions(params.clean_version);
  const cleanStep = (params.step ?? {}) as JsonObject;
  if (!('step' in cleanStep)) throw new AgentCommandError('CommandExecutionError', 'Command execution failed',
    `Malformed clean_step, no "step" key: ${JSON.stringify(cleanStep)}`);
  const node = (params.node ?? {}) as JsonObject;
  let result: unknown;
  switch (cleanStep.step) {
    case 'erase_devices_metadata': result = await eraseMetadata(disks); break;
    case 'erase_devices': result = await eraseDevices(disks, node); break;
    case 'erase_devices_express': case 'erase_pstore': case 'burnin_cpu': case 'burnin_disk': case 'burnin_memory':
    case 'burnin_network': case 'delete_configuration': case 'create_configuration':
      result = null;
      break;
    default:
      throw new AgentCommandError('HardwareManagerMethodNotFound', 'No HardwareManager found to handle method',
        `Could not find method: ${String(cleanStep.step)}`);
  }
  return { clean_result: result, clean_step: cleanStep };
}
