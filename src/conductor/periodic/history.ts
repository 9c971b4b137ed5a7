/** _manage_node_history: keep node_history within [conductor]node_history_max_entries per node. */
import type { Config } from '../../conf/config';
import type { Database } from '../../db/connection';
import { trimHistory } from '../../db/repositories/conductor-history-queries';

export async function manageNodeHistory(conf: Config, db: Database): Promise<number> {
  return trimHistory(db, conf.int('conductor', 'node_history_max_entries'),
    conf.int('conductor', 'node_history_minimum_days'), conf.int('conductor', 'node_history_cleanup_batch_count'));
}
