/** The inputs of the shim's compute operations: the parts of a Nova instance the driver reads. */
export interface Flavor {
  name?: string;
  vcpus: number;
  memoryMb: number;
  rootGb: number;
  swapMb?: number;
  ephemeralGb?: number;
  /** Flavor extra specs `capabilities:KEY` -> value. */
  capabilities?: Record<string, string>;
  /** Required traits (flavor `trait:X=required` + image traits_required). */
  traits?: string[];
}

export interface InjectedFile {
  path: string;
  contents: Buffer | string;
}

/** A subnet as Neutron reports it in Nova's network_info (nova.network.model.Subnet). */
export interface SubnetSpec {
  /** `192.0.2.0/24` or `2001:db8::/64`; the IP version follows from it. */
  cidr: string;
  gateway?: string;
  /** Fixed IPs of the VIF on this subnet; the first is the one network_data.json carries. */
  ips: string[];
  dns?: string[];
  /** Routes beyond the default route. */
  routes?: Array<{ cidr: string; gateway: string }>;
  /** Set when Neutron serves DHCP on the subnet: the network becomes `ipvN_dhcp`. */
  dhcpServer?: string;
  /** IPv6 address mode (slaac, dhcpv6-stateful...): the network type becomes `ipv6_<mode>`. */
  ipv6AddressMode?: string;
}

/** One VIF of Nova's network_info (nova.network.model.VIF) on its network. */
export interface VifSpec {
  /** The Neutron port id, attached to the node with POST /v1/nodes/{id}/vifs. */
  id: string;
  /** The port's MAC; Ironic's port address replaces it in network_data.json when a port carries the VIF. */
  address?: string;
  /** Neutron VIF type (Nova passes `other` for bare metal). */
  type?: string;
  devname?: string;
  network: { id: string; label?: string; mtu?: number; subnets: SubnetSpec[] };
}

export type NetworkInfo = VifSpec[];

interface KeyPair {
  name: string;
  publicKey: string;
  type?: string;
}

export interface SpawnRequest {
  node: string;
  instanceUuid: string;
  name: string;
  image: string;
  flavor: Flavor;
  /** The instance's key pair (Nova's instance.keypairs[0]). */
  keyPair?: KeyPair;
  userData?: string;
  adminPass?: string;
  files?: InjectedFile[];
  networkInfo?: NetworkInfo;
  /** Instance metadata (meta_data.json `meta`). */
  metadata?: Record<string, string>;
  projectId?: string;
  userId?: string;
  /** Defaults to the name, sanitized as Nova's API does. */
  hostname?: string;
  availabilityZone?: string;
  /** The compute host name Nova records as instance_info.nova_host_id. */
  host?: string;
  /** Nova's [api]dhcp_domain, appended to the hostname in the metadata ('' for none). */
  dhcpDomain?: string;
  reservationId?: string;
}

export type ProgressFn = (event: { phase: string; node: string; provisionState?: string | null; targetState?: string | null; powerState?: string | null; message?: string }) => void;

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
}
