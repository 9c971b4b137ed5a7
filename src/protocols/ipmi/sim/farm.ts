/** Many simulated BMCs in one process: one socket each on 127.0.0.1 ephemeral ports. */
import { SimBmc, type SimBmcOptions } from './sim-bmc';

export class SimBmcFarm {
  readonly bmcs: SimBmc[] = [];

  /** Starts count BMCs, batchSize at a time so binding does not stall the event loop. */
  async start(count: number, options: SimBmcOptions = {}, batchSize = 500): Promise<number[]> {
    const ports: number[] = [];
    for (let i = 0; i < count; i += batchSize) {
      const batch = Array.from({ length: Math.min(batchSize, count - i) }, () => new SimBmc(options));
      this.bmcs.push(...batch);
      ports.push(...(await Promise.all(batch.map((b) => b.start()))));
    }
    return ports;
  }

  async stop(): Promise<void> {
    await Promise.all(this.bmcs.map((b) => b.stop()));
    this.bmcs.length = 0;
  }
}
