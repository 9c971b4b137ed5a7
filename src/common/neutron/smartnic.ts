/**
 * Smart NIC ports (common/neutron.py is_smartnic_port, wait_for_host_agent, wait_for_port_status):
 * a Smart NIC runs its own Neutron agent, so a port of one is bound to the NIC's hostname (from
 * local_link_connection) with vnic_type smart-nic, and Ironic waits for that agent to be alive
 * before binding or unbinding, and for the bound port to go ACTIVE.
 *
 * The waits retry [agent]neutron_agent_max_attempts times, [agent]neutron_agent_status_retry_interval
 * seconds apart. Ironic's tenacity decorators read both when the module is imported, before the
 * configuration files are parsed, so there only the defaults (100 attempts, 10 s) take effect;
 * ironic-ts reads them when it waits, as their help text says.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../conf/config';
import { NetworkError } from '../errors';
import { log } from '../log';
import type { NeutronClient } from './client';
import { NeutronApiError } from './errors';
import { portByUuid } from './port-lookup';

/** neutron.VNIC_SMARTNIC (neutron-lib's portbindings.VNIC_SMARTNIC). */
export const VNIC_SMARTNIC = 'smart-nic';

/** is_smartnic_port for an Ironic port. Ironic warns "Unknown port data type" for a portgroup and answers no. */
export function isSmartnicPort(port: { is_smartnic?: boolean | null }): boolean {
  return port.is_smartnic === true;
}

/** The Smart NIC's hostname: the binding:host_id of its ports and the host of its agent. */
export function smartnicHostname(port: { local_link_connection: Record<string, unknown> | null }): string {
  return String((port.local_link_connection ?? {}).hostname);
}

interface AgentWait {
  attempts: number;
  intervalMs: number;
}

function agentWait(conf: Config): AgentWait {
  return {
    attempts: Math.max(1, conf.int('agent', 'neutron_agent_max_attempts')),
    intervalMs: conf.int('agent', 'neutron_agent_status_retry_interval') * 1000,
  };
}

/** tenacity's retry on NetworkError, stop after N attempts, fixed wait, reraise. */
async function retryOnNetworkError<T>(conf: Config, attempt: () => Promise<T>): Promise<T> {
  const { attempts, intervalMs } = agentWait(conf);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof NetworkError) || n >= attempts) throw err;
    }
    await sleep(intervalMs);
  }
}

/** _validate_agent: Ironic looks at the first agent Neutron lists for the host only; none is "down". */
async function hostAgentAlive(client: NeutronClient, hostId: string): Promise<boolean> {
  let agents;
  try {
    agents = await client.agents({ host: hostId });
  } catch (err) {
    if (err instanceof NeutronApiError) throw new NetworkError('Failed to contact Neutron server');
    throw err;
  }
  // openstacksdk's is_alive is the API's `alive`.
  return agents.length > 0 && agents[0].alive === true;
}

/** wait_for_host_agent: until the host's agent is up (or down), else NetworkError. */
export async function waitForHostAgent(client: NeutronClient, conf: Config, hostId: string, targetState: 'up' | 'down' = 'up'): Promise<void> {
  await retryOnNetworkError(conf, async () => {
    log.debug(`Validating host ${hostId} agent is ${targetState}`);
    const alive = await hostAgentAlive(client, hostId);
    log.debug(`Agent on host ${hostId} is ${alive ? 'up' : 'down'}`);
    if (alive === (targetState === 'up')) return;
    throw new NetworkError(`Agent on host ${hostId} failed to reach state ${targetState}`);
  });
}

/** wait_for_port_status: until the Neutron port has the status; a missing port fails at once. */
export async function waitForPortStatus(client: NeutronClient, conf: Config, portId: string, status: string): Promise<void> {
  await retryOnNetworkError(conf, async () => {
    log.debug(`Validating Port ${portId} status is ${status}`);
    const port = await portByUuid(client, portId);
    log.debug(`Port ${portId} status is: ${String(port.status)}`);
    if (port.status === status) return;
    throw new NetworkError(`Port ${portId} failed to reach status ${status}`);
  });
}
