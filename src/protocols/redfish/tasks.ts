// Asynchronous Redfish operations: a 202 Accepted names a task monitor (Location) which answers 202
// while the work runs. Some BMCs instead point at the Task itself, which answers 200 with a running
// TaskState; both are polled until a final state or the deadline.

import { RedfishConnection } from './connection';
import { RedfishResponse } from './responses';
import { RedfishInvalidResponseError, RedfishMessage, RedfishNotFoundError, RedfishTaskError, RedfishTaskTimeoutError } from './errors';
import { RedfishObject, parseMessages, stringField } from './json';
import { setTimeout as sleep } from 'node:timers/promises';

export interface TaskResult {
  /** Final TaskState, or "Unknown" when the BMC dropped the task before we saw it finish. */
  taskState: string;
  taskStatus: string | null;
  percentComplete: number | null;
  messages: RedfishMessage[];
  /** The last task document, when there was one. */
  task: RedfishObject | null;
}

export interface WaitOptions {
  timeoutMs: number;
  pollIntervalMs?: number;
}

const RUNNING_STATES = new Set(['New', 'Starting', 'Running', 'Pending', 'Suspended', 'Stopping', 'Interrupted', 'Service', 'Cancelling']);
const FAILED_STATES = new Set(['Exception', 'Killed', 'Cancelled']);

/** The monitor URI named by a 202 reply: Location, else the body's TaskMonitor or @odata.id. */
export function taskMonitorOf(res: RedfishResponse): string {
  const location = res.headers.location;
  if (typeof location === 'string' && location !== '') return location;
  const fromBody = res.json ? stringField(res.json, 'TaskMonitor') ?? stringField(res.json, '@odata.id') : null;
  if (fromBody) return fromBody;
  throw new RedfishInvalidResponseError(`HTTP 202 from ${res.url} names no task monitor`, res.url);
}

export async function waitForTask(conn: RedfishConnection, monitorUri: string, opts: WaitOptions): Promise<TaskResult> {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.pollIntervalMs ?? 1000;
  for (;;) {
    let res: RedfishResponse;
    try {
      res = await conn.request('GET', monitorUri);
    } catch (err) {
      // Ironic treats a task the BMC already deleted as finished, outcome unknown.
      if (err instanceof RedfishNotFoundError) return { taskState: 'Unknown', taskStatus: null, percentComplete: null, messages: [], task: null };
      throw err;
    }
    const result = readTask(res.json);
    if (res.status !== 202 && !RUNNING_STATES.has(result.taskState)) return finished(monitorUri, result);
    const wait = Math.min(retryAfterMs(res) ?? interval, interval * 10);
    if (Date.now() + wait > deadline) throw new RedfishTaskTimeoutError(monitorUri, opts.timeoutMs);
    await sleep(wait);
  }
}

/**
 * One look at a task monitor (sushy's TaskMonitor.is_processing, then get_task): `processing` while it
 * answers 202 or a running state, `gone` when the BMC no longer knows it, else the task as it ended.
 */
export async function pollTask(conn: RedfishConnection, monitorUri: string): Promise<TaskResult | 'processing' | 'gone'> {
  let res: RedfishResponse;
  try {
    res = await conn.request('GET', monitorUri);
  } catch (err) {
    if (err instanceof RedfishNotFoundError) return 'gone';
    throw err;
  }
  const result = readTask(res.json);
  return res.status === 202 || RUNNING_STATES.has(result.taskState) ? 'processing' : result;
}

function finished(monitorUri: string, result: TaskResult): TaskResult {
  if (FAILED_STATES.has(result.taskState)) throw new RedfishTaskError(monitorUri, result.taskState, result.messages);
  return result;
}

function readTask(json: RedfishObject | null): TaskResult {
  if (!json) return { taskState: 'Completed', taskStatus: null, percentComplete: null, messages: [], task: null };
  const percent = json.PercentComplete;
  return {
    taskState: stringField(json, 'TaskState') ?? 'Completed',
    taskStatus: stringField(json, 'TaskStatus'),
    percentComplete: typeof percent === 'number' ? percent : null,
    messages: parseMessages(json.Messages),
    task: json,
  };
}

function retryAfterMs(res: RedfishResponse): number | null {
  const header = res.headers['retry-after'];
  if (typeof header !== 'string') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}
