/**
 * Ironic's Neutron port operations (common/neutron.py): binding and unbinding ports, MAC updates,
 * and the provisioning/cleaning/rescuing/inspection/servicing ports created for a node's
 * PXE-enabled ports and deleted again, with Ironic's NetworkError messages. A Smart NIC port's
 * Neutron ports are bound to the NIC's host once its agent is alive (./smartnic).
 */
import { isIPv6 } from 'node:net';
import { LOCAL_LINK_SMART_NIC_VALIDATOR } from '../../api/schemas/local-link';
import type { Config } from '../../conf/config';
import { FailedToUpdateMacOnPort, Invalid, InvalidParameterValue, MissingParameterValue, NetworkError } from '../errors';
import { log } from '../log';
import { objectsIn, type JsonObject } from '../json-value';
import type { PortRecord, PortgroupRecord } from '../../db/models';
import type { NeutronClient } from './client';
import { NeutronApiError, NeutronDuplicate, NeutronNotFound } from './errors';
import { portByUuid } from './port-lookup';
import { isSmartnicPort, smartnicHostname, VNIC_SMARTNIC, waitForHostAgent, waitForPortStatus } from './smartnic';

export const VNIC_BAREMETAL = 'baremetal';
/** pxe_utils.DHCP_CLIENT_ID: the DHCP option carrying an InfiniBand port's client-id. */
export const DHCP_CLIENT_ID = '61';

/** The node and ports a port operation reads (a subset of the task). */
interface PortTask {
  node: { uuid: string; instance_uuid: string | null; network_interface: string | null };
  ports: readonly PortRecord[];
  portgroups: readonly PortgroupRecord[];
}

/** openstacksdk's str(exc) of a failed call, as Ironic puts it into messages. */
function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * update_neutron_port: Ironic reads the port first (as the caller), then updates it. Neutron
 * errors propagate as NeutronApiError for the caller to word.
 */
export async function updateNeutronPort(client: NeutronClient, portId: string, attrs: JsonObject): Promise<JsonObject> {
  await client.getPort(portId);
  return client.updatePort(portId, attrs);
}

/** unbind_neutron_port: clears binding:host_id and the profile, then (reset_mac) the MAC. */
export async function unbindNeutronPort(client: NeutronClient, portId: string, resetMac = true): Promise<void> {
  try {
    await updateNeutronPort(client, portId, { 'binding:host_id': '', 'binding:profile': {} });
    if (resetMac) await updateNeutronPort(client, portId, { mac_address: null });
  } catch (err) {
    if (err instanceof NeutronNotFound) {
      log.info(`Port ${portId} was not found while unbinding.`);
      return;
    }
    if (!(err instanceof NeutronApiError)) throw err;
    const msg = `Unable to clear binding profile for neutron port ${portId}. Error: ${reason(err)}`;
    log.error(msg);
    throw new NetworkError(msg);
  }
}

/** update_port_address: a bound port is unbound, given the MAC, and bound again. */
export async function updatePortAddress(client: NeutronClient, portId: string, address: string): Promise<void> {
  let step = `Failed to get the current binding on Neutron port ${portId}.`;
  try {
    const port = await client.getPort(portId);
    const hostId = port['binding:host_id'];
    const profile = port['binding:profile'];
    if (hostId) {
      step = `Failed to remove the current binding from Neutron port ${portId}, while updating its MAC address.`;
      await unbindNeutronPort(client, portId);
    }
    step = `Failed to update MAC address on Neutron port ${portId}.`;
    await updateNeutronPort(client, portId, { mac_address: address });
    if (hostId) {
      step = `Failed to update binding:host_id and profile on Neutron port ${portId}.`;
      await updateNeutronPort(client, portId, { 'binding:host_id': hostId, 'binding:profile': profile ?? {} });
    }
  } catch (err) {
    if (!(err instanceof NeutronApiError || err instanceof NetworkError)) throw err;
    log.error(`${step} ${reason(err)}`);
    throw new FailedToUpdateMacOnPort({ port_id: portId });
  }
}

/** _get_network_by_uuid_or_name, through validate_network: the network's id. */
export async function validateNetwork(client: NeutronClient, uuidOrName: string | null | undefined, netType: string): Promise<string> {
  if (!uuidOrName) {
    throw new MissingParameterValue(`UUID or name of ${netType} is not set in configuration or in node driver_info.`);
  }
  return (await networkByUuidOrName(client, uuidOrName, netType)).id;
}

/** _verify_security_groups: every configured group must exist. */
async function verifySecurityGroups(client: NeutronClient, groups: readonly string[]): Promise<void> {
  if (groups.length === 0) return;
  let found: Set<string>;
  try {
    found = new Set((await client.securityGroups(groups)).map((g) => g.id));
  } catch (err) {
    if (!(err instanceof NeutronApiError)) throw err;
    throw new NetworkError(`Could not retrieve security groups from neutron: ${reason(err)}`);
  }
  const missing = groups.filter((g) => !found.has(g));
  if (missing.length) {
    // Python prints the list repr: ['a', 'b'].
    throw new NetworkError(`Could not find these security groups (specified via ironic config) in neutron: [${missing.map((m) => `'${m}'`).join(', ')}]`);
  }
}

/**
 * validate_port_info: the neutron interface needs local_link_connection (or an InfiniBand client-id),
 * and port_id with hostname in it marks a Smart NIC port, which only Smart NIC ports may have.
 */
export function validatePortInfo(task: PortTask, port: PortRecord): boolean {
  if ((port.extra ?? {})['client-id']) return true;
  const llc = port.local_link_connection ?? {};
  if (task.node.network_interface === 'neutron' && Object.keys(llc).length === 0) {
    log.warning(`The local_link_connection is required for 'neutron' network interface and is not present in the nodes ${task.node.uuid} port ${port.uuid}`);
    return false;
  }
  let validSmartnic = true;
  try {
    LOCAL_LINK_SMART_NIC_VALIDATOR('local_link_connection', port.local_link_connection);
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    validSmartnic = false;
  }
  if (isSmartnicPort(port) && !validSmartnic) {
    log.error(`Smart NIC port must have port_id and hostname in local_link_connection, port: ${port.id}`);
    return false;
  }
  if (!isSmartnicPort(port) && validSmartnic) {
    log.error(`Only Smart NIC ports can have port_id and hostname in local_link_connection, port: ${port.id}`);
    return false;
  }
  return true;
}

/** The ports a service network gets Neutron ports for ([neutron]add_all_ports: all, else PXE-enabled). */
function servicePorts(task: PortTask, addAllPorts: boolean): readonly PortRecord[] {
  return addAllPorts ? task.ports : task.ports.filter((p) => p.pxe_enabled);
}

interface ServicePortOptions {
  /** [neutron]dhcpv6_stateful_address_count, and the Smart NIC waits' [agent] options. */
  conf: Config;
  addAllPorts: boolean;
  securityGroups?: readonly string[];
}

/**
 * _add_ip_addresses_for_ipv6_stateful: UEFI, iPXE and the agent each ask DHCPv6 with their own
 * client id, so a port whose first fixed IP is IPv6 on a dhcpv6-stateful subnet reserves `count`
 * addresses there (its other fixed IPs stay as they are). Only the first fixed IP is looked at.
 */
async function addStatefulV6Addresses(client: NeutronClient, port: JsonObject & { id: string }, count: number): Promise<void> {
  const fixedIps = objectsIn(port.fixed_ips);
  const first = fixedIps[0];
  if (!first || typeof first.ip_address !== 'string' || !isIPv6(first.ip_address)) return;
  const subnet = await client.getSubnet(String(first.subnet_id));
  if (subnet.ipv6_address_mode !== 'dhcpv6-stateful') return;
  const more = Array.from({ length: Math.max(0, count - 1) }, () => ({ subnet_id: subnet.id }));
  // Python passes its client, so unlike update_neutron_port's default there is no GET first.
  await client.updatePort(port.id, { fixed_ips: [...fixedIps, ...more] });
}

/**
 * add_ports_to_network: a Neutron port per (PXE-enabled) Ironic port, created unbound and then
 * bound to the node with its local link information. Returns {ironic port uuid: neutron port id}.
 */
export async function addPortsToNetwork(client: NeutronClient, task: PortTask, networkId: string, opts: ServicePortOptions): Promise<Map<string, string>> {
  const groups = opts.securityGroups ?? [];
  await verifySecurityGroups(client, groups);
  const toCreate = servicePorts(task, opts.addAllPorts);
  if (toCreate.length === 0) {
    throw new NetworkError(`No available ${opts.addAllPorts ? '' : 'PXE-enabled '}ports on node ${task.node.uuid}.`);
  }
  const created = new Map<string, string>();
  const failures: string[] = [];
  for (const port of toCreate) {
    if (!validatePortInfo(task, port)) {
      failures.push(port.uuid);
      continue;
    }
    const attrs: JsonObject = {
      network_id: networkId, admin_state_up: true, 'binding:vnic_type': VNIC_BAREMETAL,
      ...(groups.length ? { security_groups: [...groups] } : {}),
      device_id: task.node.instance_uuid ?? task.node.uuid,
      ...(port.pxe_enabled ? {} : { fixed_ips: [] }),
    };
    const clientId = (port.extra ?? {})['client-id'];
    if (clientId) attrs.extra_dhcp_opts = [{ opt_name: DHCP_CLIENT_ID, opt_value: clientId }];
    const binding: JsonObject = {
      'binding:host_id': task.node.uuid, device_owner: 'baremetal:none', mac_address: port.address,
      'binding:profile': { local_link_information: [port.local_link_connection ?? {}] },
    };
    const smartnic = isSmartnicPort(port);
    if (smartnic) {
      binding['binding:host_id'] = smartnicHostname(port);
      attrs['binding:vnic_type'] = VNIC_SMARTNIC;
      log.debug(`Setting hostname as host_id in case of Smart NIC, port ${port.uuid}, hostname ${binding['binding:host_id']}`);
    }
    try {
      // The waits' NetworkErrors are not Neutron call failures: they end the whole operation.
      if (smartnic) await waitForHostAgent(client, opts.conf, smartnicHostname(port));
      const neutronPort = await client.createPort(attrs);
      const bound = await updateNeutronPort(client, neutronPort.id, binding);
      const v6Count = opts.conf.int('neutron', 'dhcpv6_stateful_address_count');
      if (v6Count > 1) await addStatefulV6Addresses(client, { ...bound, id: neutronPort.id }, v6Count);
      if (smartnic) await waitForPortStatus(client, opts.conf, neutronPort.id, 'ACTIVE');
      created.set(port.uuid, neutronPort.id);
    } catch (err) {
      if (!(err instanceof NeutronApiError)) throw err;
      failures.push(port.uuid);
      log.warning(`Could not create neutron port for node's ${task.node.uuid} port ${port.uuid} on the neutron network ${networkId}. ${reason(err)}`);
    }
  }
  if (failures.length === toCreate.length) {
    await rollbackPorts(client, task, networkId, opts.addAllPorts);
    // Ironic formats the list of Port objects; their uuids are what identifies them.
    throw new NetworkError(`Failed to create neutron ports for node's ${task.node.uuid} ports ${toCreate.map((p) => p.uuid).join(', ')}.`);
  }
  if (failures.length) {
    log.warning(`Some errors were encountered when updating vif_port_id for node ${task.node.uuid} on the following ports: ${failures.join(', ')}.`);
  }
  return created;
}

/** remove_ports_from_network: deletes the node's ports (by MAC) on that network. */
export async function removePortsFromNetwork(client: NeutronClient, task: PortTask, networkId: string, addAllPorts: boolean): Promise<void> {
  const macs = servicePorts(task, addAllPorts).flatMap((p) => (p.address ? [p.address] : []));
  if (macs.length === 0) return;
  let ports;
  try {
    ports = await client.ports({ network_id: networkId, mac_address: macs });
  } catch (err) {
    if (!(err instanceof NeutronApiError)) throw err;
    throw new NetworkError(`Could not get given network VIF for ${task.node.uuid} from neutron, possible network issue. ${reason(err)}`);
  }
  // Ironic would wait for the agent of a Neutron port with is_smartnic set; Neutron ports have no such field.
  for (const port of ports) {
    try {
      await client.deletePort(port.id);
    } catch (err) {
      if (err instanceof NeutronNotFound) {
        log.info(`Port ${port.id} was not found while deleting.`);
        continue;
      }
      if (!(err instanceof NeutronApiError)) throw err;
      throw new NetworkError(`Could not remove VIF ${port.id} of node ${task.node.uuid}, possibly a network issue: ${reason(err)}`);
    }
  }
}

/** rollback_ports: removal that never raises, so the caller's error handling goes on. */
export async function rollbackPorts(client: NeutronClient, task: PortTask, networkId: string, addAllPorts: boolean): Promise<void> {
  try {
    await removePortsFromNetwork(client, task, networkId, addAllPorts);
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    log.error(`Failed to rollback port changes for node ${task.node.uuid} on network ${networkId}: ${err.message}`);
  }
}

/** get_local_group_information: a portgroup as Neutron's local_group_information. */
export function localGroupInformation(pg: PortgroupRecord): JsonObject {
  const props: JsonObject = {};
  for (const [key, value] of Object.entries(pg.properties ?? {})) props[key.startsWith('bond') ? key : `bond_${key}`] = value;
  return { id: pg.uuid, name: pg.name, bond_mode: pg.mode, bond_properties: props };
}

/** _get_network_by_uuid_or_name: net_type names the network in messages. */
async function networkByUuidOrName(client: NeutronClient, uuidOrName: string, netType = 'network'): Promise<JsonObject & { id: string }> {
  try {
    return await client.findNetwork(uuidOrName);
  } catch (err) {
    if (err instanceof NeutronDuplicate) {
      const ids = (await client.networks({ name: uuidOrName })).map((n) => n.id);
      throw new InvalidParameterValue(`More than one ${netType} was found for name ${uuidOrName}: ${ids.join(', ')}`);
    }
    if (err instanceof NeutronNotFound) throw new InvalidParameterValue(`${netType} with name or UUID ${uuidOrName} was not found`);
    if (err instanceof NeutronApiError) throw new NetworkError(`Could not retrieve network: ${reason(err)}`);
    throw err;
  }
}

/** _get_segment_by_subnet_uuid: the segment a subnet sits on, null when it has none (l2 adjacency). */
async function segmentOfSubnet(client: NeutronClient, subnetId: string): Promise<JsonObject | null> {
  let subnet;
  try {
    subnet = await client.getSubnet(subnetId);
  } catch (err) {
    if (err instanceof NeutronNotFound) throw new InvalidParameterValue(`Neutron subnet ${subnetId} was not found`);
    if (err instanceof NeutronApiError) throw new NetworkError(`Could not retrieve neutron subnet: ${reason(err)}`);
    throw err;
  }
  const segmentId = subnet.segment_id;
  if (segmentId === undefined || segmentId === null) return null;
  try {
    return await client.getSegment(String(segmentId));
  } catch (err) {
    if (err instanceof NeutronNotFound) throw new InvalidParameterValue(`Neutron segment ${String(segmentId)} was not found`);
    if (err instanceof NeutronApiError) throw new NetworkError(`Could not retrieve neutron segment: ${reason(err)}`);
    throw err;
  }
}

const physnetSet = (physnets: readonly unknown[]): Set<string> =>
  new Set(physnets.filter((p): p is string => typeof p === 'string' && p !== ''));

/**
 * get_physnets_by_port_uuid: the physical networks the VIF may use. On a multi-segment (routed)
 * network, the segment of the first of the port's fixed IPs whose subnet sits on a segment with a
 * physical network decides; otherwise all the segments' physical networks. A single-segment
 * network gives its provider:physical_network.
 */
export async function physnetsOfVif(client: NeutronClient, vifId: string): Promise<Set<string>> {
  const port = await portByUuid(client, vifId);
  const network = await networkByUuidOrName(client, String(port.network_id));
  const segments = network.segments;
  if (segments === undefined || segments === null) return physnetSet([network['provider:physical_network']]);
  for (const fixedIp of objectsIn(port.fixed_ips)) {
    const segment = await segmentOfSubnet(client, String(fixedIp.subnet_id));
    const physnet = segment?.physical_network;
    if (physnet !== undefined && physnet !== null) return new Set([String(physnet)]);
  }
  return physnetSet(objectsIn(segments).map((s) => s['provider:physical_network']));
}
