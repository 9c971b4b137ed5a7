/**
 * The config drive Nova's InstanceMetadata writes, reduced to the OpenStack format:
 * meta_data.json (uuid, name, hostname, public_keys, files, admin_pass...), network_data.json and
 * user_data. Injected files go in as `files: [{path, content_path}]` with the bytes under
 * openstack/content/, which the shared ISO builder cannot lay out, so we list them in meta_data and
 * hand their contents to the deploy via extra_data instead.
 */
import { buildConfigDriveIso, encodeConfigDrive, ConfigDriveDict } from '../images/configdrive';
import type { InjectedFile, SpawnRequest } from './types';

export function hostnameOf(name: string): string {
  const h = name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);
  return h || 'server';
}

export function metaData(req: SpawnRequest): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    uuid: req.instanceUuid,
    name: req.name,
    hostname: req.hostname ?? hostnameOf(req.name),
    launch_index: 0,
    availability_zone: 'nova',
    project_id: req.projectId ?? null,
    files: (req.files ?? []).map((f, i) => ({ path: f.path, content_path: `/content/${String(i).padStart(4, '0')}` })),
  };
  if (req.sshKey) {
    meta.public_keys = { default: req.sshKey };
    meta.keys = [{ name: 'default', type: 'ssh', data: req.sshKey }];
  }
  if (req.adminPass) meta.admin_pass = req.adminPass;
  return meta;
}

export function configDriveDict(req: SpawnRequest): ConfigDriveDict {
  const dict: ConfigDriveDict = { meta_data: metaData(req) };
  if (req.network?.networkData) dict.network_data = req.network.networkData;
  if (req.userData) dict.user_data = req.userData;
  return dict;
}

/** gzip+base64 ISO, the string Nova puts in `configdrive`. */
export async function buildInstanceConfigDrive(req: SpawnRequest): Promise<string> {
  return encodeConfigDrive(await buildConfigDriveIso(configDriveDict(req)));
}

export function filesForExtraData(files: InjectedFile[]): Array<{ path: string; contents: string }> {
  return files.map((f) => ({ path: f.path, contents: Buffer.from(f.contents).toString('base64') }));
}
