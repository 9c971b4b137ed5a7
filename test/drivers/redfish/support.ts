/**
 * Fixtures for the redfish driver tests: a Redfish emulator, a conductor on a temp SQLite database
 * with the redfish hardware type enabled, and a node pointing at the emulator.
 */
import { startConductorService, ConductorService } from '../../../src/conductor/service';
import type { Task } from '../../../src/conductor/task';
import type { NodeRecord } from '../../../src/db/models';
import { startRedfishEmulator, RedfishEmulator, RedfishEmulatorOptions } from '../../../src/emulators/redfish';
import { clearSessionCache } from '../../../src/protocols/redfish';
import { makeConf, sqliteDb, TempDb } from '../../conductor/support';

export const USER = 'admin';
export const PASSWORD = 'secret';

export const REDFISH_ENABLED = {
  enabled_hardware_types: ['fake-hardware', 'redfish'],
  enabled_bios_interfaces: ['fake', 'no-bios', 'redfish'],
  enabled_boot_interfaces: ['fake', 'redfish-virtual-media'],
  // redfish supports no fake deploy (as in Ironic).
  enabled_deploy_interfaces: ['fake', 'ramdisk'],
  enabled_firmware_interfaces: ['fake', 'no-firmware', 'redfish'],
  enabled_inspect_interfaces: ['fake', 'no-inspect', 'redfish'],
  enabled_management_interfaces: ['fake', 'noop', 'redfish'],
  enabled_power_interfaces: ['fake', 'redfish'],
  enabled_vendor_interfaces: ['fake', 'no-vendor', 'redfish'],
};

export interface Lab {
  bmc: RedfishEmulator;
  svc: ConductorService;
  tmp: TempDb;
  stop(): Promise<void>;
}

export async function startLab(emulator: RedfishEmulatorOptions = {}, redfishConf: Record<string, number | string> = {}): Promise<Lab> {
  const bmc = await startRedfishEmulator({ auth: { username: USER, password: PASSWORD }, ...emulator });
  const tmp = await sqliteDb();
  const conf = makeConf('redfish-host', {
    DEFAULT: REDFISH_ENABLED,
    redfish: { connection_attempts: 2, connection_retry_interval: 1, ...redfishConf },
    conductor: { power_state_change_timeout: 5 },
  });
  let svc: ConductorService;
  try {
    svc = await startConductorService({ conf, db: tmp.db });
  } catch (err) {
    await tmp.cleanup();
    await bmc.stop();
    throw err;
  }
  return {
    bmc, svc, tmp,
    async stop() {
      await svc.stop();
      await tmp.cleanup();
      await bmc.stop();
      clearSessionCache();
    },
  };
}

export function driverInfo(bmc: RedfishEmulator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    redfish_address: bmc.url, redfish_system_id: '/redfish/v1/Systems/1', redfish_username: USER, redfish_password: PASSWORD,
    ...extra,
  };
}

export async function redfishNode(lab: Lab, info: Record<string, unknown> = driverInfo(lab.bmc), fields: Partial<NodeRecord> = {}): Promise<NodeRecord> {
  return lab.svc.api.createNode({ driver: 'redfish', driver_info: info, ...fields });
}

/** Runs fn holding an exclusive lock on the node, as the conductor's workers do. */
export function withTask<T>(lab: Lab, node: NodeRecord, fn: (task: Task) => Promise<T>): Promise<T> {
  return lab.svc.manager.tasks.run(node.uuid, { purpose: 'redfish driver test' }, fn);
}
