/**
 * Where the BMC fetches a firmware image from (firmware.py _stage_firmware_file and
 * firmware_utils.download_to_temp / stage / cleanup): an HTTP(S) URL as given when
 * [redfish]firmware_source is http; otherwise the image is downloaded and served by the
 * conductor's HTTP server from [deploy]http_root/firmware/<node>/. Swift is not available in
 * ironic-ts: a swift source or URL is refused.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { InvalidParameterValue, RedfishError } from '../../common/errors';
import { log } from '../../common/log';
import { downloadTo } from '../../images/download';
import type { DriverTask } from '../base';

const FIRMWARE_SUBDIR = 'firmware';

/** urllib's scheme of a URL: lowercased, '' when there is none. */
function schemeOf(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return match ? match[1].toLowerCase() : '';
}

function stagedDir(task: DriverTask): string {
  return path.join(task.ctx.conf.str('deploy', 'http_root'), FIRMWARE_SUBDIR, task.node.uuid);
}

/** download_to_temp's sources: http, and file (swift is Ironic's third, unavailable here). */
async function download(task: DriverTask, url: string, dest: string): Promise<void> {
  const scheme = schemeOf(url);
  if (scheme === 'swift') throw new RedfishError({ error: `Firmware from Swift (${url}) is not supported by this conductor` });
  if (scheme !== 'http' && scheme !== 'file') throw new InvalidParameterValue(`${scheme} is not supported for ${url}.`);
  log.debug(`For node ${task.node.uuid} firmware at ${url} will be downloaded to ${dest}`);
  await downloadTo(url, dest, undefined, () => undefined);
}

/** The URL to give SimpleUpdate for one image, staging it under http_root when needed. */
export async function stageFirmware(task: DriverTask, url: string): Promise<string> {
  let scheme = schemeOf(url);
  const source = task.ctx.conf.str('redfish', 'firmware_source').toLowerCase();
  // TLS does not matter for the choice.
  if (scheme === 'https') scheme = 'http';
  if (scheme === 'http' && source === 'http') return url;
  if (source === 'swift') throw new RedfishError({ error: 'Staging firmware in Swift is not supported by this conductor' });
  const dir = stagedDir(task);
  await fsp.mkdir(dir, { recursive: true });
  const name = path.basename(new URL(url).pathname);
  await download(task, url, path.join(dir, name));
  const root = task.ctx.conf.optStr('deploy', 'external_http_url') ?? task.ctx.conf.str('deploy', 'http_url');
  // urljoin: a relative reference, resolved against the server's URL as Ironic resolves it.
  return new URL([FIRMWARE_SUBDIR, task.node.uuid, name].join('/'), root).href;
}

/** firmware_utils.cleanup: the node's staged images are removed once its updates are over. */
export async function cleanupStagedFirmware(task: DriverTask): Promise<void> {
  await fsp.rm(stagedDir(task), { recursive: true, force: true });
}
