/** Picks the provider named by [dhcp]dhcp_provider. */
import { DnsmasqDhcpProvider, DnsmasqError, type DnsmasqConf } from './dnsmasq';
import { NeutronDhcpProvider, type NeutronDhcpSettings } from './neutron';
import { NoneDhcpProvider, type DhcpProvider } from './provider';

interface DhcpProviderSettings {
  dnsmasq?: DnsmasqConf;
  neutron?: NeutronDhcpSettings;
}

export function createDhcpProvider(name: string, settings: DhcpProviderSettings = {}): DhcpProvider {
  const { dnsmasq, neutron } = settings;
  if (name === 'none') return new NoneDhcpProvider();
  if (name === 'dnsmasq') {
    if (!dnsmasq) throw new DnsmasqError('dnsmasq provider needs [dnsmasq] dhcp_hostsdir and dhcp_optsdir');
    return new DnsmasqDhcpProvider(dnsmasq);
  }
  if (name === 'neutron') {
    if (!neutron) throw new DnsmasqError('neutron provider needs a Neutron client');
    return new NeutronDhcpProvider(neutron);
  }
  throw new DnsmasqError(`unsupported dhcp_provider ${name}`);
}
