/**
 * The dashboard's node list at scale, in Debian's chromium (headless, through playwright-core),
 * against a real ironic-ts (single process, fake-hardware, SQLite):
 *
 * 1. first paint: N nodes (10,000 by default); a fresh page opens the list; the time from
 *    navigation start to the first frame with rows on screen, and to the whole list loaded
 *    (paged fetches of `fields=`, 1,000 a page after a first page of 200). Median of R rounds.
 * 2. bursts, with the list open: B nodes (1,000) are moved enroll -> manageable through the API at
 *    concurrency 20 (each node passes verifying, so the server may report two changes per node).
 *    then the same B nodes are put in maintenance by one UPDATE of the database (the change feed
 *    reads it, as it would another conductor's writes), so all B changes reach the page at once.
 *    Measured in the page: events received, store batches (one per animation frame at most), list
 *    renders, DOM mutation callbacks on the list, the longest gap between frames, and the time from
 *    the start until every node shows the change in the browser's store.
 *
 *   node dist/bench/dashboard.js [--nodes 10000] [--burst 1000] [--rounds 5]
 */
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startTarget } from '../compat-tests/support/target';
import { launchChromium } from '../test/dashboard-browser/support';
import { openDatabase } from '../src/db/connection';
import { encodeDate } from '../src/db/codec';
import { median, nowMs, pool, postJson } from './support';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

interface PageStats {
  events: number; batches: number; appliedNodes: number; listRenders: number;
  firstEventAt: number; lastBatchAt: number; firstPaintAt: number; loadedAt: number; streamOpen: boolean; reconnects: number;
}

const statsOf = (page: Page): Promise<PageStats> => page.evaluate(() => {
  const { count: _count, ...plain } = (globalThis as unknown as { __dashboard: PageStats & { count: unknown } }).__dashboard;
  return plain;
});

async function createNodes(url: string, count: number): Promise<string[]> {
  const uuids: string[] = new Array<string>(count);
  await pool(count, 8, async (i) => {
    const res = await postJson(`${url}/v1/nodes`, { driver: 'fake-hardware', name: `dash-${i}` }, '1.96');
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.body.toString()}`);
    uuids[i] = (JSON.parse(res.body.toString()) as { uuid: string }).uuid;
  });
  return uuids;
}

/** PUT of a provision target, retried while the node is locked (409). */
async function provision(url: string, uuid: string, target: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/v1/nodes/${uuid}/states/provision`, {
      method: 'PUT', body: JSON.stringify({ target }),
      headers: { 'X-OpenStack-Ironic-API-Version': '1.96', 'Content-Type': 'application/json' },
    });
    await res.arrayBuffer();
    if (res.status === 202) return;
    if (res.status !== 409) throw new Error(`${target} ${uuid}: ${res.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Counts DOM mutation callbacks on the list and the longest gap between animation frames. */
const PROBE = `(() => {
  const probe = { mutations: 0, records: 0, maxFrameGap: 0, running: true };
  globalThis.__probe = probe;
  new MutationObserver((list) => { probe.mutations++; probe.records += list.length; })
    .observe(document.querySelector('.rows'), { subtree: true, childList: true, characterData: true, attributes: true });
  let last = performance.now();
  const tick = (now) => {
    probe.maxFrameGap = Math.max(probe.maxFrameGap, now - last);
    last = now;
    if (probe.running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

interface Probe { mutations: number; records: number; maxFrameGap: number; running: boolean }

/**
 * Runs `trigger` with the list open and reports what the page did until `count` nodes of its
 * store have field = value: events, batches, renders, DOM mutation callbacks, the longest frame gap.
 */
async function measureBurst(page: Page, label: string, trigger: () => Promise<void>,
  [field, value]: [string, unknown], count: number): Promise<void> {
  // Runs in the page (a string: the DOM's types are not in this build's lib).
  await page.evaluate(PROBE);
  const before = await statsOf(page);
  const t = nowMs();
  await trigger();
  const sent = nowMs() - t;
  await page.waitForFunction(([f, v, n]) => (globalThis as unknown as { __dashboard: { count(f: unknown, v: unknown): number } })
    .__dashboard.count(f, v) >= (n as number), [field, value, count] as const, { timeout: 120000, polling: 20 });
  const settled = nowMs() - t;
  await page.waitForTimeout(1000);
  const after = await statsOf(page);
  const probe = await page.evaluate(() => {
    const p = (globalThis as unknown as { __probe: Probe }).__probe;
    p.running = false;
    return { mutations: p.mutations, records: p.records, maxFrameGap: p.maxFrameGap };
  });
  const events = after.events - before.events;
  const batches = after.batches - before.batches;
  console.log(`\nburst: ${label}: sent in ${(sent / 1000).toFixed(2)} s, all ${count} shown in the browser's list ` +
    `${(settled / 1000).toFixed(2)} s after the start`);
  console.log(`  events received ${events}, store batches ${batches} (${(events / Math.max(1, batches)).toFixed(1)} events ` +
    `per batch), list renders ${after.listRenders - before.listRenders}, DOM mutation callbacks ${probe.mutations} ` +
    `(${probe.records} records), longest frame gap ${probe.maxFrameGap.toFixed(0)} ms, ` +
    `stream reconnects ${after.reconnects - before.reconnects}`);
}

/** One statement: every listed node into maintenance, stamped now, as another writer of the database would. */
async function setMaintenance(sqliteFile: string, uuids: string[]): Promise<void> {
  const db = await openDatabase(`sqlite:///${sqliteFile}`);
  try {
    await db.knex('nodes').whereIn('uuid', uuids)
      .update({ maintenance: 1, maintenance_reason: 'bench burst', updated_at: encodeDate(new Date(), 'sqlite') });
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const nodes = arg('nodes', 10000);
  const burst = Math.min(arg('burst', 1000), nodes);
  const rounds = arg('rounds', 5);
  const server = await startTarget({ kind: 'ironic-ts' });
  const browser = await launchChromium();
  try {
    let t = nowMs();
    const uuids = await createNodes(server.url, nodes);
    console.log(`created ${nodes} nodes in ${((nowMs() - t) / 1000).toFixed(1)} s`);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const login = await context.request.post(`${server.url}/dashboard/session`, { data: { username: 'bench', password: 'x' } });
    if (login.status() !== 201) throw new Error(`login: ${login.status()}`);

    const paints: number[] = [];
    const loads: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/dashboard/#/nodes`);
      await page.waitForFunction(() => (globalThis as unknown as { __dashboard?: PageStats }).__dashboard?.loadedAt);
      await page.waitForFunction(() => (globalThis as unknown as { __dashboard: PageStats }).__dashboard.firstPaintAt > 0);
      const s = await statsOf(page);
      const listed = Number(await page.locator('.summary .count').textContent());
      if (listed !== nodes) throw new Error(`listed ${listed} of ${nodes}`);
      // Round 0 warms the server's caches and chromium's; it is not counted.
      if (round > 0) { paints.push(s.firstPaintAt); loads.push(s.loadedAt); }
      console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''}: first rows painted ${s.firstPaintAt.toFixed(0)} ms, ` +
        `${nodes} nodes loaded ${s.loadedAt.toFixed(0)} ms after navigation start`);
      if (round < rounds) await page.close();
    }

    console.log(`\nfirst paint of the list, ${nodes} nodes: median ${median(paints).toFixed(0)} ms ` +
      `(${paints.map((p) => p.toFixed(0)).join(', ')}); whole list loaded: median ${median(loads).toFixed(0)} ms`);
    const page = context.pages()[context.pages().length - 1];
    await page.waitForFunction(() => (globalThis as unknown as { __dashboard: PageStats }).__dashboard.streamOpen);
    const burstNodes = uuids.slice(0, burst);
    await measureBurst(page, `${burst} manage requests through the API (concurrency 20)`,
      () => pool(burst, 20, (i) => provision(server.url, burstNodes[i], 'manage')), ['provision_state', 'manageable'], burst);
    await measureBurst(page, `${burst} nodes put in maintenance by one UPDATE of the database`,
      () => setMaintenance(path.join(server.dir, 'ironic.sqlite'), burstNodes), ['maintenance', true], burst);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
