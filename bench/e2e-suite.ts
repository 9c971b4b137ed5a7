/**
 * The wall time of the whole VM end-to-end suite (compat-tests/e2e/), against issue 14's bar of
 * 15 minutes on 2 cores with the deploy ramdisk cached.
 *
 *   node dist/bench/e2e-suite.js [--concurrency 2]
 *
 * Runs the suite's files with the test runner at the README test command's concurrency (each TCG
 * VM keeps one core busy, so two files at once use the machine's two cores), longest first, and
 * prints the wall time, the pass and fail counts and the ratio to the bar. Exits non-zero when a
 * test fails. Needs root and a built ramdisk (scripts/ironic-ramdisk.sh build); without them the
 * files skip and the figure means nothing.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { nowMs } from './support';

const BAR_SECONDS = 15 * 60;
/** The longest files start first, so the short ones fill the other core beside them. */
const LONGEST_FIRST = ['real-ipa.test.js', 'real-ipa-faults.test.js'];
const E2E_DIR = path.resolve(__dirname, '..', 'compat-tests', 'e2e');

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Runs the runner over the files, echoing its output; resolves with that output. */
function runSuite(files: string[], concurrency: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=1800000',
      '--test-reporter=spec', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); process.stdout.write(chunk); });
    child.on('close', () => resolve(out));
  });
}

const count = (out: string, what: string): number => Number(new RegExp(`^ℹ ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);

async function main(): Promise<void> {
  const rank = (f: string): number => (LONGEST_FIRST.includes(f) ? LONGEST_FIRST.indexOf(f) : LONGEST_FIRST.length);
  const files = (await fsp.readdir(E2E_DIR)).filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((f) => path.join(E2E_DIR, f));
  const started = nowMs();
  const out = await runSuite(files, option('concurrency', 2));
  const seconds = (nowMs() - started) / 1000;
  const result = { files: files.length, pass: count(out, 'pass'), fail: count(out, 'fail'), skipped: count(out, 'skipped'),
    wall_seconds: Math.round(seconds), bar_seconds: BAR_SECONDS, ratio_to_bar: Number((seconds / BAR_SECONDS).toFixed(2)) };
  console.log(JSON.stringify(result));
  if (result.fail !== 0 || Number.isNaN(result.fail)) process.exitCode = 1;
}

void main();
