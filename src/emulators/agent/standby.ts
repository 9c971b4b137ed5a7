/**
 * What the emulated agent does to its "disks" (IPA's standby extension): download the image
 * from image_info.urls, verify it against os_hash_algo/os_hash_value or checksum while it
 * streams, write it to a file standing for the root disk, and write the configdrive
 * (gzip+base64 ISO or URL) to a second file standing for the config-2 partition. The root
 * "partition uuid" is the ext filesystem UUID found in the written image.
 */
import { splitUrlCredentials } from '../../common/url-credentials';
import { createHash } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { findRootFilesystemOffset } from '../../images/rootfs-offset';

export interface Disks {
  /** File the image is written to. */
  root: string;
  /** File the configdrive ISO is written to. */
  configdrive: string;
}

import type { JsonObject } from '../../common/json-value';

export type { JsonObject };

/** IPA's error shape in command_error. */
export class AgentCommandError extends Error {
  constructor(readonly type: string, message: string, readonly details: string) {
    super(message);
  }
  toJSON(): JsonObject {
    return { type: this.type, code: 500, message: this.message, details: this.details };
  }
}

function checksumSpec(info: JsonObject): { algo: string; value: string } | null {
  if (typeof info.os_hash_algo === 'string' && typeof info.os_hash_value === 'string') {
    return { algo: info.os_hash_algo, value: info.os_hash_value.toLowerCase() };
  }
  if (typeof info.checksum === 'string' && /^[0-9a-f]{32}$/i.test(info.checksum)) return { algo: 'md5', value: info.checksum.toLowerCase() };
  return null;
}

async function download(url: string, dest: string, hash: ReturnType<typeof createHash> | null): Promise<number> {
  const plain = splitUrlCredentials(url);
  const res = await fetch(plain.href, { headers: plain.headers }).catch((err: Error) => {
    throw new AgentCommandError('ImageDownloadError', 'Error downloading image', `Download of image ${url} failed: ${err.message}`);
  });
  if (!res.ok || !res.body) {
    throw new AgentCommandError('ImageDownloadError', 'Error downloading image',
      `Download of image ${url} failed: URL: ${url}; time: 0 seconds. Error: Received status code ${res.status}`);
  }
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      hash?.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>), tap, createWriteStream(dest));
  return bytes;
}

/** Reads the 16-byte UUID from an ext superblock and formats it. */
async function extUuid(file: string): Promise<string | null> {
  const offset = await findRootFilesystemOffset(file);
  if (offset === null) return null;
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    await fh.read(buf, 0, 16, offset + 1024 + 104);
    const hex = buf.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  } finally {
    await fh.close();
  }
}

async function configdriveBytes(configdrive: string): Promise<Buffer> {
  let data = configdrive;
  if (/^https?:\/\//.test(configdrive)) data = await (await fetch(configdrive)).text();
  const raw = Buffer.from(data, 'base64');
  return raw[0] === 0x1f && raw[1] === 0x8b ? zlib.gunzipSync(raw) : raw;
}

interface WriteResult {
  partitionUuids: Record<string, string>;
  message: string;
}

/** standby.prepare_image / deploy.write_image: image then configdrive. */
export async function writeImage(disks: Disks, info: JsonObject, configdrive: string | null): Promise<WriteResult> {
  const urls = Array.isArray(info.urls) ? info.urls.map(String) : [];
  if (!urls.length) throw new AgentCommandError('InvalidCommandParamsError', 'Invalid command parameters', 'Image is missing the urls');
  const spec = checksumSpec(info);
  if (!spec) {
    throw new AgentCommandError('InvalidCommandParamsError', 'Invalid command parameters',
      'Image is missing the os_hash_algo/os_hash_value or checksum');
  }
  const hash = createHash(spec.algo);
  const tmp = `${disks.root}.partial`;
  try {
    await download(urls[0], tmp, hash);
    const actual = hash.digest('hex');
    if (actual !== spec.value) {
      throw new AgentCommandError('ImageChecksumError', 'Error verifying image checksum',
        `Image failed to verify against checksum. location: ${urls[0]}; image ID: ${String(info.id)}; ` +
        `image checksum: ${spec.value}; verification checksum: ${actual}`);
    }
    await fsp.rename(tmp, disks.root);
  } finally {
    await fsp.rm(tmp, { force: true });
  }
  if (configdrive) await fsp.writeFile(disks.configdrive, await configdriveBytes(configdrive));
  const rootUuid = await extUuid(disks.root);
  const partitionUuids: Record<string, string> = rootUuid ? { 'root uuid': rootUuid } : {};
  return { partitionUuids, message: `image (${String(info.id)}) written to device ${disks.root} root_uuid=${rootUuid ?? ''}` };
}
