/**
 * Failed authentications per client address, so a flood of guesses cannot keep libuv's threadpool
 * busy with bcrypt: each attempt counts as a failure up front (concurrent guesses count too) and
 * is given back when it succeeds; a client that reaches maxFailures within its window is refused
 * without a password check until the window ends. IPv6 clients count per /64 (one host commonly
 * holds a whole /64). At most maxClients windows are kept; when full, expired and then the oldest
 * windows make room.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface Limits {
  maxFailures: number;
  windowMs: number;
  maxClients: number;
}

export const DEFAULT_LIMITS: Limits = { maxFailures: 10, windowMs: 60_000, maxClients: 10_000 };

interface Window {
  start: number;
  failures: number;
}

/** An admitted attempt is refunded when it succeeds (or fails for a reason other than the password). */
export type Admission = { allowed: true; refund(): void } | { allowed: false; retryAfterSeconds: number };

/** The first four groups of an IPv6 address (its /64); IPv4 and IPv4-mapped addresses as IPv4. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export class FailureLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: Limits = DEFAULT_LIMITS, private readonly now: () => number = Date.now) {}

  /** Tracked clients, never more than maxClients. */
  get size(): number {
    return this.windows.size;
  }

  /** Admits an attempt from this address (counted as failed until it succeeds), or refuses it. */
  admit(address: string): Admission {
    const key = clientKey(address);
    let window = this.current(key);
    if (window && window.failures >= this.limits.maxFailures) {
      return { allowed: false, retryAfterSeconds: Math.ceil((window.start + this.limits.windowMs - this.now()) / 1000) };
    }
    if (!window) {
      this.makeRoom();
      window = { start: this.now(), failures: 0 };
      this.windows.set(key, window);
    }
    const counted = window;
    counted.failures += 1;
    return { allowed: true, refund: () => { counted.failures -= 1; } };
  }

  private expired(window: Window): boolean {
    return this.now() - window.start >= this.limits.windowMs;
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && this.expired(window)) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Windows are kept in the order they opened: expired ones lead, then the oldest. */
  private makeRoom(): void {
    for (const [key, window] of this.windows) {
      if (this.windows.size < this.limits.maxClients && !this.expired(window)) return;
      this.windows.delete(key);
    }
  }
}
