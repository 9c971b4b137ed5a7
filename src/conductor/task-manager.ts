/**
 * Node locking (conductor/task_manager.py): exclusive locks are the node's `reservation` column
 * taken atomically in the database, retried node_locked_retry_attempts times; shared locks take
 * nothing. `run` gives Ironic's `with acquire(...) as task: ... task.spawn_after(...)` shape.
 */
import { observeConductorTask } from '../metrics/prometheus';
import { NodeLocked } from '../common/errors';
import { log, withLogContext } from '../common/log';
import { NodeLockedError } from '../db/errors';
import type { NodeRecord } from '../db/models';
import * as nodes from '../db/repositories/nodes';
import { portgroupsOfNode, portsOfNode } from '../db/repositories/conductor-port-queries';
import * as volumeConnectors from '../db/repositories/volume-connectors';
import * as volumeTargets from '../db/repositories/volume-targets';
import type { ConductorContext } from './context';
import { PowerAction, Task } from './task';
import { setTimeout as sleep } from 'node:timers/promises';

export interface AcquireOptions {
  shared?: boolean;
  purpose?: string;
  /** Retry a held lock ([conductor]node_locked_retry_*); periodic tasks pass false. */
  retry?: boolean;
  /** Build the driver now (validating interfaces); node update/deletion skip it. */
  loadDriver?: boolean;
}


export class TaskManager {
  constructor(private readonly ctx: ConductorContext, private readonly nodePowerAction: PowerAction) {}

  async acquire(ident: string | number, opts: AcquireOptions = {}): Promise<Task> {
    const shared = opts.shared ?? false;
    let node = await nodes.find(this.ctx.db, ident);
    if (!shared) node = await this.reserve(node.id, node.uuid, opts.retry ?? true);
    const task = new Task(this.ctx, node, [], [], null, shared, opts.purpose ?? 'unspecified', this.nodePowerAction,
      (ident, purpose, fn) => this.run(ident, { purpose }, fn));
    try {
      task.ports = await portsOfNode(this.ctx.db, node.id);
      task.portgroups = await portgroupsOfNode(this.ctx.db, node.id);
      task.volumeConnectors = await volumeConnectors.list(this.ctx.db, { node_id: node.id });
      task.volumeTargets = await volumeTargets.list(this.ctx.db, { node_id: node.id });
      if (opts.loadDriver ?? true) void task.driver;
    } catch (err) {
      await this.release(task);
      throw err;
    }
    return task;
  }

  /** Takes the reservation, retrying a held one; returns the node as reserved. */
  private async reserve(nodeId: number, uuid: string, retry: boolean): Promise<NodeRecord> {
    const attempts = retry ? Math.max(1, this.ctx.conf.int('conductor', 'node_locked_retry_attempts')) : 1;
    const interval = this.ctx.conf.int('conductor', 'node_locked_retry_interval');
    let holder: string | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await nodes.reserve(this.ctx.db, nodeId, this.ctx.host);
      } catch (err) {
        if (!(err instanceof NodeLockedError)) throw err;
        holder = err.host;
      }
      if (attempt < attempts) await sleep(interval * 1000);
    }
    throw new NodeLocked({ node: uuid, host: holder });
  }

  /** Upgrades a shared task to an exclusive lock in place (task.upgrade_lock). */
  async upgrade(task: Task, retry = true): Promise<void> {
    if (!task.shared) return;
    await this.reserve(task.node.id, task.node.uuid, retry);
    task.shared = false;
    const ports = task.ports;
    await task.refresh();
    task.ports = ports;
  }

  async release(task: Task): Promise<void> {
    if (task.released) return;
    task.released = true;
    if (task.shared) return;
    try {
      await nodes.release(this.ctx.db, task.node.id, this.ctx.host);
    } catch (err) {
      // Gone or no longer ours (taken over, cleared at shutdown): nothing left to release.
      if (nodes.isReleaseRefused(err)) return;
      log.warning(`Failed to release lock on node ${task.node.uuid}: ${(err as Error).message}`);
    }
  }

  /**
   * Holds the node for `fn`. If `fn` scheduled work (task.spawnAfter / processEvent with spawn),
   * that work starts once `fn` has returned and keeps the lock until it ends; a full worker pool
   * runs the spawn error hook, releases the lock and throws NoFreeConductorWorker.
   */
  async run<T>(ident: string | number, opts: AcquireOptions, fn: (task: Task) => Promise<T>): Promise<T> {
    const task = await this.acquire(ident, opts);
    const started = performance.now();
    const finish = async (): Promise<void> => {
      await this.release(task);
      observeConductorTask(task.purpose, (performance.now() - started) / 1000);
    };
    // Lines logged while the node is held, by `fn` and the work it spawns, name the node.
    const aboutNode = <R>(run: () => Promise<R>): Promise<R> => withLogContext({ nodeUuid: task.node.uuid }, run);
    let result: T;
    try {
      result = await aboutNode(() => fn(task));
    } catch (err) {
      await finish();
      throw err;
    }
    const work = task.spawnWork;
    if (!work) {
      await finish();
      return result;
    }
    try {
      this.ctx.pool.submit(async () => {
        try {
          await aboutNode(() => work(task));
        } finally {
          await finish();
        }
      }, `${task.purpose} on ${task.node.uuid}`);
      task.pendingNotification?.();
      task.pendingNotification = null;
    } catch (err) {
      try {
        if (task.spawnErrorHook) await task.spawnErrorHook(err as Error, task);
      } finally {
        await finish();
      }
      throw err;
    }
    return result;
  }
}
