/**
 * Fixtures for the ipmi driver tests: a simulated lanplus BMC (SimBmc), a conductor on a temp
 * SQLite database with the ipmi hardware type enabled, in either client mode (built-in RMCP+ or
 * Debian's ipmitool binary), and a node pointing at the BMC.
 */
import { startConductorService, ConductorService } from '../../../src/conductor/service';
import type { Task } from '../../../src/conductor/task';
import type { NodeRecord } from '../../../src/db/models';
import { defaultSessionPool } from '../../../src/protocols/ipmi';
import { SimBmc, type SimBmcOptions } from '../../../src/protocols/ipmi/sim';
import { makeConf, sqliteDb, TempDb } from '../../conductor/support';

export const USER = 'admin';
export const PASSWORD = 'password';

export type ClientMode = 'native' | 'ipmitool';
export const MODES: readonly ClientMode[] = ['native', 'ipmitool'];

export const IPMI_ENABLED = {
  enabled_hardware_types: ['fake-hardware', 'ipmi'],
  // ipmi supports no fake boot or deploy (as in Ironic): a network boot and the ramdisk deploy.
  enabled_boot_interfaces: ['fake', 'pxe'],
  enabled_deploy_interfaces: ['fake', 'ramdisk'],
  enabled_management_interfaces: ['fake', 'noop', 'ipmitool'],
  enabled_power_interfaces: ['fake', 'ipmitool'],
  enabled_vendor_interfaces: ['fake', 'no-vendor', 'ipmitool'],
};

export interface Lab {
  bmc: SimBmc;
  svc: ConductorService;
  tmp: TempDb;
  mode: ClientMode;
  stop(): Promise<void>;
}

export async function startLab(mode: ClientMode, ipmiConf: Record<string, number | string | boolean | string[]> = {},
  bmcOptions: SimBmcOptions = {}): Promise<Lab> {
  const bmc = new SimBmc({ users: [{ name: USER, password: PASSWORD, maxPriv: 4 }], ...bmcOptions });
  await bmc.start();
  const tmp = await sqliteDb();
  const conf = makeConf('ipmi-host', {
    DEFAULT: IPMI_ENABLED,
    ipmi: { use_ipmitool_binary: mode === 'ipmitool', command_retry_timeout: 8, min_command_interval: 0, ...ipmiConf },
    conductor: { power_state_change_timeout: 5, soft_power_off_timeout: 5 },
  });
  const svc = await startConductorService({ conf, db: tmp.db });
  return {
    bmc, svc, tmp, mode,
    async stop() {
      await svc.stop();
      await tmp.cleanup();
      await defaultSessionPool.closeAll();
      await bmc.stop();
    },
  };
}

export function driverInfo(port: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ipmi_address: '127.0.0.1', ipmi_port: port, ipmi_username: USER, ipmi_password: PASSWORD, ...extra };
}

export async function ipmiNode(lab: Lab, info: Record<string, unknown> = driverInfo(lab.bmc.port),
  fields: Partial<NodeRecord> = {}): Promise<NodeRecord> {
  return lab.svc.api.createNode({ driver: 'ipmi', driver_info: info, ...fields });
}

/** Runs fn holding an exclusive lock on the node, as the conductor's workers do. */
export function withTask<T>(lab: Lab, node: NodeRecord, fn: (task: Task) => Promise<T>): Promise<T> {
  return lab.svc.manager.tasks.run(node.uuid, { purpose: 'ipmi driver test' }, fn);
}

/** A BMC on 127.0.0.1 that swallows every packet: the unreachable BMC. Stop it when done. */
export async function startSilentBmc(): Promise<SimBmc> {
  const silent = new SimBmc({ outbound: () => [] });
  await silent.start();
  return silent;
}
