/**
 * Shared sessions keyed by everything that makes a session distinct (address, port, user,
 * credentials digest, cipher suite, privilege, protocol). Idle sessions get a keep-alive ping so
 * the BMC does not expire them, and are closed cleanly after idleMs. All timers are unref'ed and
 * cleared on close, so a pool never holds the process open.
 */
import type { IpmiSessionBase } from './session';

export interface SessionPoolOptions {
  /** Close a session nobody has used for this long. */
  idleMs?: number;
  /** Ping an open session that has been quiet for this long (0 disables keep-alive). */
  keepAliveMs?: number;
}

interface Entry {
  session: IpmiSessionBase;
  users: number;
  keepAlive: (session: IpmiSessionBase) => Promise<void>;
}

export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;
  readonly idleMs: number;
  readonly keepAliveMs: number;

  constructor(options: SessionPoolOptions = {}) {
    this.idleMs = options.idleMs ?? 60_000;
    this.keepAliveMs = options.keepAliveMs ?? 20_000;
  }

  /** Returns the pooled session for key, creating it when missing or no longer usable. */
  acquire(key: string, create: () => IpmiSessionBase, keepAlive: (s: IpmiSessionBase) => Promise<void>): IpmiSessionBase {
    let entry = this.entries.get(key);
    if (!entry || !entry.session.usable) {
      if (entry) void entry.session.close();
      entry = { session: create(), users: 0, keepAlive };
      this.entries.set(key, entry);
    }
    entry.users += 1;
    this.schedule();
    return entry.session;
  }

  release(key: string, session: IpmiSessionBase): void {
    const entry = this.entries.get(key);
    if (entry && entry.session === session) {
      entry.users = Math.max(0, entry.users - 1);
      if (!session.usable) this.drop(key, entry);
    }
  }

  /** Forget a session that failed, so the next acquire builds a fresh one. */
  discard(key: string, session: IpmiSessionBase): void {
    const entry = this.entries.get(key);
    if (entry && entry.session === session) this.drop(key, entry);
    else void session.close();
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    void entry.session.close();
    if (this.entries.size === 0) this.stopTimer();
  }

  private schedule(): void {
    if (this.timer) return;
    const tick = Math.max(250, Math.min(this.idleMs, this.keepAliveMs || this.idleMs) / 2);
    this.timer = setInterval(() => this.sweep(), tick);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      const quiet = now - entry.session.lastUsed;
      if (!entry.session.usable) {
        this.drop(key, entry);
      } else if (entry.users === 0 && quiet >= this.idleMs) {
        this.drop(key, entry);
      } else if (this.keepAliveMs > 0 && quiet >= this.keepAliveMs && entry.session.state === 'open') {
        entry.session.lastUsed = now;
        entry.keepAlive(entry.session).catch(() => this.discard(key, entry.session));
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Closes every session (Close Session sent to each BMC) and stops the timer. */
  async closeAll(): Promise<void> {
    this.stopTimer();
    const sessions = [...this.entries.values()].map((e) => e.session);
    this.entries.clear();
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** Process-wide default pool used by IpmiClient unless told otherwise. */
export const defaultSessionPool = new SessionPool();
