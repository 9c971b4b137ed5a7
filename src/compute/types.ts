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

export interface NetworkSpec {
  /** Neutron-style port id attached as a VIF (POST /v1/nodes/{id}/vifs). */
  portId?: string;
  /** network_data.json content for the config drive. */
  networkData?: Record<string, unknown>;
}

export interface SpawnRequest {
  node: string;
  instanceUuid: string;
  name: string;
  image: string;
  flavor: Flavor;
  sshKey?: string;
  userData?: string;
  adminPass?: string;
  files?: InjectedFile[];
  network?: NetworkSpec;
  projectId?: string;
  userId?: string;
  hostname?: string;
}

export type ProgressFn = (event: { phase: string; node: string; provisionState?: string | null; targetState?: string | null; message?: string }) => void;

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
}
