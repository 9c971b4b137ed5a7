/**
 * The DHCP provider contract boot interfaces call ([dhcp]dhcp_provider),
 * and the `none` provider for operators who run DHCP themselves.
 */
import type { DhcpOption } from './boot-options';

export interface DhcpNode {
  uuid: string;
  /** driver_internal_info.dnsmasq_tag, when one was issued before. */
  dnsmasq_tag?: string;
  /** MACs of ports with pxe_enabled. */
  pxe_macs: string[];
  /** Each port's and portgroup's current VIF (network.get_node_vif_ids; null: none), for Neutron. */
  vifs?: NodeVifs;
}

export interface PortVif {
  uuid: string;
  vif: string | null;
}

interface NodeVifs {
  ports: PortVif[];
  portgroups: PortVif[];
}

export interface DhcpUpdateResult {
  /** Tag to persist in driver_internal_info.dnsmasq_tag (dnsmasq only). */
  tag?: string;
}

/** One option for a single port; a null value removes it (Neutron's extra_dhcp_opts). */
export interface PortDhcpOption {
  opt_name: string;
  opt_value: string | null;
  ip_version?: 4 | 6;
}

export interface DhcpProvider {
  readonly name: string;
  /** update_port_dhcp_opts: only the neutron provider has per-port options; the others ignore it, as in Ironic. */
  updatePortDhcpOpts?(vif: string, options: readonly PortDhcpOption[]): Promise<void>;
  /** Whether it works on the node's VIFs (DhcpNode.vifs), as the neutron provider does. */
  readonly usesVifs?: boolean;
  updateDhcpOpts(node: DhcpNode, options: DhcpOption[]): Promise<DhcpUpdateResult>;
  cleanDhcpOpts(node: DhcpNode): Promise<void>;
  getIpAddresses(node: DhcpNode): Promise<string[]>;
  supportsIpxeTag(): boolean;
}

export class NoneDhcpProvider implements DhcpProvider {
  readonly name = 'none';
  async updateDhcpOpts(): Promise<DhcpUpdateResult> {
    return {};
  }
  async cleanDhcpOpts(): Promise<void> {}
  async getIpAddresses(): Promise<string[]> {
    return [];
  }
  supportsIpxeTag(): boolean {
    return false;
  }
}
