/**
 * Publishing a remote image for a BMC to fetch (drivers/modules/image_utils.py prepare_remote_image
 * / cleanup_remote_image with its ImageHandler): the image is downloaded and served from the
 * conductor's HTTP server, [deploy]http_root/<subdir>/<file>. Only the drivers Ironic has a
 * publisher for may publish; ironic-ts has one of them, redfish. Swift publishing
 * ([redfish]use_swift) is not available here: images are always served locally.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { UnsupportedDriverExtension } from '../common/errors';
import { downloadTo } from '../images/download';
import type { DriverTask } from './base';

/** The drivers with a publisher (ImageHandler's map) and their folder under http_root. */
const IMAGE_SUBDIRS: ReadonlyMap<string, string> = new Map([['redfish', 'redfish']]);

function subdirOf(task: DriverTask): string | undefined {
  return task.node.driver === null ? undefined : IMAGE_SUBDIRS.get(task.node.driver);
}

function publishDir(task: DriverTask): string {
  const subdir = subdirOf(task);
  if (subdir === undefined) {
    throw new UnsupportedDriverExtension(`Publishing images is not supported for driver ${task.node.driver}`);
  }
  return path.join(task.ctx.conf.str('deploy', 'http_root'), subdir);
}

/** The URL the BMC is given: the node's external_http_url, else [deploy]external_http_url or http_url. */
function publicUrl(task: DriverTask, fileName: string): string {
  const nodeUrl = (task.node.driver_info ?? {}).external_http_url;
  const root = (typeof nodeUrl === 'string' && nodeUrl !== '' ? nodeUrl : null)
    ?? task.ctx.conf.optStr('deploy', 'external_http_url') ?? task.ctx.conf.str('deploy', 'http_url');
  return `${root.replace(/\/+$/, '')}/${subdirOf(task)}/${fileName}`;
}

/** Downloads `imageUrl` and serves it as `fileName`; returns the URL to hand the BMC. */
export async function publishRemoteImage(task: DriverTask, imageUrl: string, fileName: string): Promise<string> {
  const dir = publishDir(task);
  await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
  const dest = path.join(dir, fileName);
  const partial = `${dest}.part`;
  try {
    await downloadTo(imageUrl, partial, undefined, () => undefined);
    await fsp.rename(partial, dest);
  } finally {
    await fsp.rm(partial, { force: true });
  }
  return publicUrl(task, fileName);
}

/** Withdraws a file publishRemoteImage served (nothing when it is not there). */
export async function unpublishRemoteImage(task: DriverTask, fileName: string): Promise<void> {
  await fsp.rm(path.join(publishDir(task), fileName), { force: true });
}
