/**
 * The ramdisk's system logs kept after a deploy, clean or service step (driver_utils
 * collect_ramdisk_logs / store_ramdisk_logs): the agent's log.collect_system_logs answers a
 * base64 gzipped tarball, named <uuid>[_<name>][_<instance>][_<label>]_<Y-m-d-H-M-S>.tar.gz and
 * kept by [agent]deploy_logs_storage_backend: a file in [agent]deploy_logs_local_path (`local`) or
 * an object in [agent]deploy_logs_swift_container that expires (`swift`).
 * [agent]deploy_logs_collect says when: `always` (also after a successful deploy, cleaning or
 * servicing), `on_failure`, or `never`. The collection never fails the flow: every error is logged.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { IronicError, SwiftOperationError } from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import type { DriverTask } from '../base';
import { SwiftApi } from '../../common/swift/client';
import { AgentClient } from './client';

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

/** The local backend: the tarball under [agent]deploy_logs_local_path. */
async function storeLocally(conf: Config, name: string, data: Buffer): Promise<void> {
  const dir = conf.str('agent', 'deploy_logs_local_path');
  await fsp.mkdir(dir, { recursive: true });
  // The logs repeat what the agent was told and did: readable by the conductor's user only.
  await fsp.writeFile(path.join(dir, name), data, { mode: 0o600 });
}

/**
 * The swift backend: an object in [agent]deploy_logs_swift_container (created when missing) that
 * Swift deletes [agent]deploy_logs_swift_days_to_expire days later (X-Delete-After).
 */
async function storeInSwift(conf: Config, name: string, data: Buffer): Promise<void> {
  const seconds = conf.int('agent', 'deploy_logs_swift_days_to_expire') * 86400;
  const swift = await SwiftApi.connect(conf);
  await swift.createObject(conf.str('agent', 'deploy_logs_swift_container'), name, data, { 'X-Delete-After': String(seconds) });
}

/** store_ramdisk_logs: the decoded tarball kept under its name by [agent]deploy_logs_storage_backend. */
async function storeRamdiskLogs(task: DriverTask, logs: string, label: string | null): Promise<void> {
  const conf = task.ctx.conf;
  if (deployLogsCollect(conf) === 'never') {
    log.info('Ramdisk logs will not be stored as the configuration option `agent.deploy_logs_collect` is set to `never`.');
    return;
  }
  const name = ramdiskLogsFileName(task.node, label);
  const data = Buffer.from(logs, 'base64');
  if (conf.str('agent', 'deploy_logs_storage_backend') === 'swift') {
    await storeInSwift(conf, name, data);
    log.info(`Ramdisk logs were stored in swift for node ${task.node.uuid}`);
  } else {
    await storeLocally(conf, name, data);
    log.info(`Ramdisk logs were stored in local storage for node ${task.node.uuid}`);
  }
}

/** A Node.js system error (Python's EnvironmentError): it carries the failed syscall. */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/** collect_ramdisk_logs' handlers of a failed store: each kind of failure has its own message. */
function storeFailed(uuid: string, err: unknown): void {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof SwiftOperationError) {
    log.error(`Failed to store the logs from the node ${uuid} deployment in Swift. Error: ${text}`);
  } else if (isSystemError(err)) {
    log.error(`Failed to store the logs from the node ${uuid} deployment due a file-system related error. Error: ${text}`);
  } else {
    log.error(`Unknown error when storing logs from the node ${uuid} deployment. Error: ${text}`);
  }
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
  try {
    await storeRamdiskLogs(task, systemLogs(result), label);
  } catch (err) {
    storeFailed(node.uuid, err);
  }
}

/** result['command_result']['system_logs']; an answer without them fails as Python's KeyError would. */
function systemLogs(result: Record<string, unknown>): string {
  const commandResult = result.command_result;
  if (!commandResult || typeof commandResult !== 'object') throw new Error("'command_result'");
  const logs = (commandResult as Record<string, unknown>).system_logs;
  if (typeof logs !== 'string') throw new Error("'system_logs'");
  return logs;
}

/**
 * collect_ramdisk_logs as the conductor calls it at the end (or failure) of cleaning and
 * servicing, whatever the deploy interface: its own agent client, as Ironic's makes one.
 */
export async function collectAgentLogs(task: DriverTask, label: string): Promise<void> {
  await collectRamdiskLogs(task, new AgentClient(task.ctx.conf), label);
}
