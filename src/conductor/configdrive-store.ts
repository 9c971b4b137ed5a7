/**
 * deployments._store_configdrive: the requested configdrive goes into instance_info, or, with
 * [deploy]configdrive_use_object_store, into Swift as `configdrive-<node uuid>` in
 * [conductor]configdrive_swift_container (a dict built first: Swift holds the gzipped, base64
 * ISO), instance_info then holding a temporary URL the agent downloads it from. The object
 * carries X-Delete-After of the URL's lifetime: Swift removes it once nobody can read it, which
 * is Ironic's only clean-up of it (tear down and rebuild leave it to expire; a rebuild overwrites it).
 */
import type { ConfigDriveInput } from '../images/configdrive';
import { getConfigDriveImage } from '../images/configdrive';
import { SwiftApi } from '../common/swift/client';
import type { Config } from '../conf/config';
import type { Task } from './task';

/** _get_configdrive_obj_name */
function configdriveObjectName(nodeUuid: string): string {
  return `configdrive-${nodeUuid}`;
}

/** No reason for a URL to outlive the deployment: the callback timeout unless a duration is set. */
export function configdriveTempUrlSeconds(conf: Config): number {
  const duration = conf.raw('conductor', 'configdrive_swift_temp_url_duration');
  if (typeof duration === 'number' && duration) return duration;
  return conf.int('conductor', 'deploy_callback_timeout') || 1800;
}

/** Uploads the configdrive and returns its temporary URL. */
async function uploadConfigdrive(task: Task, configdrive: ConfigDriveInput): Promise<string> {
  const data = typeof configdrive === 'string' ? configdrive : await getConfigDriveImage(configdrive, task.node);
  const seconds = configdriveTempUrlSeconds(task.ctx.conf);
  const container = task.ctx.conf.str('conductor', 'configdrive_swift_container');
  const name = configdriveObjectName(task.node.uuid);
  const swift = await SwiftApi.connect(task.ctx.conf);
  await swift.createObject(container, name, Buffer.from(data, 'utf8'), { 'X-Delete-After': String(seconds) });
  return swift.getTempUrl(container, name, seconds);
}

/** _store_configdrive: sets instance_info.configdrive (not saved here); Swift and Keystone errors propagate. */
export async function storeConfigdrive(task: Task, configdrive: ConfigDriveInput): Promise<void> {
  const stored = task.ctx.conf.bool('deploy', 'configdrive_use_object_store')
    ? await uploadConfigdrive(task, configdrive) : configdrive;
  task.node.instance_info = { ...(task.node.instance_info ?? {}), configdrive: stored };
}
