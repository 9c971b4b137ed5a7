/** What the API layer is handed at start-up: configuration, the database, and the conductor RPC API. */
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import type { ConductorApi } from '../rpc/conductor-api';

export interface ApiDeps {
  conf: Config;
  db: Database;
  conductor: ConductorApi;
  /** Highest minor version served (after pin_release_version). */
  maxMinor: number;
}
