/**
 * The ramdisk's system logs kept after a deploy, clean or service step (driver_utils
 * collect_ramdisk_logs / store_ramdisk_logs): the agent's log.collect_system_logs answers a
 * base64 gzipped tarball, stored as <uuid>[_<name>][_<instance>][_<label>]_<Y-m-d-H-M-S>.tar.gz in
 * [agent]deploy_logs_local_path. [agent]deploy_logs_collect says when: `always` (also after a
 * successful deploy or cleaning), `on_failure`, or `never`. The collection never fails the flow.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { IronicError } from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import type { DriverTask } from '../base';
import type { AgentClient } from './client';

type CollectWhen = 'always' | 'on_failure' | 'never';

export function deployLogsCollect(conf: Config): CollectWhen {
  return conf.str('agent', 'deploy_logs_collect') as CollectWhen;
}

/** get_ramdisk_logs_file_name: the node's uuid, name, instance and label, then the UTC time. */
export function ramdiskLogsFileName(node: DriverTask['node'], label: string | null, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace('T', '-').replace(/:/g, '-');
  const fields = [node.uuid, node.name, node.instance_uuid, label].filter((f): f is string => Boolean(f));
  return `${[...fields, stamp].join('_')}.tar.gz`;
}

/** store_ramdisk_logs: the decoded tarball written under its name ([agent]deploy_logs_storage_backend). */
async function storeRamdiskLogs(task: DriverTask, logs: string, label: string | null): Promise<void> {
  const conf = task.ctx.conf;
  if (deployLogsCollect(conf) === 'never') {
    log.info('Ramdisk logs will not be stored as the configuration option `agent.deploy_logs_collect` is set to `never`.');
    return;
  }
  const backend = conf.str('agent', 'deploy_logs_storage_backend');
  if (backend !== 'local') {
    // ironic-ts has no Swift object writer: the logs are not kept rather than kept elsewhere.
    log.error(`Failed to store the logs from the node ${task.node.uuid} deployment in Swift. ` +
      'Error: the swift logs storage backend is not supported by ironic-ts');
    return;
  }
  const dir = conf.str('agent', 'deploy_logs_local_path');
  await fsp.mkdir(dir, { recursive: true });
  // The logs repeat what the agent was told and did: readable by the conductor's user only.
  await fsp.writeFile(path.join(dir, ramdiskLogsFileName(task.node, label)), Buffer.from(logs, 'base64'), { mode: 0o600 });
  log.info(`Ramdisk logs were stored in local storage for node ${task.node.uuid}`);
}

/**
 * collect_ramdisk_logs(node, label): asks the agent for its logs and stores them; every failure is
 * logged and swallowed, as the flow that called it goes on (usually to its error handler).
 */
export async function collectRamdiskLogs(task: DriverTask, client: AgentClient, label: string | null = null): Promise<void> {
  const node = task.node;
  if (deployLogsCollect(task.ctx.conf) === 'never') return;
  let result: Record<string, unknown>;
  try {
    result = await client.collectSystemLogs(node) as unknown as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof IronicError)) throw err;
    log.error(`Failed to invoke collect_system_logs agent command for node ${node.uuid}. Error: ${err.message}`);
    return;
  }
  if (result.faultstring !== undefined && result.faultstring !== null) {
    log.error(`Failed to collect logs from the node ${node.uuid} deployment. Error: ${String(result.faultstring)}`);
    return;
  }
  const logs = ((result.command_result ?? {}) as Record<string, unknown>).system_logs;
  try {
    await storeRamdiskLogs(task, typeof logs === 'string' ? logs : '', label);
  } catch (err) {
    log.error(`Failed to store the logs from the node ${node.uuid} deployment due a file-system related error. ` +
      `Error: ${(err as Error).message}`);
  }
}
