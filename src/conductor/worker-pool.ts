/**
 * The conductor's bounded pool of background work ([conductor]workers_pool_size). Work is async,
 * so a slot is a promise in flight, not a thread; a full pool answers NoFreeConductorWorker (503).
 */
import { NoFreeConductorWorker } from '../common/errors';
import { log } from '../common/log';

export class WorkerPool {
  private readonly running = new Set<Promise<void>>();

  constructor(readonly size: number) {}

  get active(): number {
    return this.running.size;
  }

  get free(): number {
    return Math.max(0, this.size - this.running.size);
  }

  /** Starts `work` now, or throws NoFreeConductorWorker without starting it. */
  submit(work: () => Promise<void>, label = 'task'): void {
    if (this.running.size >= this.size) throw new NoFreeConductorWorker();
    const p: Promise<void> = Promise.resolve()
      .then(work)
      .catch((err: unknown) => log.error(`Unhandled error in conductor worker (${label}): ${describe(err)}`))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Waits for every piece of work in flight (service shutdown). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
