/**
 * A running conductor (conductor/base_manager.py init_host/del_host): registers itself with its
 * hardware interfaces, heartbeats, fails what it left stuck, runs the periodic tasks, and hands
 * out its local ConductorApi.
 */
import { MetricLogger } from '../metrics/ironic-metrics';
import type { Config } from '../conf/config';
import type { OptionName } from '../conf/registry';
import type { Database } from '../db/connection';
import { clearTargetPowerStateOf, releaseAllFor } from '../db/repositories/nodes';
import { registerConductor, touchConductor, unregisterConductor } from '../db/repositories/conductor-registry-queries';
import { conductorsHeartbeat } from '../db/heartbeats';
import { log } from '../common/log';
import type { ConductorApi } from '../rpc/conductor-api';
import { DriverFactory } from '../drivers/driver-factory';
import { startBootServers, type BootServers } from './boot-servers';
import { startIscsiCallbackListener } from './iscsi-callback';
import type { ConductorContext } from './context';
import { ConductorManager } from './manager';
import { queryFirmwareUpdateFailed, queryFirmwareUpdateStatus } from './periodic/firmware-updates';
import { manageNodeHistory } from './periodic/history';
import { PowerSync } from './periodic/power-sync';
import { PeriodicScheduler, PeriodicTask } from './periodic/scheduler';
import { checkOrphanNodes, failTransientStates, syncLocalState } from './periodic/takeover';
import {
  checkCleanwaitTimeouts, checkDeployTimeouts, checkInspectWaitTimeouts, checkRescuewaitTimeouts, checkServicewaitTimeouts,
} from './periodic/timeouts';
import { RingManager } from '../rpc/ring-manager';
import { WorkerPool } from './worker-pool';
import { startConsoles } from './console-restore';

export interface ConductorService {
  host: string;
  api: ConductorApi;
  manager: ConductorManager;
  rings: RingManager;
  powerSync: PowerSync;
  /** The built-in TFTP/HTTP boot servers this conductor hosts ([pxe]builtin_tftp_server, [deploy]builtin_http_server). */
  bootServers: BootServers;
  /** Runs every periodic task once now (tests, `ironic-conductor --once` style tooling). */
  runPeriodicOnce(): Promise<void>;
  stop(): Promise<void>;
}

const MANAGER_METRICS = new MetricLogger('ironic.conductor.manager');

/** Each periodic task timed as Ironic's ConductorManager._<name> (manage_node_history has no underscore). */
function timedPeriodic(task: PeriodicTask): PeriodicTask {
  const timer = task.name === 'manage_node_history' ? 'ConductorManager.manage_node_history' : `ConductorManager._${task.name}`;
  return { ...task, run: () => MANAGER_METRICS.time(timer, task.run) };
}

function periodicTasks(conf: Config, db: Database, manager: ConductorManager, rings: RingManager, power: PowerSync): PeriodicTask[] {
  return untimedPeriodicTasks(conf, db, manager, rings, power).map(timedPeriodic);
}

function untimedPeriodicTasks(conf: Config, db: Database, manager: ConductorManager, rings: RingManager, power: PowerSync): PeriodicTask[] {
  const c = (name: OptionName<'conductor'>) => conf.int('conductor', name);
  const fw = conf.int('redfish', 'firmware_update_fail_interval');
  return [
    { name: 'sync_power_states', intervalSeconds: c('sync_power_state_interval'), run: () => power.syncPowerStates() },
    { name: 'power_failure_recovery', intervalSeconds: c('power_failure_recovery_interval'), run: () => power.powerFailureRecovery() },
    { name: 'check_deploy_timeouts', intervalSeconds: c('check_provision_state_interval'), run: () => checkDeployTimeouts(manager, rings) },
    { name: 'check_cleanwait_timeouts', intervalSeconds: c('check_provision_state_interval'), run: () => checkCleanwaitTimeouts(manager, rings) },
    { name: 'check_inspect_wait_timeouts', intervalSeconds: c('check_provision_state_interval'), run: () => checkInspectWaitTimeouts(manager, rings) },
    { name: 'check_servicewait_timeouts', intervalSeconds: c('check_provision_state_interval'), run: () => checkServicewaitTimeouts(manager, rings) },
    { name: 'check_rescuewait_timeouts', intervalSeconds: c('check_rescue_state_interval'), run: () => checkRescuewaitTimeouts(manager, rings) },
    { name: 'check_orphan_nodes', intervalSeconds: c('check_provision_state_interval'), run: () => checkOrphanNodes(manager, rings) },
    { name: 'sync_local_state', intervalSeconds: c('sync_local_state_interval'), run: () => syncLocalState(manager, rings) },
    { name: 'manage_node_history', intervalSeconds: c('node_history_cleanup_interval'), run: async () => { await manageNodeHistory(conf, db); } },
    // Ironic 2025.1 spaces both firmware checks by the fail interval.
    { name: 'query_firmware_update_status', intervalSeconds: fw, run: () => queryFirmwareUpdateStatus(manager, rings) },
    { name: 'query_firmware_update_failed', intervalSeconds: fw, run: () => queryFirmwareUpdateFailed(manager, rings) },
  ];
}

/** The rows this conductor registers; a configuration Ironic would refuse stops the start here. */
function hardwareInterfaceRows(driverFactory: DriverFactory, host: string): ReturnType<DriverFactory['conductorInterfaceRows']> {
  try {
    return driverFactory.conductorInterfaceRows(host);
  } catch (err) {
    log.error(`Failed to register hardware types. ${(err as Error).message}`);
    throw err;
  }
}

export async function startConductorService(opts: { conf: Config; db: Database }): Promise<ConductorService> {
  const { conf, db } = opts;
  const host = conf.str('DEFAULT', 'host');
  const driverFactory = new DriverFactory(conf);
  const interfaceRows = hardwareInterfaceRows(driverFactory, host);
  const bootServers = await startBootServers(conf);
  const ctx: ConductorContext = {
    host, conf, db, driverFactory, pool: new WorkerPool(conf.int('conductor', 'workers_pool_size')), conductorId: null,
  };
  // A restarted conductor owns nothing: drop its stale locks and pending power operations first.
  await clearTargetPowerStateOf(db, host, 'Pending power operation was aborted due to conductor restart');
  await releaseAllFor(db, host);
  ctx.conductorId = await registerConductor(db, host, conf.str('conductor', 'conductor_group'),
    driverFactory.hardwareTypeNames, interfaceRows);
  const rings = new RingManager(conf, db);
  const manager = new ConductorManager(ctx, rings);
  const powerSync = new PowerSync(manager, rings);
  const iscsiListener = await startIscsiCallbackListener(conf, manager.tasks);
  await failTransientStates(manager, rings);

  const heartbeat = conductorsHeartbeat(db) ? setInterval(() => {
    touchConductor(db, host).catch((err: unknown) => log.error(`Conductor heartbeat failed: ${(err as Error).message}`));
  }, Math.max(1, conf.int('conductor', 'heartbeat_interval')) * 1000) : undefined;
  heartbeat?.unref();
  const tasks = periodicTasks(conf, db, manager, rings, powerSync);
  const scheduler = new PeriodicScheduler();
  scheduler.start(tasks);
  log.info(`Conductor ${host} started`);
  // As Ironic spawns _start_consoles: the conductor serves while consoles come back.
  startConsoles(manager, rings).catch((err: unknown) => log.error(`Starting the consoles failed: ${(err as Error).message}`));

  let stopped = false;
  return {
    host, api: manager, manager, rings, powerSync, bootServers,
    async runPeriodicOnce() {
      for (const t of tasks) await t.run();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      await scheduler.stop();
      await ctx.pool.drain();
      await unregisterConductor(db, host);
      await bootServers.stop();
      await iscsiListener?.close();
      await releaseAllFor(db, host);
      log.info(`Conductor ${host} stopped`);
    },
  };
}
