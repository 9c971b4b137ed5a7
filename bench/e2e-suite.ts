/**
 * The wall time of the whole VM end-to-end suite (compat-tests/e2e/), against issue 14's bar of
 * 15 minutes on 2 cores with the deploy ramdisk cached.
 *
 *   node dist/bench/e2e-suite.js
 *
 * Runs the suite's files in two lanes at once, as the README test command's concurrency of 2 does
 * (each TCG VM keeps one core busy): the longest file alone in one lane, the others one after
 * another in the other (the runner orders the files it is given by name, so the lanes are two
 * runners). Prints the wall time, the pass and fail counts and the ratio to the bar. Exits
 * non-zero when a test fails. Needs root and a built ramdisk (scripts/ironic-ramdisk.sh build);
 * without them the files skip and the figure means nothing.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { nowMs } from './support';

const BAR_SECONDS = 15 * 60;
/** The longest file, as long as all the others together: a lane of its own. */
const LONGEST = 'real-ipa.test.js';
const E2E_DIR = path.resolve(__dirname, '..', 'compat-tests', 'e2e');

/** Runs the runner over the files one at a time, echoing its output; resolves with that output. */
function runLane(files: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-timeout=1800000',
      '--test-reporter=spec', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); process.stdout.write(chunk); });
    child.on('close', () => resolve(out));
  });
}

const count = (outs: string[], what: string): number =>
  outs.reduce((sum, out) => sum + Number(new RegExp(`^ℹ ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN), 0);

async function main(): Promise<void> {
  const names = (await fsp.readdir(E2E_DIR)).filter((f) => f.endsWith('.test.js')).sort();
  const lanes = [[LONGEST], names.filter((f) => f !== LONGEST)].map((lane) => lane.map((f) => path.join(E2E_DIR, f)));
  const started = nowMs();
  const outs = await Promise.all(lanes.map(runLane));
  const seconds = (nowMs() - started) / 1000;
  const result = { files: names.length, pass: count(outs, 'pass'), fail: count(outs, 'fail'), skipped: count(outs, 'skipped'),
    wall_seconds: Math.round(seconds), bar_seconds: BAR_SECONDS, ratio_to_bar: Number((seconds / BAR_SECONDS).toFixed(2)) };
  console.log(JSON.stringify(result));
  if (result.fail !== 0 || Number.isNaN(result.fail)) process.exitCode = 1;
}

void main();
