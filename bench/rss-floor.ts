/**
 * What resident memory a Node process needs before it serves anything, next to the reference
 * Ironic's: the lower bound behind issue 2's "RSS under 1/3 of the reference" target.
 *
 *   node dist/bench/rss-floor.js
 *
 * Prints the settled RSS (VmRSS, after a second's wait) of: bare Node; Node with the required
 * runtime dependencies loaded and a SQLite database opened through knex; an idle ironic-ts; and an
 * idle reference Ironic. Node's own binary pages are listed apart, as the floor no code can lower.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { startTarget, Target } from '../compat-tests/support/target';

const SETTLE_MS = 1000;

const LOAD_REQUIRED = `
  require('koa'); require('@koa/router'); require('amqplib'); require('mysql2'); require('nunjucks');
  const knex = require('knex')({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  knex.raw('select 1').then(() => setTimeout(() => {}, 60000));
`;

interface Rss {
  totalMiB: number;
  nodeBinaryMiB: number;
}

/** VmRSS, and the part of it that is the node binary's own mapped pages. */
function rssOf(pid: number): Rss {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const total = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  let binary = 0;
  let inBinary = false;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inBinary = line.endsWith(`/${process.execPath.split('/').pop()}`);
    else if (inBinary && line.startsWith('Rss:')) binary += Number(/(\d+)/.exec(line)?.[1] ?? 0);
  }
  return { totalMiB: total / 1024, nodeBinaryMiB: binary / 1024 };
}

async function settledRss(pid: number): Promise<Rss> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return rssOf(pid);
}

async function nodeScript(source: string): Promise<Rss> {
  const child = spawn(process.execPath, ['-e', source], { stdio: 'ignore', cwd: `${__dirname}/../..` });
  try {
    return await settledRss(child.pid as number);
  } finally {
    child.kill();
  }
}

async function idleTarget(kind: Target['kind']): Promise<Rss> {
  const target = await startTarget({ kind });
  try {
    return await settledRss(target.pid);
  } finally {
    await target.stop();
  }
}

function line(label: string, rss: Rss): string {
  const binary = rss.nodeBinaryMiB > 0 ? `  (node binary pages ${rss.nodeBinaryMiB.toFixed(0)} MiB)` : '';
  return `${label.padEnd(44)} ${rss.totalMiB.toFixed(0).padStart(4)} MiB${binary}`;
}

async function main(): Promise<void> {
  const bare = await nodeScript('setTimeout(() => {}, 60000)');
  const required = await nodeScript(LOAD_REQUIRED);
  const ours = await idleTarget('ironic-ts');
  const reference = await idleTarget('reference');
  process.stdout.write([
    line('bare node', bare),
    line('node + required dependencies, SQLite open', required),
    line('ironic-ts, idle', ours),
    line('reference Ironic, idle', reference),
    `a third of the reference's idle RSS: ${(reference.totalMiB / 3).toFixed(0)} MiB;` +
      ` the dependencies alone need ${(required.totalMiB / (reference.totalMiB / 3)).toFixed(2)}x that`,
  ].join('\n') + '\n');
}

void main();
