/**
 * The change feed: one reader per API process polls the database for node changes and fans them
 * out. It compares each changed row with the copy it keeps of every node's watched fields, so it
 * sees whatever wrote the row: a conductor in this process, one reached over AMQP or JSON-RPC on
 * another host, or a Python Ironic conductor on the same database.
 *
 * Each poll reads the nodes whose updated_at or created_at is at most `slack` older than the
 * newest stamp seen (a write committed late, or a conductor whose clock lags, is still found), new
 * node_history rows by id, and COUNT(*) to notice deletions (then the ids are compared). A full
 * comparison every `resync` seconds catches anything the window missed.
 */
import type { Database } from '../db/connection';
import { decodeDate, encodeDate } from '../db/codec';
import { log } from '../common/log';
import { diffNode, type NodeEvent, type NodeView } from './node-events';

interface FeedTiming {
  pollMs: number;
  slackMs: number;
  resyncMs: number;
}

const NODE_COLUMNS = ['id', 'uuid', 'name', 'provision_state', 'target_provision_state', 'power_state', 'target_power_state',
  'maintenance', 'maintenance_reason', 'last_error', 'owner', 'lessee', 'conductor_group', 'driver', 'resource_class',
  'created_at', 'updated_at'] as const;

type NodeRow = Record<typeof NODE_COLUMNS[number], unknown>;

interface HistoryRow {
  id: number;
  node_id: number;
  event: string | null;
  event_type: string | null;
  severity: string | null;
  created_at: unknown;
  user: string | null;
}

const HISTORY_BATCH = 1000;

function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function isoOf(value: unknown): string | null {
  return decodeDate(value)?.toISOString() ?? null;
}

function viewOf(row: NodeRow): NodeView {
  return {
    uuid: String(row.uuid), name: str(row.name), provision_state: str(row.provision_state),
    target_provision_state: str(row.target_provision_state), power_state: str(row.power_state),
    target_power_state: str(row.target_power_state), maintenance: Boolean(Number(row.maintenance)),
    maintenance_reason: str(row.maintenance_reason), last_error: str(row.last_error), owner: str(row.owner),
    lessee: str(row.lessee), conductor_group: str(row.conductor_group) ?? '', driver: String(row.driver),
    resource_class: str(row.resource_class), updated_at: isoOf(row.updated_at),
  };
}

function stampOf(row: NodeRow): number {
  return Math.max(decodeDate(row.updated_at)?.getTime() ?? 0, decodeDate(row.created_at)?.getTime() ?? 0);
}

export class ChangeFeed {
  private readonly nodes = new Map<number, NodeView>();
  private newest = 0;
  private lastHistoryId = 0;
  private lastResync = 0;
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly db: Database, private readonly timing: FeedTiming,
    private readonly emit: (events: NodeEvent[]) => void) {}

  /** Reads every node once (no events for what already exists), then polls until stop(). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const history = await this.db.knex('node_history').max({ id: 'id' }).first() as { id: number | null } | undefined;
    this.lastHistoryId = Number(history?.id ?? 0);
    this.absorb(await this.readNodes(null), false);
    this.lastResync = Date.now();
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nodes.clear();
    this.newest = 0;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.poll().catch((err: unknown) => log.warning(`Dashboard change feed: ${(err as Error).message}`))
        .finally(() => this.schedule());
    }, this.timing.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const full = Date.now() - this.lastResync >= this.timing.resyncMs;
    const since = full || this.newest === 0 ? null : this.newest - this.timing.slackMs;
    const rows = await this.readNodes(since);
    if (!this.running) return;
    const events = this.absorb(rows, true);
    if (full) this.lastResync = Date.now();
    events.push(...await this.deletions(full ? rows : null));
    events.push(...await this.history());
    if (events.length && this.running) this.emit(events);
  }

  private async readNodes(since: number | null): Promise<NodeRow[]> {
    const query = this.db.knex('nodes').select(...NODE_COLUMNS);
    if (since !== null) {
      const stamp = encodeDate(new Date(since), this.db.dialect);
      query.where('updated_at', '>=', stamp).orWhere('created_at', '>=', stamp);
    }
    return await query as NodeRow[];
  }

  /** Takes rows into the copy; with `announce`, returns the events their changes make. */
  private absorb(rows: NodeRow[], announce: boolean): NodeEvent[] {
    const events: NodeEvent[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      const view = viewOf(row);
      const before = this.nodes.get(id);
      this.nodes.set(id, view);
      this.newest = Math.max(this.newest, stampOf(row));
      if (!announce) continue;
      if (!before) events.push({ type: 'created', node: view });
      else events.push(...diffNode(before, view));
    }
    return events;
  }

  /** Nodes gone from the table: found by a count first, by ids only when the count says so. */
  private async deletions(allRows: NodeRow[] | null): Promise<NodeEvent[]> {
    let ids: Set<number>;
    if (allRows) {
      ids = new Set(allRows.map((r) => Number(r.id)));
    } else {
      const counted = await this.db.knex('nodes').count({ n: '*' }).first() as { n: number | string } | undefined;
      if (Number(counted?.n ?? 0) === this.nodes.size) return [];
      ids = new Set((await this.db.knex('nodes').select('id') as { id: number }[]).map((r) => Number(r.id)));
    }
    const events: NodeEvent[] = [];
    for (const [id, view] of this.nodes) {
      if (ids.has(id)) continue;
      this.nodes.delete(id);
      events.push({ type: 'deleted', node: view });
    }
    return events;
  }

  private async history(): Promise<NodeEvent[]> {
    const rows = await this.db.knex('node_history')
      .select('id', 'node_id', 'event', 'event_type', 'severity', 'created_at', 'user')
      .where('id', '>', this.lastHistoryId).orderBy('id', 'asc').limit(HISTORY_BATCH) as HistoryRow[];
    const events: NodeEvent[] = [];
    for (const row of rows) {
      this.lastHistoryId = Math.max(this.lastHistoryId, Number(row.id));
      const node = this.nodes.get(Number(row.node_id));
      if (!node) continue;
      events.push({
        type: 'history', node,
        history: { event: row.event, event_type: row.event_type, severity: row.severity, created_at: isoOf(row.created_at), user: row.user },
      });
    }
    return events;
  }
}
