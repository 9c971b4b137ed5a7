/**
 * The config drive Nova's ironic driver hands Ironic (driver._generate_configdrive): the files
 * InstanceMetadata.metadata_for_config_drive yields, laid out by ConfigDriveBuilder in an ISO 9660
 * volume labelled `config-2` (genisoimage with Nova's arguments), gzipped and base64-encoded.
 *   ec2/<2009-04-04|latest>/meta-data.json [+ user-data]
 *   openstack/<version>/meta_data.json [+ user_data], vendor_data.json (2013-10-17+),
 *     network_data.json (2015-10-15+), vendor_data2.json (2016-10-06+)
 *   openstack/content/NNNN (injected files)
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { pythonJsonDumps } from '../common/python/json-dumps';
import { ComputeError } from './errors';
import { atLeast, EC2_VERSIONS, ec2MetaData, openstackMetaData, OPENSTACK_VERSIONS } from './metadata';
import type { NetworkMetadata } from './network-metadata';
import type { SpawnRequest } from './types';

const run = promisify(execFile);

const CONFIGDRIVE_LABEL = 'config-2';
/** Nova's CONFIGDRIVESIZE_BYTES. */
const MAX_SIZE = 64 * 1024 * 1024;

class ConfigDriveBuildError extends ComputeError {
  override readonly name = 'ConfigDriveBuildError';
}

/** (path inside the drive, bytes) in the order Nova yields them. */
type DriveFile = [string, Buffer];

function json(value: unknown): Buffer {
  return Buffer.from(pythonJsonDumps(value), 'utf8');
}

/** metadata_for_config_drive: every file of the drive. */
function configDriveFiles(req: SpawnRequest, network: NetworkMetadata | null): DriveFile[] {
  const files: DriveFile[] = [];
  const userData = req.userData === undefined ? undefined : Buffer.from(req.userData, 'utf8');
  const ec2 = ec2MetaData(req);
  for (const version of EC2_VERSIONS) {
    if (userData) files.push([`ec2/${version}/user-data`, userData]);
    files.push([`ec2/${version}/meta-data.json`, json(ec2)]);
  }
  for (const version of [...OPENSTACK_VERSIONS, 'latest']) {
    const dir = `openstack/${version}`;
    files.push([`${dir}/meta_data.json`, json(openstackMetaData(req, version))]);
    if (userData) files.push([`${dir}/user_data`, userData]);
    // [api]vendordata_providers defaults to StaticJSON with no file: an empty document.
    if (atLeast(version, '2013-10-17')) files.push([`${dir}/vendor_data.json`, json({})]);
    if (atLeast(version, '2015-10-15')) files.push([`${dir}/network_data.json`, json(network ?? {})]);
    if (atLeast(version, '2016-10-06')) files.push([`${dir}/vendor_data2.json`, json({ static: {} })]);
  }
  (req.files ?? []).forEach((f, i) => files.push([`openstack/content/${String(i).padStart(4, '0')}`, Buffer.from(f.contents)]));
  return files;
}

const MKISOFS_ARGS = ['-ldots', '-allow-lowercase', '-allow-multidot', '-l', '-publisher', 'ironic-ts compute', '-quiet', '-J', '-r', '-V', CONFIGDRIVE_LABEL];

/** genisoimage as Nova's default mkisofs_cmd, xorriso's mkisofs emulation when it is absent. */
async function packIso(dir: string, out: string): Promise<void> {
  const errors: string[] = [];
  for (const [cmd, pre] of [['genisoimage', []], ['xorriso', ['-as', 'mkisofs']]] as const) {
    try {
      await run(cmd, [...pre, '-o', out, ...MKISOFS_ARGS, dir], { maxBuffer: 4 * 1024 * 1024 });
      return;
    } catch (err) {
      errors.push(`${cmd}: ${(err as Error).message}`);
    }
  }
  throw new ConfigDriveBuildError(`Failed to build configdrive: ${errors.join('; ')}`);
}

/** The raw ISO image of the files. */
async function packConfigDrive(files: DriveFile[]): Promise<Buffer> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'compute-configdrive-'));
  try {
    const tree = path.join(work, 'tree');
    for (const [rel, data] of files) {
      const target = path.join(tree, rel);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, data);
    }
    const iso = path.join(work, 'configdrive.iso');
    await packIso(tree, iso);
    const image = await fsp.readFile(iso);
    if (image.length > MAX_SIZE) throw new ConfigDriveBuildError(`configdrive is ${image.length} bytes, over ${MAX_SIZE}`);
    return image;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** base64(gzip(ISO)): the `configdrive` value of the provision request. */
export async function buildInstanceConfigDrive(req: SpawnRequest, network: NetworkMetadata | null): Promise<string> {
  return zlib.gzipSync(await packConfigDrive(configDriveFiles(req, network))).toString('base64');
}
