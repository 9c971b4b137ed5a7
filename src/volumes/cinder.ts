/**
 * Attaching and detaching a node's volumes through Cinder (common/cinder.py). Attach, per
 * volume: skip one already attached to the node, else reserve, initialize the connection with
 * the node's connector, mark it attached to the instance (or the node) at `ironic_mountpoint`
 * and record `ironic_node_<uuid>` metadata. Detach: begin detaching, terminate the connection,
 * detach the attachment, record the metadata. A refusal by Cinder is a StorageError worded as
 * Ironic's; detach may instead only warn (allowErrors) and go on with the next volume.
 */
import { StorageError } from '../common/errors';
import { log } from '../common/log';
import type { JsonObject } from '../common/json-value';
import { pythonJsonDumps } from '../common/python/json-dumps';
import { pythonUtcNow } from '../common/python/utcnow';
import type { Config } from '../conf/config';
import type { NodeRecord } from '../db/models';
import { blockStorageFor, CinderSdkError, type BlockStorage, type CinderVolume } from './cinder-client';

/** One attached volume: the driver's connection data (with volume_id and ironic_volume_uuid). */
export interface AttachedVolume {
  data: JsonObject;
  driver_volume_type?: string;
  already_attached?: boolean;
  [key: string]: unknown;
}

/** A failure Ironic turns into StorageError: only the SDK's exceptions are (others pass through). */
async function sdkCall<T>(call: () => Promise<T>, wrap: (err: CinderSdkError) => Error): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw err instanceof CinderSdkError ? wrap(err) : err;
  }
}

async function client(conf: Config): Promise<BlockStorage> {
  return sdkCall(() => blockStorageFor(conf), (e) => new StorageError(`Failed to connect to block storage service : ${e.message}`));
}

const ownsAttachment = (node: NodeRecord, attachment: CinderVolume['attachments'][number]): boolean =>
  attachment.server_id !== undefined && [node.instance_uuid, node.uuid].includes(attachment.server_id);

/** is_volume_attached: Cinder lists an attachment to the node's instance or to the node itself. */
function isVolumeAttached(node: NodeRecord, volume: CinderVolume): boolean {
  return volume.attachments.some((a) => ownsAttachment(node, a));
}

function attachmentId(node: NodeRecord, volume: CinderVolume): string | null {
  const found = volume.attachments.find((a) => ownsAttachment(node, a));
  return typeof found?.attachment_id === 'string' ? found.attachment_id : null;
}

/** _create_metadata_dictionary: Cinder metadata is flat, so the details are a JSON string. */
function metadataFor(node: NodeRecord, action: 'attached' | 'detached'): Record<string, string> {
  const data = { instance_uuid: node.instance_uuid ?? node.uuid, last_seen: pythonUtcNow('T'), last_action: action };
  return { [`ironic_node_${node.uuid}`]: pythonJsonDumps(data) };
}

function failed(message: string): Error {
  log.error(message);
  return new StorageError(message);
}

/** attach_volumes: the connections of every volume, already attached ones marked as such. */
export async function attachVolumes(conf: Config, node: NodeRecord, volumeIds: string[], connector: JsonObject): Promise<AttachedVolume[]> {
  log.debug(`Initializing volume attach for node ${node.uuid}.`);
  const storage = await client(conf);
  const connected: AttachedVolume[] = [];
  for (const volumeId of volumeIds) {
    const volume = await sdkCall(() => storage.getVolume(volumeId),
      (e) => failed(`Failed to get volume ${volumeId} from cinder for node ${node.uuid}: ${e.message}`));
    if (isVolumeAttached(node, volume)) {
      log.debug(`Volume ${volumeId} is already attached to node ${node.uuid}. Skipping attachment.`);
      connected.push({ data: { ironic_volume_uuid: volume.id, volume_id: volumeId }, already_attached: true });
      continue;
    }
    await sdkCall(() => storage.reserve(volume.id),
      (e) => failed(`Failed to reserve volume ${volumeId} for node ${node.uuid}: ${e.message})`));
    const connection = await sdkCall(() => storage.initializeConnection(volume.id, connector),
      (e) => failed(`Failed to initialize connection for volume ${volumeId} to node ${node.uuid}: ${e.message}`));
    const data: JsonObject = { ...connection.data };
    if (!Object.hasOwn(data, 'volume_id')) data.volume_id = volumeId;
    data.ironic_volume_uuid = volume.id;
    connected.push({ ...connection, data });
    log.info(`Successfully initialized volume ${volumeId} for node ${node.uuid}.`);
    await sdkCall(() => storage.attach(volume.id, 'ironic_mountpoint', node.instance_uuid ?? node.uuid),
      (e) => failed(`Failed to inform cinder that the attachment for volume ${volumeId} for node ${node.uuid} has been ` +
        `completed: ${e.message}`));
    await storage.setMetadata(volume.id, metadataFor(node, 'attached')).catch((e: unknown) => {
      if (!(e instanceof CinderSdkError)) throw e;
      log.warning(`Failed to update volume metadata for volume ${volumeId} for node ${node.uuid}: ${e.message}`);
    });
  }
  return connected;
}

/** detach_volumes: with allowErrors a failure is a warning and the next step or volume goes on. */
export async function detachVolumes(conf: Config, node: NodeRecord, volumeIds: string[], connector: JsonObject,
  allowErrors = false): Promise<void> {
  /** Raises, or logs and reports false so the caller moves on. */
  const handle = (message: string): false => {
    if (!allowErrors) throw failed(message);
    log.warning(message);
    return false;
  };
  const attempt = async (call: () => Promise<unknown>, message: (e: CinderSdkError) => string): Promise<boolean> => {
    try {
      await call();
      return true;
    } catch (err) {
      if (!(err instanceof CinderSdkError)) throw err;
      return handle(message(err));
    }
  };
  const storage = await client(conf);
  log.debug(`Initializing volume detach for node ${node.uuid}.`);
  for (const volumeId of volumeIds) {
    let volume: CinderVolume | null = null;
    // A volume deleted meanwhile: the next one (when errors are allowed).
    const found = await attempt(async () => { volume = await storage.getVolume(volumeId); },
      (e) => `Failed to get volume ${volumeId} from cinder for node ${node.uuid}: ${e.message}`);
    if (!found || !volume) continue;
    const current: CinderVolume = volume;
    if (!isVolumeAttached(node, current)) {
      log.debug(`Volume ${volumeId} is not attached to node ${node.uuid}: Skipping detachment.`);
      continue;
    }
    // Only the status: the detachment itself may go on.
    await attempt(() => storage.beginDetaching(current.id),
      (e) => `Failed to request detach for volume ${volumeId} from cinder for node ${node.uuid}: ${e.message}`);
    const terminated = await attempt(() => storage.terminateConnection(current.id, connector),
      (e) => `Failed to detach volume ${volumeId} from node ${node.uuid}: ${e.message}`);
    if (!terminated) continue;
    await attempt(() => storage.detach(current.id, attachmentId(node, current)),
      (e) => `Failed to inform cinder that the detachment for volume ${volumeId} from node ${node.uuid} has been completed: ${e.message}`);
    await storage.setMetadata(current.id, metadataFor(node, 'detached')).catch((e: unknown) => {
      if (!(e instanceof CinderSdkError)) throw e;
      log.warning(`Failed to update volume ${volumeId} metadata for node ${node.uuid}: ${e.message}`);
    });
  }
}
