/**
 * get_node_network_data (drivers/base.py, network/common.py NeutronVIFPortIDMixin): the
 * network_data.json a ramdisk is given to configure its network without DHCP, e.g. on a virtual
 * media ISO. The node's own network_data (API 1.66) wins; the flat and neutron interfaces
 * otherwise gather it from Neutron for each port's current VIF (portgroups are not looked at).
 */
import type { JsonObject } from '../../common/json-value';
import { neutronNodeNetworkData } from '../../common/neutron/network-data';
import type { DriverTask } from '../base';
import { clientFor } from './neutron-vifs';
import { currentVif } from './vif-ports';

/** The base interface's answer: the node's network_data, `{}` when it has none. */
export async function staticNetworkData(task: DriverTask): Promise<JsonObject> {
  const own = task.node.network_data;
  return own && Object.keys(own).length ? own : {};
}

/** The mixin's answer: the node's own network_data, else Neutron's view of its ports' VIFs. */
export async function neutronNetworkData(task: DriverTask): Promise<JsonObject> {
  const own = await staticNetworkData(task);
  if (Object.keys(own).length) return own;
  return neutronNodeNetworkData(clientFor(task), task.ports.map((p) => ({ uuid: p.uuid, vif: currentVif(p) })));
}
