/**
 * One node held by the conductor (task_manager.TaskManager): the node row with change tracking,
 * its ports and driver, the state machine, and the "spawn after" work that keeps the lock.
 */
import { ExclusiveLockRequired } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import type { NodeRecord, PortRecord, PortgroupRecord, VolumeConnectorRecord, VolumeTargetRecord } from '../db/models';
import { asIronicError } from '../db/faults';
import * as nodes from '../db/repositories/nodes';
import { insertHistory } from '../db/repositories/conductor-history-queries';
import { updatePortRow, updatePortgroupRow } from '../db/repositories/conductor-port-queries';
import type { ComposedDriver, DriverTask } from '../drivers/base';
import type { ConductorContext } from './context';
import { isStable, ProvisionMachine, statesOfKind } from './fsm';
import { notifyProvisionSet } from '../notifications/events';

const UNSTABLE = new Set(statesOfKind('unstable'));

type SpawnedWork = (task: Task) => Promise<void>;
/** Runs when spawning fails (no free worker): gets the error and the states before the event. */
type SpawnErrorHook = (err: Error, task: Task) => Promise<void>;

interface ProcessEventOptions {
  /** Work to run in the background once the caller returns, holding the lock. */
  spawn?: SpawnedWork;
  errHandler?: (err: Error, task: Task, prevState: string | null, prevTarget: string | null) => Promise<void>;
  targetState?: string | null;
  lastError?: string | null;
}

/** conductor/power.ts's node_power_action, as a Task runs it. */
export type PowerAction = (task: Task, newState: string, timeout?: number) => Promise<void>;

/** Holds another node exclusively for `fn` (task_manager.acquire of a child node), releasing it after. */
type HoldNode = <T>(ident: string, purpose: string, fn: (task: Task) => Promise<T>) => Promise<T>;

export class Task implements DriverTask {
  private original: NodeRecord;
  private provisionTouched = false;
  spawnWork: SpawnedWork | null = null;
  spawnErrorHook: SpawnErrorHook | null = null;
  released = false;
  /** The provision_set notification of an event whose work was spawned: sent once the work is handed over. */
  pendingNotification: (() => void) | null = null;
  extraData?: Record<string, unknown>;
  volumeConnectors: VolumeConnectorRecord[] = [];
  volumeTargets: VolumeTargetRecord[] = [];

  constructor(
    readonly ctx: ConductorContext,
    public node: NodeRecord,
    public ports: PortRecord[],
    public portgroups: PortgroupRecord[],
    private driverOrNull: ComposedDriver | null,
    public shared: boolean,
    readonly purpose: string,
    /** Injected: power.ts needs the Task type, so task.ts does not import it back. */
    private readonly nodePowerAction: PowerAction,
    /** Injected by the task manager, which imports this file. */
    readonly holdNode: HoldNode = () => Promise.reject(new Error('no task manager to hold another node')),
  ) {
    this.original = structuredClone(node);
  }

  get driver(): ComposedDriver {
    if (!this.driverOrNull) this.driverOrNull = this.ctx.driverFactory.buildDriver(this.node);
    return this.driverOrNull;
  }

  requireExclusive(): void {
    if (this.shared) throw new ExclusiveLockRequired();
  }

  /** Fields that differ from what was loaded/saved last. */
  changedFields(): Partial<NodeRecord> {
    const out: Record<string, unknown> = {};
    const now = this.node as unknown as Record<string, unknown>;
    const before = this.original as unknown as Record<string, unknown>;
    for (const key of Object.keys(now)) {
      if (key === 'reservation' || key === 'updated_at' || key === 'created_at' || key === 'id') continue;
      if (JSON.stringify(now[key]) !== JSON.stringify(before[key])) out[key] = now[key];
    }
    return out as Partial<NodeRecord>;
  }

  /** Writes the changed fields through the node repository, which adds Ironic's provision stamps. */
  async saveNode(): Promise<void> {
    const changes = this.changedFields();
    // Ironic's process_event always sets provision_state, so its save stamps provision_updated_at.
    if (this.provisionTouched) changes.provision_state = this.node.provision_state;
    this.provisionTouched = false;
    if (Object.keys(changes).length === 0) return;
    // Drivers and flows see Ironic's exceptions from a save, as from Ironic's Node.save().
    const written = await nodes.updateFields(this.ctx.db, this.original, changes)
      .catch((err: unknown) => { throw asIronicError(err); });
    // The task's node keeps the updated_at it was loaded with, as before the save.
    const stamps: Record<string, unknown> = { ...written };
    delete stamps.updated_at;
    Object.assign(this.node, stamps);
    this.original = structuredClone(this.node);
  }

  /** Reloads the node from the database, dropping unsaved changes. */
  async refresh(): Promise<void> {
    this.node = await nodes.find(this.ctx.db, this.node.id);
    this.original = structuredClone(this.node);
  }

  /** Drivers' node_power_action (conductor/power.ts, given to the TaskManager). */
  powerAction(newState: string, timeout?: number): Promise<void> {
    return this.nodePowerAction(this, newState, timeout);
  }

  async updatePort(port: PortRecord, changes: Partial<PortRecord>): Promise<void> {
    await updatePortRow(this.ctx.db, port.id, changes);
    Object.assign(port, changes);
  }

  async updatePortgroup(portgroup: PortgroupRecord, changes: Partial<PortgroupRecord>): Promise<void> {
    await updatePortgroupRow(this.ctx.db, portgroup.id, changes);
    Object.assign(portgroup, changes);
  }

  /**
   * Moves the node through the state machine exactly as TaskManager.process_event: the target
   * is cleared on a stable state without callback, last_error goes with the transition, and the
   * node is saved (which stamps provision_updated_at).
   */
  async processEvent(event: string, opts: ProcessEventOptions = {}): Promise<void> {
    const prevState = this.node.provision_state;
    const prevTarget = this.node.target_provision_state;
    const machine = new ProvisionMachine(prevState ?? states.ENROLL, prevTarget);
    machine.processEvent(event, opts.targetState);
    if (opts.spawn && opts.errHandler) {
      const handler = opts.errHandler;
      this.spawnErrorHook = (err, task) => handler(err, task, prevState, prevTarget);
    }
    this.node.provision_state = machine.current;
    this.node.target_provision_state = !opts.spawn && isStable(machine.current) ? null : machine.target;
    if (opts.spawn) {
      this.node.last_error = opts.lastError ?? null;
      this.spawnAfter(opts.spawn);
    } else if (opts.lastError !== undefined && opts.lastError !== null) {
      this.node.last_error = opts.lastError;
    }
    this.provisionTouched = true;
    await this.saveNode();
    const message = `Node ${this.node.uuid} moved to provision state "${machine.current}" from state "${prevState}"; ` +
      `target provision state is "${this.node.target_provision_state ?? 'None'}"`;
    if (machine.current.endsWith('failed') || machine.current === states.ERROR) log.error(message);
    else log.info(message);
    const notify = (): void => this.notifyProvisionChange(event, prevState, prevTarget);
    if (opts.spawn) this.pendingNotification = notify;
    else notify();
  }

  /** task_manager's _notify_provision_state_change: the status follows the move between stable and unstable states. */
  private notifyProvisionChange(event: string, prevState: string | null, prevTarget: string | null): void {
    const wasUnstable = prevState !== null && UNSTABLE.has(prevState);
    const isUnstable = UNSTABLE.has(this.node.provision_state ?? '');
    if (event === 'fail' || event === 'error') notifyProvisionSet(this, 'error', 'error', prevState, prevTarget, event);
    else if (!wasUnstable && isUnstable) notifyProvisionSet(this, 'info', 'start', prevState, prevTarget, event);
    else if (wasUnstable && !isUnstable) notifyProvisionSet(this, 'info', 'end', prevState, prevTarget, event);
    else notifyProvisionSet(this, 'info', 'success', prevState, prevTarget, event);
  }

  spawnAfter(work: SpawnedWork, errorHook?: SpawnErrorHook): void {
    this.spawnWork = work;
    if (errorHook) this.spawnErrorHook = errorHook;
  }

  /**
   * node_history_record: an error also becomes last_error (saved with the next save); the
   * history row is written at once when [conductor]node_history is on.
   */
  async recordHistory(event: string | null | undefined, eventType: string, error: boolean, user: string | null = null): Promise<void> {
    if (!event) return;
    if (error) this.node.last_error = event;
    if (!this.ctx.conf.bool('conductor', 'node_history')) return;
    await insertHistory(this.ctx.db, {
      nodeId: this.node.id, conductor: this.ctx.host, event, eventType: eventType || 'UNKNOWN',
      severity: error ? 'ERROR' : 'INFO', user,
    });
  }
}
