/**
 * A small HTTP client for the Ironic v1 API, speaking the way openstacksdk does for Nova:
 * JSON bodies, one pinned microversion header, and errors decoded from Ironic's
 * `{"error_message": "<json text with faultstring>"}` wrapper into IronicApiError.
 */
import { IronicApiError } from './errors';
import type { PortLike } from './network-metadata';

const DEFAULT_API_VERSION = '1.82';

interface ValidateResult {
  result: boolean | null;
  reason: string | null;
}

export interface IronicNode {
  uuid: string;
  name: string | null;
  instance_uuid: string | null;
  power_state: string | null;
  target_power_state: string | null;
  provision_state: string | null;
  target_provision_state: string | null;
  last_error: string | null;
  maintenance: boolean;
  properties: Record<string, unknown>;
  instance_info: Record<string, unknown>;
  traits?: string[];
  resource_class?: string | null;
  console_enabled?: boolean;
}

/** GET /v1/nodes/{id}/states/console. */
export interface NodeConsole {
  console_enabled: boolean;
  console_info: { type?: string; url?: string } | null;
}

export interface PatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

interface ProvisionBody {
  target: string;
  configdrive?: string;
  rescue_password?: string;
  extra_data?: Record<string, unknown>;
}

interface ClientOptions {
  url: string;
  apiVersion?: string;
}

/** The node fields Nova asks for (driver._NODE_FIELDS), plus name and instance_info for our callers. */
const NODE_FIELDS = [
  'uuid', 'name', 'power_state', 'target_power_state', 'provision_state', 'target_provision_state',
  'last_error', 'maintenance', 'properties', 'instance_uuid', 'instance_info', 'traits', 'resource_class', 'console_enabled',
];

export class IronicClient {
  readonly base: string;
  readonly apiVersion: string;

  constructor(opts: ClientOptions) {
    this.base = opts.url.replace(/\/+$/, '');
    this.apiVersion = opts.apiVersion ?? DEFAULT_API_VERSION;
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      'X-OpenStack-Ironic-API-Version': this.apiVersion,
      'OpenStack-API-Version': `baremetal ${this.apiVersion}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new IronicApiError(res.status, faultstringOf(text), method, path);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  getNode(ident: string): Promise<IronicNode> {
    return this.request<IronicNode>('GET', `/v1/nodes/${encodeURIComponent(ident)}?fields=${NODE_FIELDS.join(',')}`);
  }

  /** All nodes, following `next` links as the SDK does. */
  async listNodes(query: Record<string, string> = {}): Promise<IronicNode[]> {
    const params = new URLSearchParams({ ...query, fields: NODE_FIELDS.join(',') });
    let path: string | null = `/v1/nodes?${params}`;
    const out: IronicNode[] = [];
    while (path) {
      const page: { nodes: IronicNode[]; next?: string } = await this.request('GET', path);
      out.push(...page.nodes);
      path = page.next ? nextPath(page.next) : null;
    }
    return out;
  }

  /** `GET /v1/nodes?instance_uuid=` : Nova's _validate_instance_and_node. */
  async nodeByInstance(instanceUuid: string): Promise<IronicNode | null> {
    const nodes = await this.listNodes({ instance_uuid: instanceUuid });
    return nodes[0] ?? null;
  }

  patchNode(ident: string, ops: PatchOp[]): Promise<IronicNode> {
    return this.request<IronicNode>('PATCH', `/v1/nodes/${encodeURIComponent(ident)}`, ops);
  }

  validateNode(ident: string): Promise<Record<string, ValidateResult>> {
    return this.request('GET', `/v1/nodes/${encodeURIComponent(ident)}/validate`);
  }

  async setProvisionState(ident: string, body: ProvisionBody): Promise<void> {
    await this.request('PUT', `/v1/nodes/${encodeURIComponent(ident)}/states/provision`, body);
  }

  async setPowerState(ident: string, target: string, timeout?: number): Promise<void> {
    await this.request('PUT', `/v1/nodes/${encodeURIComponent(ident)}/states/power`, timeout ? { target, timeout } : { target });
  }

  async attachVif(ident: string, vifId: string): Promise<void> {
    await this.request('POST', `/v1/nodes/${encodeURIComponent(ident)}/vifs`, { id: vifId });
  }

  async detachVif(ident: string, vifId: string): Promise<void> {
    await this.request('DELETE', `/v1/nodes/${encodeURIComponent(ident)}/vifs/${encodeURIComponent(vifId)}`);
  }

  /** Nova's node.list_ports(detail=True). */
  async listPorts(node: string): Promise<PortLike[]> {
    const body: { ports: PortLike[] } = await this.request('GET', `/v1/ports?node=${encodeURIComponent(node)}&detail=True`);
    return body.ports;
  }

  /** Nova's portgroup.list(node=, detail=True). */
  async listPortgroups(node: string): Promise<PortLike[]> {
    const body: { portgroups: PortLike[] } = await this.request('GET', `/v1/portgroups?node=${encodeURIComponent(node)}&detail=True`);
    return body.portgroups;
  }

  /** Nova's node.list_volume_targets(detail=True). */
  async listVolumeTargets(node: string): Promise<Array<{ uuid: string; volume_id: string }>> {
    const body: { targets: Array<{ uuid: string; volume_id: string }> } = await this.request('GET', `/v1/nodes/${encodeURIComponent(node)}/volume/targets?detail=True`);
    return body.targets;
  }

  async deleteVolumeTarget(uuid: string): Promise<void> {
    await this.request('DELETE', `/v1/volume/targets/${encodeURIComponent(uuid)}`);
  }

  getConsole(ident: string): Promise<NodeConsole> {
    return this.request<NodeConsole>('GET', `/v1/nodes/${encodeURIComponent(ident)}/states/console`);
  }

  async setConsoleMode(ident: string, enabled: boolean): Promise<void> {
    await this.request('PUT', `/v1/nodes/${encodeURIComponent(ident)}/states/console`, { enabled });
  }

  async listVifs(ident: string): Promise<string[]> {
    const body: { vifs: Array<{ id: string }> } = await this.request('GET', `/v1/nodes/${encodeURIComponent(ident)}/vifs`);
    return body.vifs.map((v) => v.id);
  }
}

/** `next` is an absolute URL built from the server's view of its host; keep only path+query. */
function nextPath(next: string): string {
  const u = new URL(next);
  return `${u.pathname}${u.search}`;
}

/** error_message holds JSON text whose faultstring is the message; fall back to the raw body. */
function faultstringOf(text: string): string {
  try {
    const outer = JSON.parse(text) as { error_message?: unknown };
    const inner = outer.error_message;
    if (typeof inner === 'string') {
      try {
        const parsed = JSON.parse(inner) as { faultstring?: unknown };
        if (typeof parsed.faultstring === 'string') return parsed.faultstring;
      } catch {
        return inner;
      }
      return inner;
    }
    if (inner && typeof inner === 'object' && typeof (inner as { faultstring?: unknown }).faultstring === 'string') {
      return (inner as { faultstring: string }).faultstring;
    }
  } catch {
    /* not JSON */
  }
  return text;
}
