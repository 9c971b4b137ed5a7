/**
 * Fixtures for the snmp driver tests: Debian's snmpd playing a PDU (pdu-agent.ts; APC MasterSwitch
 * outlets and the other layouts of pdu-layouts.ts), and a conductor with the snmp hardware type enabled.
 */
import { startConductorService, ConductorService } from '../../../src/conductor/service';
import type { Task } from '../../../src/conductor/task';
import type { NodeRecord } from '../../../src/db/models';
import { makeConf, sqliteDb, TempDb } from '../../conductor/support';
import { SnmpAgent } from './pdu-agent';
import { APC_OUTLET } from './pdu-layouts';

export { SnmpAgent, freeUdpPort, STUCK_OUTLET, SYS_OBJECT_ID, V3_AUTH_KEY, V3_PRIV_KEY, V3_USER } from './pdu-agent';

export const OUTLET_BASE = APC_OUTLET;

export const SNMP_ENABLED = {
  enabled_hardware_types: ['fake-hardware', 'snmp'],
  // snmp supports no fake boot or deploy (as in Ironic): a network boot and the ramdisk deploy.
  enabled_boot_interfaces: ['fake', 'pxe'],
  enabled_deploy_interfaces: ['fake', 'ramdisk'],
  enabled_management_interfaces: ['fake', 'noop'],
  enabled_power_interfaces: ['fake', 'snmp'],
};

export interface Lab {
  agent: SnmpAgent;
  svc: ConductorService;
  tmp: TempDb;
  stop(): Promise<void>;
}

export async function startLab(snmpConf: Record<string, number> = {}): Promise<Lab> {
  const agent = new SnmpAgent();
  await agent.start();
  const tmp = await sqliteDb();
  const conf = makeConf('snmp-host', {
    DEFAULT: SNMP_ENABLED,
    snmp: { power_timeout: 2, udp_transport_timeout: 1, udp_transport_retries: 2, ...snmpConf },
  });
  const svc = await startConductorService({ conf, db: tmp.db });
  return {
    agent, svc, tmp,
    async stop() {
      await svc.stop();
      await tmp.cleanup();
      await agent.stop();
    },
  };
}

export function driverInfo(port: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { snmp_driver: 'apc', snmp_address: '127.0.0.1', snmp_port: port, snmp_outlet: 3,
    snmp_version: '2c', snmp_community_read: 'public', snmp_community_write: 'private', ...extra };
}

export async function snmpNode(lab: Lab, info: Record<string, unknown>): Promise<NodeRecord> {
  return lab.svc.api.createNode({ driver: 'snmp', driver_info: info });
}

/** Runs fn holding an exclusive lock on the node, as the conductor's workers do. */
export function withTask<T>(lab: Lab, node: NodeRecord, fn: (task: Task) => Promise<T>): Promise<T> {
  return lab.svc.manager.tasks.run(node.uuid, { purpose: 'snmp driver test' }, fn);
}
