/**
 * The API fuzz suite's long-running mode (test/fuzz/api-fuzz.test.ts runs 20,000 requests in CI):
 * the same engine, fixtures and checks, for many more requests or a fixed duration. Prints the
 * throughput as it goes, then every failure class found; exits 1 if there was any.
 *
 *   node dist/bench/api-fuzz.js [--requests N] [--seed S] [--concurrency C] [--duration SECONDS] [--report FILE] [--log FILE]
 *
 * Defaults: 200,000 requests, seed 424242, 6 in flight, no time limit.
 */
import * as fs from 'node:fs';
import { runFuzz } from '../test/fuzz/engine';
import { seedFixtures } from '../test/fuzz/fixtures';
import { prototypeChanges, snapshotPrototypes } from '../test/fuzz/prototypes';
import { formatReport, reportJson } from '../test/fuzz/report';
import { startFuzzServer } from '../test/fuzz/server';
import { nowMs } from './support';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function textArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** A progress line every `every` requests: the rate over the last stretch and overall. */
function progress(every: number): (sent: number) => void {
  const start = nowMs();
  let last = { at: start, sent: 0 };
  return (sent) => {
    if (sent - last.sent < every) return;
    const now = nowMs();
    const recent = (sent - last.sent) / ((now - last.at) / 1000);
    process.stdout.write(`${sent} requests, ${recent.toFixed(0)} req/s recently, ${(sent / ((now - start) / 1000)).toFixed(0)} req/s overall\n`);
    last = { at: now, sent };
  };
}

async function main(): Promise<void> {
  const seed = arg('seed', 424242);
  const requests = arg('requests', 200_000);
  const concurrency = arg('concurrency', 6);
  const duration = arg('duration', 0);
  const reportFile = textArg('report');
  const pristine = snapshotPrototypes();
  const fuzz = await startFuzzServer(textArg('log'));
  let failed = false;
  try {
    const fx = await seedFixtures(fuzz.server, fuzz.bmcs);
    process.stdout.write(`seed ${seed}, ${requests} requests${duration ? ` or ${duration} s` : ''}, concurrency ${concurrency}\n`);
    const report = await runFuzz(fuzz.server.url, fx, {
      seed, requests, concurrency, logFile: fuzz.logFile, timeLimitMs: duration > 0 ? duration * 1000 : undefined,
      onProgress: progress(10_000),
    });
    for (const change of prototypeChanges(pristine)) {
      report.failures.add({ kind: 'prototype changed', route: 'whole run', status: null, message: change, request: '(seeding or fuzzing)' });
    }
    process.stdout.write(`${formatReport(report)}\n`);
    if (reportFile) fs.writeFileSync(reportFile, reportJson(report));
    if (report.failures.total > 0) process.stdout.write(`${report.failures.summary(500)}\n`);
    failed = report.failures.total > 0;
  } finally {
    await fuzz.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

void main();
