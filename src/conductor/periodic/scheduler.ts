/** Runs periodic tasks every N seconds without overlapping runs; intervals <= 0 disable a task. */
import { log } from '../../common/log';

export interface PeriodicTask {
  name: string;
  intervalSeconds: number;
  run(): Promise<void>;
}

export class PeriodicScheduler {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  start(tasks: PeriodicTask[]): void {
    for (const task of tasks) {
      if (!(task.intervalSeconds > 0)) continue;
      let busy = false;
      const timer = setInterval(() => {
        if (busy || this.stopped) return;
        busy = true;
        const p = task.run()
          .catch((err: unknown) => log.error(`Periodic task ${task.name} failed: ${(err as Error).message}`))
          .finally(() => {
            busy = false;
            this.running.delete(p);
          });
        this.running.add(p);
      }, task.intervalSeconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.allSettled([...this.running]);
  }
}
