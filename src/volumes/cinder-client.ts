/**
 * The block storage client Ironic gets from cinder.get_client: openstacksdk's block_storage v3
 * proxy over the [cinder] session. The endpoint is [cinder]endpoint_override or the catalog's,
 * without the service token's project id (Cinder 3.67+ needs none). The first request
 * discovers the API's versions (a dead endpoint fails there, as keystoneauth's DiscoveryFailure)
 * and settles the microversion: the SDK's Volume maximum, 3.60, or the server's if lower.
 * Cinder's refusals become the SDK's exceptions, worded as str() of them reads; a connection
 * lost after discovery is keystoneauth's ConnectFailure. Neither kind is an IronicError, as in
 * Ironic: common/cinder.py wraps only SDK exceptions into StorageError.
 */
import type { Config } from '../conf/config';
import { adapterFor, ServiceConnectFailure, type ServiceAdapter } from '../common/keystone/adapter';
import type { JsonObject } from '../common/json-value';

/** openstacksdk's Volume._max_microversion. */
const SDK_MAX_MICROVERSION = [3, 60] as const;

/** An openstacksdk exception (SDKException and its HTTP subclasses): message is str(e). */
export class CinderSdkError extends Error {
  constructor(readonly sdkClass: string, message: string, readonly status: number | null = null) {
    super(message);
    this.name = sdkClass;
  }
}

/** keystoneauth's failures below the SDK: no discovery document, or no connection. */
class CinderTransportError extends Error {
  constructor(name: 'DiscoveryFailure' | 'ConnectFailure', message: string) {
    super(message);
    this.name = name;
  }
}

/** The fields of a Cinder volume Ironic reads. */
export interface CinderVolume {
  id: string;
  status: string;
  multiattach: boolean;
  attachments: Array<{ server_id?: string; attachment_id?: string; [key: string]: unknown }>;
  metadata: Record<string, string>;
}

/** Cinder's connection_info: driver_volume_type and the driver's data. */
interface ConnectionInfo {
  driver_volume_type?: string;
  data: JsonObject;
  [key: string]: unknown;
}

/** openstacksdk's raise_from_response: the class by status, the message(s) of the JSON fault as details. */
function sdkClassFor(status: number): string {
  const named: Record<number, string> = {
    400: 'BadRequestException', 403: 'ForbiddenException', 404: 'NotFoundException', 409: 'ConflictException',
    412: 'PreconditionFailedException',
  };
  return Object.hasOwn(named, status) ? named[status] : 'HttpException';
}

function faultMessages(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const message = (obj: unknown): string | null => {
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
    const o = obj as Record<string, unknown>;
    if (o.message) return String(o.message);
    return o.faultstring ? String(o.faultstring) : null;
  };
  let found = Object.values(body as Record<string, unknown>).map(message);
  if (!found.some(Boolean)) found = [message(body)];
  const joined = found.filter((m): m is string => Boolean(m)).join('\n');
  return joined || null;
}

async function errorFromResponse(res: Response, url: string, errorMessage: string | null): Promise<CinderSdkError> {
  const sdkClass = sdkClassFor(res.status);
  const text = await res.text().catch(() => '');
  let details: string | null = null;
  if (text && (res.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      details = faultMessages(JSON.parse(text));
    } catch {
      details = text;
    }
  }
  details ||= res.statusText || text;
  const message = errorMessage ?? `${sdkClass}: ${res.status}`;
  const source = res.status >= 400 && res.status < 500 ? 'Client' : 'Server';
  return new CinderSdkError(sdkClass, `${message}: ${source} Error for url: ${url}${details ? `, ${details}` : ''}`, res.status);
}

function parseVersion(v: unknown): [number, number] | null {
  const m = typeof v === 'string' ? /^(\d+)\.(\d+)$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The highest microversion of the v3 API a version document (one version or a list) announces. */
function maxMicroversion(doc: unknown): [number, number] | null {
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as { version?: unknown; versions?: unknown };
  const entries = Array.isArray(d.versions) ? d.versions : d.version ? [d.version] : [];
  for (const entry of entries as Array<{ id?: unknown; version?: unknown }>) {
    if (typeof entry?.id === 'string' && entry.id.startsWith('v3')) return parseVersion(entry.version);
  }
  return null;
}

export class BlockStorage {
  private microversion: string | null = null;

  constructor(private readonly adapter: ServiceAdapter, readonly endpoint: string) {}

  /** One unauthenticated discovery GET; a 401 is tried again with the token, as keystoneauth does. */
  private async discoveryGet(url: string): Promise<unknown> {
    const headers = { Accept: 'application/json' };
    let res = await this.adapter.fetch(url, { headers, authenticated: false });
    if (res.status === 401 && this.adapter.session) res = await this.adapter.fetch(url, { headers });
    return res.ok ? res.json().catch(() => null) : null;
  }

  /** keystoneauth's discovery of the endpoint's versions, then the SDK's microversion negotiation. */
  private async negotiate(): Promise<string> {
    if (this.microversion) return this.microversion;
    const doc = await this.discoveryGet(`${this.endpoint.replace(/\/+$/, '')}/`).catch(() => null);
    const announced = maxMicroversion(doc);
    if (!announced) {
      throw new CinderTransportError('DiscoveryFailure', `Unable to find a version discovery document at ${this.endpoint}, ` +
        'the service is unavailable or misconfigured. Required version range (any - any), version hack disabled.');
    }
    const [sdkMajor, sdkMinor] = SDK_MAX_MICROVERSION;
    const lower = announced[0] < sdkMajor || (announced[0] === sdkMajor && announced[1] < sdkMinor);
    const [major, minor] = lower ? announced : SDK_MAX_MICROVERSION;
    this.microversion = `${major}.${minor}`;
    return this.microversion;
  }

  private async send(method: string, apiPath: string, body: unknown, errorMessage: string | null = null): Promise<Response> {
    const microversion = await this.negotiate();
    const url = `${this.endpoint.replace(/\/+$/, '')}${apiPath}`;
    const res = await this.adapter.fetch(url, {
      method,
      headers: {
        Accept: 'application/json', 'OpenStack-API-Version': `volume ${microversion}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((err: unknown) => {
      throw err instanceof ServiceConnectFailure ? new CinderTransportError('ConnectFailure', err.message) : err;
    });
    if (res.status >= 400) throw await errorFromResponse(res, url, errorMessage);
    return res;
  }

  private action(volumeId: string, body: JsonObject): Promise<Response> {
    return this.send('POST', `/volumes/${encodeURIComponent(volumeId)}/action`, body);
  }

  async getVolume(volumeId: string): Promise<CinderVolume> {
    const res = await this.send('GET', `/volumes/${encodeURIComponent(volumeId)}`, undefined, `No Volume found for ${volumeId}`);
    const volume = ((await res.json()) as { volume?: Record<string, unknown> }).volume ?? {};
    return {
      id: String(volume.id ?? volumeId),
      status: String(volume.status ?? ''),
      multiattach: volume.multiattach === true,
      attachments: Array.isArray(volume.attachments) ? volume.attachments as CinderVolume['attachments'] : [],
      metadata: (volume.metadata ?? {}) as Record<string, string>,
    };
  }

  async reserve(volumeId: string): Promise<void> {
    await this.action(volumeId, { 'os-reserve': null });
  }

  async beginDetaching(volumeId: string): Promise<void> {
    await this.action(volumeId, { 'os-begin_detaching': null });
  }

  async initializeConnection(volumeId: string, connector: JsonObject): Promise<ConnectionInfo> {
    const res = await this.action(volumeId, { 'os-initialize_connection': { connector } });
    const info = ((await res.json()) as { connection_info?: ConnectionInfo }).connection_info;
    if (!info || typeof info.data !== 'object' || info.data === null) {
      throw new CinderSdkError('InvalidResponse', `Cinder returned no connection_info for volume ${volumeId}`);
    }
    return info;
  }

  async terminateConnection(volumeId: string, connector: JsonObject): Promise<void> {
    await this.action(volumeId, { 'os-terminate_connection': { connector } });
  }

  async attach(volumeId: string, mountpoint: string, instanceUuid: string): Promise<void> {
    await this.action(volumeId, { 'os-attach': { mountpoint, instance_uuid: instanceUuid } });
  }

  async detach(volumeId: string, attachmentId: string | null): Promise<void> {
    await this.action(volumeId, { 'os-detach': { attachment_id: attachmentId } });
  }

  /** Merges the keys into the volume's metadata (set_volume_metadata). */
  async setMetadata(volumeId: string, metadata: Record<string, string>): Promise<void> {
    await this.send('POST', `/volumes/${encodeURIComponent(volumeId)}/metadata`, { metadata });
  }
}

/** cinder.get_client: the [cinder] adapter's endpoint, less the service project's id when it names one. */
export async function blockStorageFor(conf: Config): Promise<BlockStorage> {
  const adapter = adapterFor(conf, 'cinder');
  let endpoint = await adapter.endpoint();
  const projectId = (await adapter.token())?.projectId;
  if (projectId && endpoint.includes(projectId)) endpoint = endpoint.replace(`/${projectId}`, '');
  return new BlockStorage(adapter, endpoint);
}
