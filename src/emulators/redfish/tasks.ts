// Asynchronous operations of the emulated BMC: Redfish Tasks and their task monitors.

import { RedfishObject } from './messages';

type TaskState = 'New' | 'Running' | 'Completed' | 'Exception';

interface TaskMessage {
  messageId: string;
  message: string;
  severity: 'OK' | 'Warning' | 'Critical';
}

export interface EmulatedTask {
  id: string;
  name: string;
  state: TaskState;
  status: 'OK' | 'Warning' | 'Critical';
  percent: number;
  startTime: string;
  endTime: string | null;
  messages: TaskMessage[];
}

export const TASKS_PATH = '/redfish/v1/TaskService/Tasks';
export const MONITORS_PATH = '/redfish/v1/TaskService/TaskMonitors';

/** What a task does when its time is up: returns the outcome message or throws to fail the task. */
type TaskWork = () => string;

export class TaskStore {
  readonly tasks = new Map<string, EmulatedTask>();
  private nextId = 1;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly durationMs: () => number) {}

  start(name: string, work: TaskWork): EmulatedTask {
    const task: EmulatedTask = {
      id: String(this.nextId++),
      name,
      state: 'Running',
      status: 'OK',
      percent: 0,
      startTime: new Date().toISOString(),
      endTime: null,
      messages: [],
    };
    this.tasks.set(task.id, task);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      finish(task, work);
    }, Math.max(0, this.durationMs()));
    this.timers.add(timer);
    return task;
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function finish(task: EmulatedTask, work: TaskWork): void {
  task.endTime = new Date().toISOString();
  task.percent = 100;
  try {
    const message = work();
    task.state = 'Completed';
    task.messages.push({ messageId: 'Base.1.8.Success', message, severity: 'OK' });
  } catch (err) {
    task.state = 'Exception';
    task.status = 'Critical';
    const message = err instanceof Error ? err.message : String(err);
    task.messages.push({ messageId: 'Base.1.8.GeneralError', message, severity: 'Critical' });
  }
}

export function isTaskRunning(task: EmulatedTask): boolean {
  return task.state === 'New' || task.state === 'Running';
}

export function taskJson(task: EmulatedTask): RedfishObject {
  return {
    '@odata.id': `${TASKS_PATH}/${task.id}`,
    '@odata.type': '#Task.v1_4_3.Task',
    Id: task.id,
    Name: task.name,
    TaskState: task.state,
    TaskStatus: task.status,
    PercentComplete: task.percent,
    StartTime: task.startTime,
    ...(task.endTime ? { EndTime: task.endTime } : {}),
    TaskMonitor: `${MONITORS_PATH}/${task.id}`,
    Messages: task.messages.map((m) => ({
      '@odata.type': '#Message.v1_1_1.Message',
      MessageId: m.messageId,
      Message: m.message,
      Severity: m.severity,
      MessageArgs: [],
    })),
  };
}
