/** What every conductor component shares: identity, config, database, drivers and the worker pool. */
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import type { DriverFactory } from '../drivers/driver-factory';
import type { WorkerPool } from './worker-pool';

export interface ConductorContext {
  readonly host: string;
  readonly conf: Config;
  readonly db: Database;
  readonly driverFactory: DriverFactory;
  readonly pool: WorkerPool;
  /** conductors.id of this service once registered (node.conductor_affinity). */
  conductorId: number | null;
}
