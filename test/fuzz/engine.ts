/**
 * The fuzz loop shared by the test and the benchmark. fast-check draws batches of requests from
 * a fixed seed; each batch goes out concurrently over real sockets, and every answer is checked
 * (checks.ts), the prototypes after every answer, the log after every batch. The property never
 * throws: failures are collected so one run reports every class (no shrinking, by design).
 */
import fc from 'fast-check';
import type * as http from 'node:http';
import type { FuzzFixtures } from './fixtures';
import { FailureLog } from './failures';
import { checkResponse } from './checks';
import { createAgent, describeRequest, FuzzRequest, FuzzResponse, NoResponse, send } from './http';
import { checkKnownGood } from './known-good';
import { LogWatcher } from './log-watch';
import { prototypeChanges, restorePrototypes, snapshotPrototypes } from './prototypes';
import { requestArb } from './arb-request';
import { replenish } from './replenish';

export interface FuzzOptions {
  seed: number;
  requests: number;
  concurrency: number;
  /** The server's log file, searched for secrets after every batch. */
  logFile: string | null;
  /** Stop early after this long (the benchmark's duration mode). */
  timeLimitMs?: number;
  /** Batches between re-creations of deleted fixtures. */
  replenishEvery?: number;
  onProgress?: (sent: number) => void;
  /** Sees every exchange (for tuning the generators: which answers do requests get). */
  trace?: (req: FuzzRequest, res: FuzzResponse | null) => void;
}

export interface FuzzReport {
  sent: number;
  support: number;
  elapsedMs: number;
  statuses: Map<number, number>;
  /** Per route: requests sent and how many were answered 2xx. */
  routes: Map<string, { sent: number; ok: number }>;
  failures: FailureLog;
  /** Log lines searched for secrets. */
  logLines: number;
}

class Run {
  readonly failures = new FailureLog();
  readonly statuses = new Map<number, number>();
  readonly routes = new Map<string, { sent: number; ok: number }>();
  readonly pristine = snapshotPrototypes();
  /** Generated requests sent; `support` counts the replenishing ones, checked the same way. */
  sent = 0;
  support = 0;

  constructor(readonly base: URL, readonly agent: http.Agent, readonly trace?: FuzzOptions['trace']) {}

  /** Sends one request and checks its answer; null when there was none. */
  async exchange(req: FuzzRequest, batch: readonly FuzzRequest[], generated = true): Promise<FuzzResponse | null> {
    if (generated) this.sent++;
    else this.support++;
    const res = await this.trySend(req);
    this.checkPrototypes(batch);
    this.trace?.(req, res);
    if (!res) return null;
    this.count(req, res.status);
    for (const f of checkResponse(req, res, await this.headFault(req, res))) this.failures.add(f);
    return res;
  }

  /**
   * A HEAD answer has no body to say why it failed: the same request as a GET shows the fault
   * (a BMC's own failure, or not). Not counted as a generated request.
   */
  private async headFault(req: FuzzRequest, res: FuzzResponse): Promise<FuzzResponse | undefined> {
    if (req.method !== 'HEAD' || res.status < 500) return undefined;
    this.support++;
    return (await this.trySend({ ...req, method: 'GET' })) ?? undefined;
  }

  private async trySend(req: FuzzRequest): Promise<FuzzResponse | null> {
    try {
      return await send(this.base, req, this.agent);
    } catch (err) {
      // Anything but a dropped or hung exchange is the fuzzer's own bug: let it surface.
      if (!(err instanceof NoResponse)) throw new Error(`fuzzer built an unsendable request: ${(err as Error).message}\n${describeRequest(req)}`);
      this.failures.add({ kind: 'no response', route: req.route, status: null, message: err.message, request: describeRequest(req) });
      return null;
    }
  }

  private count(req: FuzzRequest, status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    const route = this.routes.get(req.route) ?? { sent: 0, ok: 0 };
    route.sent++;
    if (status >= 200 && status < 300) route.ok++;
    this.routes.set(req.route, route);
  }

  /** With requests in flight together, the culprit is one of the batch: all are shown. */
  private checkPrototypes(batch: readonly FuzzRequest[]): void {
    const changes = prototypeChanges(this.pristine);
    if (changes.length === 0) return;
    restorePrototypes(this.pristine);
    this.failures.add({
      kind: 'prototype changed', route: batch.length === 1 ? batch[0].route : 'one of a batch', status: null,
      message: changes.join('; '), request: batch.map((r) => describeRequest(r, 300)).join('\n   '),
    });
  }
}

export async function runFuzz(url: string, fx: FuzzFixtures, opts: FuzzOptions): Promise<FuzzReport> {
  const run = new Run(new URL(url), createAgent(opts.concurrency), opts.trace);
  const logs = new LogWatcher(opts.logFile);
  const started = Date.now();
  let batches = 0;
  const property = fc.asyncProperty(fc.array(requestArb(fx), { minLength: opts.concurrency, maxLength: opts.concurrency }), async (batch) => {
    const todo = batch.slice(0, Math.max(0, opts.requests - run.sent));
    await Promise.all(todo.map((req) => run.exchange(req, todo)));
    for (const f of logs.newLeaks(todo)) run.failures.add(f);
    if (++batches % (opts.replenishEvery ?? 100) === 0) await replenish(fx, (req) => run.exchange(req, [req], false));
    opts.onProgress?.(run.sent);
  });
  // The property only throws on the fuzzer's own bugs: stop there rather than shrink (re-sending requests).
  await fc.assert(property, {
    seed: opts.seed, numRuns: Math.ceil(opts.requests / opts.concurrency), interruptAfterTimeLimit: opts.timeLimitMs,
    markInterruptAsFailure: false, endOnFailure: true,
  });
  await checkKnownGood(fx, run.failures, (req) => run.exchange(req, [req], false));
  for (const f of logs.newLeaks([])) run.failures.add(f);
  run.agent.destroy();
  return {
    sent: run.sent, support: run.support, elapsedMs: Date.now() - started, statuses: run.statuses, routes: run.routes,
    failures: run.failures, logLines: logs.lines,
  };
}
