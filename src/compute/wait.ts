/**
 * Nova's FixedIntervalLoopingCall: call `check` every interval until it returns a value (done) or
 * throws (failed), bounded by a timeout so a stuck node cannot hang the caller forever.
 */
import { WaitTimeoutError } from './errors';
import type { WaitOptions } from './types';

export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, opts: WaitOptions = {}): Promise<T> {
  const interval = opts.intervalMs ?? 2000;
  const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60 * 1000);
  for (;;) {
    const done = await check();
    if (done !== undefined) return done;
    if (Date.now() >= deadline) throw new WaitTimeoutError(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}
