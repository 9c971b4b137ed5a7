/**
 * Fans the change feed out to the open streams: one feed and one flush timer per API process,
 * whatever the number of clients. The feed runs only while someone listens. Each event is
 * serialized once per variant (as stored, or with node_sanitize's redactions) and shared.
 */
import type { Database } from '../db/connection';
import { ChangeFeed } from './change-feed';
import type { NodeEvent } from './node-events';
import { log } from '../common/log';
import { unacknowledgedBytes } from './tcp-send-queue';

/** One open stream: it takes the events it wants and writes what it holds at each flush. */
export interface Subscriber {
  offer(event: SequencedEvent): void;
  flush(): void;
  heartbeat(): void;
  /** Whether enough was sent that the client could be over its bound (the stall check is then worth reading /proc). */
  couldBeStalled(): boolean;
  /** Ends the stream (the server is shutting down). */
  end(): void;
  /** Cuts the client off if its unacknowledged bytes (per connection, from the kernel) pass its bound. */
  checkStall(unacknowledged: Map<string, number>): void;
}

/** How often the kernel's send queues are compared with the bound, while some stream could be over it. */
const STALL_CHECK_MS = 1000;

export interface SequencedEvent extends NodeEvent {
  readonly seq: number;
}

interface HubTiming {
  pollMs: number;
  flushMs: number;
  slackMs: number;
  resyncMs: number;
  heartbeatMs: number;
}

export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly feed: ChangeFeed;
  private seq = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private checkingStalls = false;
  private starting: Promise<void> | null = null;

  constructor(db: Database, private readonly timing: HubTiming) {
    this.feed = new ChangeFeed(db, timing, (events) => this.publish(events));
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Adds a stream; resolves once the feed is reading (so no change after this is missed). */
  async subscribe(subscriber: Subscriber): Promise<() => void> {
    this.subscribers.add(subscriber);
    if (!this.flushTimer) this.startTimers();
    this.starting ??= this.feed.start();
    try {
      await this.starting;
    } catch (err) {
      this.starting = null;
      this.unsubscribe(subscriber);
      throw err;
    }
    return () => this.unsubscribe(subscriber);
  }

  /** Ends every stream, so the HTTP server can close. */
  close(): void {
    const open = [...this.subscribers];
    this.subscribers.clear();
    this.stopAll();
    for (const subscriber of open) subscriber.end();
  }

  private unsubscribe(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.stopAll();
  }

  private stopAll(): void {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.flushTimer = this.heartbeatTimer = this.stallTimer = null;
    this.feed.stop();
    this.starting = null;
  }

  private startTimers(): void {
    this.flushTimer = setInterval(() => this.each((s) => s.flush()), this.timing.flushMs);
    this.heartbeatTimer = setInterval(() => this.each((s) => s.heartbeat()), this.timing.heartbeatMs);
    this.stallTimer = setInterval(() => void this.checkStalls(), STALL_CHECK_MS);
    this.flushTimer.unref();
    this.heartbeatTimer.unref();
    this.stallTimer.unref();
  }

  private async checkStalls(): Promise<void> {
    if (this.checkingStalls) return;
    const suspects = [...this.subscribers].filter((s) => s.couldBeStalled());
    if (suspects.length === 0) return;
    this.checkingStalls = true;
    try {
      const queues = await unacknowledgedBytes();
      if (queues) for (const s of suspects) if (this.subscribers.has(s)) s.checkStall(queues);
    } finally {
      this.checkingStalls = false;
    }
  }

  private publish(events: NodeEvent[]): void {
    for (const event of events) {
      const sequenced: SequencedEvent = { ...event, seq: ++this.seq };
      this.each((s) => s.offer(sequenced));
    }
  }

  /** A failing stream must not stop the others. */
  private each(action: (s: Subscriber) => void): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        action(subscriber);
      } catch (err) {
        log.warning(`Dashboard event stream: ${(err as Error).message}`);
      }
    }
  }
}
