/** Picks the provider named by [dhcp]dhcp_provider. */
import { DnsmasqDhcpProvider, DnsmasqError, type DnsmasqConf } from './dnsmasq';
import { NoneDhcpProvider, type DhcpProvider } from './provider';

export function createDhcpProvider(name: string, dnsmasq?: DnsmasqConf): DhcpProvider {
  if (name === 'none') return new NoneDhcpProvider();
  if (name === 'dnsmasq') {
    if (!dnsmasq) throw new DnsmasqError('dnsmasq provider needs [dnsmasq] dhcp_hostsdir and dhcp_optsdir');
    return new DnsmasqDhcpProvider(dnsmasq);
  }
  // neutron is a network-service integration outside this module.
  throw new DnsmasqError(`unsupported dhcp_provider ${name}`);
}
