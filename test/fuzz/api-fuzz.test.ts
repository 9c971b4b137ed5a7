/**
 * Property-based fuzzing of the whole v1 API over real sockets (fast-check, fixed seed): generated
 * JSON, patches, query strings and headers on every served route. Every answer must be non-5xx
 * and free of the fixtures' secrets, the built-in prototypes must not change, the log must hold
 * no secret, and the server must answer a known-good request afterwards.
 *
 *   FUZZ_SEED (default 424242), FUZZ_REQUESTS (default 20000), FUZZ_CONCURRENCY (default 6),
 *   FUZZ_REPORT (a file for the full JSON report), FUZZ_TRACE (a file for one line per exchange),
 *   FUZZ_LOG (where the server logs, kept after the run). bench/api-fuzz.ts is the long-running mode.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { seedFixtures } from './fixtures';
import { runFuzz } from './engine';
import { prototypeChanges, snapshotPrototypes } from './prototypes';
import { envNumber, startFuzzServer } from './server';
import { formatReport, reportJson, traceTo } from './report';

const SEED = envNumber('FUZZ_SEED', 424242);
const REQUESTS = envNumber('FUZZ_REQUESTS', 20000);
const CONCURRENCY = envNumber('FUZZ_CONCURRENCY', 6);

test(`the API survives ${REQUESTS} generated requests (seed ${SEED})`, async (t) => {
  const pristine = snapshotPrototypes();
  const fuzz = await startFuzzServer(process.env.FUZZ_LOG);
  try {
    const fx = await seedFixtures(fuzz.server, fuzz.bmcs);
    const trace = process.env.FUZZ_TRACE ? traceTo(process.env.FUZZ_TRACE) : undefined;
    const report = await runFuzz(fuzz.server.url, fx, { seed: SEED, requests: REQUESTS, concurrency: CONCURRENCY, logFile: fuzz.logFile, trace });
    for (const change of prototypeChanges(pristine)) {
      report.failures.add({ kind: 'prototype changed', route: 'whole run', status: null, message: change, request: '(seeding or fuzzing)' });
    }
    t.diagnostic(formatReport(report));
    if (process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, reportJson(report));
    assert.ok(report.sent >= REQUESTS, `only ${report.sent} of ${REQUESTS} requests were sent`);
    assert.equal(report.failures.total, 0, report.failures.summary());
  } finally {
    await fuzz.stop();
  }
});
