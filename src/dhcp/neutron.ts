/**
 * The `neutron` DHCP provider (dhcp/neutron.py NeutronDHCPApi): the boot options go into the
 * `extra_dhcp_opts` of the node's current VIF ports (tenant, or the cleaning/provisioning/...
 * port while one is there), filtered to the IP versions of each port's fixed IPs; Neutron's DHCP
 * agent serves them. IP addresses are the first fixed IP of each port's and portgroup's VIF.
 * Cleaning the options is a no-op there too: the ports carry them until they are deleted or
 * updated again.
 */
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FailedToGetIPAddressOnPort, FailedToUpdateDHCPOptOnPort, InvalidIPAddress, NetworkError } from '../common/errors';
import { log } from '../common/log';
import type { NeutronClient } from '../common/neutron/client';
import { NeutronApiError } from '../common/neutron/errors';
import type { DhcpOption } from './boot-options';
import type { DhcpNode, DhcpProvider, DhcpUpdateResult, PortDhcpOption, PortVif } from './provider';

export interface NeutronDhcpSettings {
  client: NeutronClient;
  /** [neutron]port_setup_delay in seconds: a wait after updating, for the DHCP agents. */
  portSetupDelay: number;
}

function fixedIps(port: Record<string, unknown>): { ip_address?: unknown }[] {
  const ips = port.fixed_ips;
  return Array.isArray(ips) ? ips.filter((ip): ip is { ip_address?: unknown } => !!ip && typeof ip === 'object') : [];
}

/** The options of the IP versions the port has addresses in. */
function optionsForPort(port: Record<string, unknown>, options: readonly PortDhcpOption[]): PortDhcpOption[] {
  const versions = new Set(fixedIps(port).map((ip) => isIP(String(ip.ip_address ?? ''))));
  if (versions.size === 0) {
    log.error(`Requested to update port for port ${String(port.id)}, however port lacks an IP address.`);
    return [];
  }
  return [...versions].flatMap((v) => options.filter((o) => (o.ip_version ?? 4) === v));
}

export class NeutronDhcpProvider implements DhcpProvider {
  readonly name = 'neutron';
  readonly usesVifs = true;

  constructor(private readonly settings: NeutronDhcpSettings) {}

  /** update_port_dhcp_opts: FailedToUpdateDHCPOptOnPort when Neutron refuses or cannot be reached. */
  async updatePortDhcpOpts(vif: string, options: readonly PortDhcpOption[]): Promise<void> {
    const { client } = this.settings;
    try {
      const port = await client.getPort(vif);
      await client.updatePort(vif, { extra_dhcp_opts: optionsForPort(port, options) });
    } catch (err) {
      if (!(err instanceof NeutronApiError)) throw err;
      log.error(`Failed to update Neutron port ${vif}: ${err.message}`);
      throw new FailedToUpdateDHCPOptOnPort({ port_id: vif });
    }
  }

  async updateDhcpOpts(node: DhcpNode, options: DhcpOption[]): Promise<DhcpUpdateResult> {
    const withVif = (list: PortVif[] | undefined): string[] => (list ?? []).flatMap((p) => (p.vif ? [p.vif] : []));
    // Ironic walks portgroups first (get_node_vif_ids builds that key first).
    const vifs = [...withVif(node.vifs?.portgroups), ...withVif(node.vifs?.ports)];
    if (vifs.length === 0) {
      throw new FailedToUpdateDHCPOptOnPort(`No VIFs found for node ${node.uuid} when attempting to update DHCP BOOT options.`);
    }
    const failures: string[] = [];
    for (const vif of vifs) {
      try {
        await this.updatePortDhcpOpts(vif, options);
      } catch (err) {
        if (!(err instanceof FailedToUpdateDHCPOptOnPort)) throw err;
        failures.push(vif);
      }
    }
    if (failures.length === vifs.length) {
      throw new FailedToUpdateDHCPOptOnPort(`Failed to set DHCP BOOT options for any port on node ${node.uuid}.`);
    }
    if (failures.length) {
      log.warning(`Some errors were encountered when updating the DHCP BOOT options for node ${node.uuid} on the following Neutron ports: ${failures.join(', ')}.`);
    }
    if (this.settings.portSetupDelay > 0) await sleep(this.settings.portSetupDelay * 1000);
    return {};
  }

  async cleanDhcpOpts(): Promise<void> {}

  /** _get_fixed_ip_address: the first fixed IP of the VIF. */
  private async fixedIpOf(vif: string): Promise<string> {
    let port: Record<string, unknown>;
    try {
      port = await this.settings.client.getPort(vif);
    } catch (err) {
      if (err instanceof NeutronApiError) throw new NetworkError(`Could not retrieve neutron port: ${vif}`);
      throw err;
    }
    const ip = fixedIps(port)[0]?.ip_address;
    if (typeof ip !== 'string' || !ip) {
      log.error(`No IP address assigned to Neutron port ${vif}.`);
      throw new FailedToGetIPAddressOnPort({ port_id: vif });
    }
    if (!isIP(ip)) throw new InvalidIPAddress({ ip_address: ip });
    return ip;
  }

  private async addressesOf(node: DhcpNode, list: PortVif[], kind: 'ports' | 'portgroups'): Promise<string[]> {
    const addresses: string[] = [];
    const failures: string[] = [];
    for (const p of list) {
      try {
        if (!p.vif) throw new FailedToGetIPAddressOnPort({ port_id: p.uuid });
        addresses.push(await this.fixedIpOf(p.vif));
      } catch (err) {
        if (!(err instanceof FailedToGetIPAddressOnPort || err instanceof NetworkError)) throw err;
        failures.push(p.uuid);
      }
    }
    if (failures.length) {
      log.warning(`Some errors were encountered on node ${node.uuid} while retrieving IP addresses on the following ${kind}: ${failures.join(', ')}.`);
    }
    return addresses;
  }

  async getIpAddresses(node: DhcpNode): Promise<string[]> {
    return [
      ...await this.addressesOf(node, node.vifs?.ports ?? [], 'ports'),
      ...await this.addressesOf(node, node.vifs?.portgroups ?? [], 'portgroups'),
    ];
  }

  supportsIpxeTag(): boolean {
    return true;
  }
}
