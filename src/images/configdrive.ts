/**
 * Config drives as Ironic accepts them on provision: a gzipped+base64 ISO
 * string, a URL to such content, or a dict {meta_data, network_data,
 * user_data, vendor_data} that is turned into an ISO 9660 volume labelled
 * `config-2` with the layout openstacksdk's configdrive.build writes:
 *   openstack/<version>/meta_data.json       (always)
 *   openstack/<version>/network_data.json    (when given)
 *   openstack/<version>/vendor_data2.json    (when vendor_data given)
 *   openstack/<version>/user_data            (when given)
 * for versions 2012-08-10 and latest. Ironic stores gzip+base64 of the ISO;
 * the decompressed size is capped at 64 MiB.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { pythonJsonDumps } from '../common/python/json-dumps';
import { pyTruthy } from '../common/python/truthiness';

const run = promisify(execFile);

const MAX_CONFIGDRIVE_SIZE = 64 * 1024 * 1024;
const CONFIGDRIVE_LABEL = 'config-2';
const DEFAULT_VERSIONS = ['2012-08-10', 'latest'] as const;

import type { JsonObject } from '../common/json-value';

export interface ConfigDriveDict {
  meta_data?: JsonObject;
  network_data?: JsonObject | null;
  /** Text (cloud-init, ignition...) or JSON that is serialised. */
  user_data?: string | JsonObject | unknown[] | null;
  vendor_data?: JsonObject | null;
}

export type ConfigDriveInput = string | ConfigDriveDict;

type ConfigDriveForm =
  | { kind: 'url'; url: string }
  | { kind: 'encoded'; data: string }
  | { kind: 'dict'; dict: ConfigDriveDict };

class ConfigDriveError extends Error {
  override readonly name: string = 'ConfigDriveError';
}
class ConfigDriveTooLargeError extends ConfigDriveError {
  override readonly name = 'ConfigDriveTooLargeError';
}

export function classifyConfigDrive(input: ConfigDriveInput): ConfigDriveForm {
  if (typeof input === 'string') {
    return /^https?:\/\//i.test(input) ? { kind: 'url', url: input } : { kind: 'encoded', data: input };
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ConfigDriveError('configdrive must be a string or an object');
  const allowed = new Set(['meta_data', 'network_data', 'user_data', 'vendor_data']);
  const extra = Object.keys(input).filter((k) => !allowed.has(k));
  if (extra.length) throw new ConfigDriveError(`unexpected configdrive keys: ${extra.join(', ')}`);
  return { kind: 'dict', dict: input };
}

/** Ironic's defaults: meta_data.uuid = node uuid, meta_data.name = node name. */
export function withNodeDefaults(dict: ConfigDriveDict, node: { uuid: string; name?: string | null }): ConfigDriveDict {
  const meta: JsonObject = { ...(dict.meta_data ?? {}) };
  if (!('uuid' in meta)) meta.uuid = node.uuid;
  if (node.name && !('name' in meta)) meta.name = node.name;
  return { ...dict, meta_data: meta };
}

function userDataBytes(u: ConfigDriveDict['user_data']): Buffer | undefined {
  if (u === undefined || u === null || u === '') return undefined;
  if (typeof u === 'string') return Buffer.from(u, 'utf8');
  return Buffer.from(pythonJsonDumps(u), 'utf8');
}

/** Writes the openstack/<version>/ tree into dir. */
export async function populateDirectory(dir: string, dict: ConfigDriveDict, versions: readonly string[] = DEFAULT_VERSIONS): Promise<void> {
  const userData = userDataBytes(dict.user_data);
  for (const version of versions) {
    const sub = path.join(dir, 'openstack', version);
    await fsp.mkdir(sub, { recursive: true });
    await fsp.writeFile(path.join(sub, 'meta_data.json'), pythonJsonDumps(dict.meta_data ?? {}));
    if (pyTruthy(dict.network_data)) await fsp.writeFile(path.join(sub, 'network_data.json'), pythonJsonDumps(dict.network_data));
    if (pyTruthy(dict.vendor_data)) await fsp.writeFile(path.join(sub, 'vendor_data2.json'), pythonJsonDumps(dict.vendor_data));
    if (userData) await fsp.writeFile(path.join(sub, 'user_data'), userData);
  }
}

const MKISOFS_ARGS = ['-ldots', '-allow-lowercase', '-allow-multidot', '-l', '-publisher', 'metalsmith', '-quiet', '-J', '-r', '-V', CONFIGDRIVE_LABEL];

/** xorriso's mkisofs emulation first, genisoimage as the fallback. */
async function packIso(dir: string, out: string): Promise<void> {
  const attempts: Array<[string, string[]]> = [
    ['xorriso', ['-as', 'mkisofs', '-o', out, ...MKISOFS_ARGS, dir]],
    ['genisoimage', ['-o', out, ...MKISOFS_ARGS, dir]],
  ];
  const errors: string[] = [];
  for (const [cmd, args] of attempts) {
    try {
      await run(cmd, args, { maxBuffer: 4 * 1024 * 1024 });
      return;
    } catch (err) {
      errors.push(`${cmd}: ${(err as Error).message}`);
    }
  }
  throw new ConfigDriveError(`Error generating the configdrive: ${errors.join('; ')}`);
}

interface BuildOptions {
  versions?: readonly string[];
  maxSize?: number;
  tmpDir?: string;
}

/** Builds the raw ISO image bytes from a dict (node defaults already applied). */
export async function buildConfigDriveIso(dict: ConfigDriveDict, opts: BuildOptions = {}): Promise<Buffer> {
  const work = await fsp.mkdtemp(path.join(opts.tmpDir ?? os.tmpdir(), 'configdrive-'));
  try {
    const tree = path.join(work, 'tree');
    await populateDirectory(tree, dict, opts.versions);
    const iso = path.join(work, 'configdrive.iso');
    await packIso(tree, iso);
    const { size } = await fsp.stat(iso);
    const max = opts.maxSize ?? MAX_CONFIGDRIVE_SIZE;
    if (size > max) throw new ConfigDriveTooLargeError(`configdrive is ${size} bytes, over the ${max} byte limit`);
    return await fsp.readFile(iso);
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** gzip + base64, the form Ironic stores in instance_info.configdrive. */
export function encodeConfigDrive(iso: Buffer): string {
  return zlib.gzipSync(iso).toString('base64');
}

/**
 * base64 -> bytes, gunzipped with an output cap (decompression bombs).
 * Content that is not gzip is taken as a raw ISO, as the agent does.
 */
export function decodeConfigDrive(encoded: string, maxSize = MAX_CONFIGDRIVE_SIZE): Buffer {
  const raw = Buffer.from(encoded.replace(/\s+/g, ''), 'base64');
  if (raw.length === 0) throw new ConfigDriveError('configdrive is empty or not base64');
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) {
    if (raw.length > maxSize) throw new ConfigDriveTooLargeError(`configdrive exceeds ${maxSize} bytes`);
    return raw;
  }
  try {
    return zlib.gunzipSync(raw, { maxOutputLength: maxSize });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new ConfigDriveTooLargeError(`configdrive decompresses to more than ${maxSize} bytes`);
    }
    throw new ConfigDriveError(`configdrive is not valid gzip: ${(err as Error).message}`);
  }
}

/** Dict -> gzipped base64 ISO, as conductor utils.build_configdrive does. */
export async function buildConfigDrive(dict: ConfigDriveDict, node: { uuid: string; name?: string | null }, opts: BuildOptions = {}): Promise<string> {
  return encodeConfigDrive(await buildConfigDriveIso(withNodeDefaults(dict, node), opts));
}

/** What the deploy step needs: URLs and encoded strings pass unchanged; dicts are built. */
export async function getConfigDriveImage(input: ConfigDriveInput, node: { uuid: string; name?: string | null }, opts: BuildOptions = {}): Promise<string> {
  const form = classifyConfigDrive(input);
  if (form.kind === 'dict') return buildConfigDrive(form.dict, node, opts);
  return form.kind === 'url' ? form.url : form.data;
}

/** Downloads a configdrive URL (gzip+base64 content) and returns the ISO bytes. */
export async function fetchConfigDrive(url: string, maxSize = MAX_CONFIGDRIVE_SIZE): Promise<Buffer> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new ConfigDriveError(`cannot fetch configdrive from ${url}: HTTP ${res.status}`);
  // base64 of gzip of at most maxSize bytes is bounded too; cap the download.
  const cap = Math.ceil((maxSize * 4) / 3) + 4096;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += chunk.length;
    if (total > cap) throw new ConfigDriveTooLargeError(`configdrive at ${url} exceeds the size limit`);
    chunks.push(Buffer.from(chunk));
  }
  return decodeConfigDrive(Buffer.concat(chunks).toString('latin1'), maxSize);
}
