/**
 * The dashboard in Debian's chromium, headless, against a real ironic-ts (API and conductor in one
 * process, SQLite, fake-hardware, noauth): log in, 1,000 nodes listed, filters, a node's page,
 * manage and provide seen live on another page that never reloads, hostile text shown as text,
 * and the fleet view. Screenshots: test-artifacts/dashboard/dashboard/.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTarget, type Target } from '../../compat-tests/support/target';
import {
  apiClient, createNodes, launchChromium, listedCount, logIn, newRecordedPage, patchNode, Screenshots,
  writeNodeColumns, type ApiClient, type PageRecord,
} from './support';

const NODES = 1000;
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_ERROR = '<script>alert(2)</script><b>bold?</b>';
const PORT_MAC = '52:54:00:aa:bb:20';

let server: Target;
let api: ApiClient;
let browser: Browser;
let page: Page;
let record: PageRecord;
let uuids: string[] = [];
const shots = new Screenshots('dashboard');

interface DashboardStats { events: number; batches: number; loadedAt: number; streamOpen: boolean }
const statsOf = (p: Page): Promise<DashboardStats> =>
  p.evaluate(() => (globalThis as unknown as { __dashboard: DashboardStats }).__dashboard);

async function filterCount(): Promise<number> {
  await page.waitForTimeout(50);
  return Number(await page.locator('.summary .count').textContent());
}

before(async () => {
  server = await startTarget({ kind: 'ironic-ts' });
  api = apiClient(server.url);
  uuids = await createNodes(api, NODES);
  for (const uuid of uuids.slice(0, 10)) await patchNode(api, uuid, [{ op: 'add', path: '/owner', value: 'team-a' }]);
  for (const uuid of uuids.slice(10, 15)) {
    const res = await api.call('PUT', `/v1/nodes/${uuid}/maintenance`, { reason: 'disk swap' });
    assert.equal(res.status, 202);
  }
  const port = await api.call('POST', '/v1/ports', { node_uuid: uuids[20], address: PORT_MAC });
  assert.equal(port.status, 201);
  browser = await launchChromium();
  ({ page, record } = await newRecordedPage(browser));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('dashboard in chromium', () => {
  it('asks for a log-in, then logs in', async () => {
    await page.goto(`${server.url}/dashboard/`);
    await page.locator('form.login').waitFor();
    await shots.take(page, 'login-form');
    await logIn(page, server.url, 'operator', 'anything');
    assert.match(await page.locator('header.top .who').textContent() ?? '', /operator/);
    await shots.take(page, 'logged-in');
  });

  it('lists 1,000 nodes, rendering only the rows in view', async () => {
    assert.equal(await listedCount(page), NODES);
    const rows = await page.locator('.rows .row').count();
    assert.ok(rows > 10 && rows < 100, `${rows} rows in the DOM`);
    await page.locator(`.rows .row[data-uuid="${uuids[0]}"]`).waitFor();
    await page.locator('.rows').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await page.locator(`.rows .row[data-uuid="${uuids[NODES - 1]}"]`).waitFor();
    assert.equal(await page.locator(`.rows .row[data-uuid="${uuids[NODES - 1]}"] .c-name`).textContent(), 'node-0999');
    await shots.take(page, 'list-1000-scrolled-to-end');
    assert.ok((await statsOf(page)).streamOpen, 'the event stream is open');
  });

  it('filters by name, maintenance, owner and state', async () => {
    await page.fill('form.filters input[name=search]', 'node-004');
    assert.equal(await filterCount(), 10);
    await shots.take(page, 'filter-search');
    await page.fill('form.filters input[name=search]', '');
    await page.selectOption('form.filters select[name=maintenance]', 'true');
    assert.equal(await filterCount(), 5);
    assert.equal(await page.locator('.rows .row .badge.maint').count(), 5);
    await shots.take(page, 'filter-maintenance');
    await page.selectOption('form.filters select[name=maintenance]', '');
    await page.fill('form.filters input[name=owner]', 'team-a');
    assert.equal(await filterCount(), 10);
    await page.fill('form.filters input[name=owner]', '');
    await page.selectOption('form.filters select[name=state]', 'enroll');
    assert.equal(await filterCount(), NODES);
    await page.selectOption('form.filters select[name=state]', '');
    assert.equal(await filterCount(), NODES);
  });

  it('opens a node: fields, ports, interfaces, the state machine with the current state', async () => {
    await page.fill('form.filters input[name=search]', 'node-0020');
    await page.click(`.rows .row[data-uuid="${uuids[20]}"] .c-name a`);
    await page.locator('.node-head .node-name').waitFor();
    assert.equal(await page.locator('.node-head .node-name').textContent(), 'node-0020');
    assert.equal(await page.locator('svg.fsm g.state.current').getAttribute('data-state'), 'enroll');
    assert.ok(await page.locator('svg.fsm g.state').count() >= 20, 'every state of the machine is drawn');
    // enroll allows manage only; the other verbs are not offered.
    assert.deepEqual(await page.locator('.actions button[data-action]').evaluateAll(
      (els) => els.map((e) => e.getAttribute('data-action')).filter((a) => !/^power|^rebooting|^maintenance/.test(a ?? ''))), ['manage']);
    await page.locator('table.interfaces td', { hasText: 'power' }).first().waitFor();
    await page.locator('dl.fields dt', { hasText: 'driver_info' }).waitFor();
    await page.locator('table.grid td', { hasText: PORT_MAC }).waitFor();
    await shots.take(page, 'node-page');
  });

  it('runs manage and provide, and another page sees both states change live without a reload', async () => {
    const { page: watcher } = await newRecordedPage(browser);
    await watcher.context().addCookies(await page.context().cookies());
    await watcher.goto(`${server.url}/dashboard/#/nodes`);
    assert.equal(await listedCount(watcher), NODES);
    await watcher.fill('form.filters input[name=search]', 'node-0020');
    const watchedBadge = watcher.locator(`.rows .row[data-uuid="${uuids[20]}"] .badge.state`);
    assert.equal(await watchedBadge.getAttribute('data-state'), 'enroll');
    await watcher.evaluate(() => { (globalThis as unknown as { marker: string }).marker = 'not reloaded'; });
    const eventsBefore = (await statsOf(watcher)).events;

    await page.click('.actions button[data-action=manage]');
    await page.locator('dialog[open]').waitFor();
    await shots.take(page, 'confirm-manage');
    await page.click('dialog[open] button[data-confirm]');
    await page.locator('.node-head .badge.state[data-state=manageable]').waitFor({ timeout: 30000 });
    await watcher.locator(`.rows .row[data-uuid="${uuids[20]}"] .badge.state[data-state=manageable]`).waitFor({ timeout: 30000 });
    await shots.take(watcher, 'watcher-sees-manageable');

    await page.locator('.actions button[data-action=provide]').waitFor();
    await page.click('.actions button[data-action=provide]');
    await page.click('dialog[open] button[data-confirm]');
    await page.locator('.node-head .badge.state[data-state=available]').waitFor({ timeout: 30000 });
    await watcher.locator(`.rows .row[data-uuid="${uuids[20]}"] .badge.state[data-state=available]`).waitFor({ timeout: 30000 });
    assert.equal(await page.locator('svg.fsm g.state.current').getAttribute('data-state'), 'available');
    await shots.take(page, 'node-available');
    await shots.take(watcher, 'watcher-sees-available');

    assert.equal(await watcher.evaluate(() => (globalThis as unknown as { marker?: string }).marker), 'not reloaded');
    const after = await statsOf(watcher);
    assert.ok(after.events > eventsBefore, 'the changes came over the event stream');
    assert.ok(after.batches >= 1);
    await watcher.context().close();
  });

  it('shows a hostile node name, last_error and extra as text, and no dialog fires', async () => {
    const uuid = uuids[30];
    await patchNode(api, uuid, [{ op: 'add', path: '/extra/note', value: HOSTILE_ERROR },
      { op: 'add', path: '/description', value: HOSTILE_NAME }]);
    await writeNodeColumns(path.join(server.dir, 'ironic.sqlite'), uuid, { name: HOSTILE_NAME, last_error: HOSTILE_ERROR });
    // The list learns of it from the event stream (the change feed reads the database).
    await page.goto(`${server.url}/dashboard/#/nodes`);
    await page.fill('form.filters input[name=search]', '<img');
    const row = page.locator(`.rows .row[data-uuid="${uuid}"]`);
    await row.waitFor({ timeout: 30000 });
    assert.equal(await row.locator('.c-name').textContent(), HOSTILE_NAME);
    assert.equal(await row.locator('.c-error').textContent(), HOSTILE_ERROR);
    await shots.take(page, 'hostile-in-list');
    await row.locator('.c-name a').click();
    await page.locator('.node-head .node-name').waitFor();
    assert.equal(await page.locator('.node-head .node-name').textContent(), HOSTILE_NAME);
    assert.equal(await page.locator('.last-error').textContent(), HOSTILE_ERROR);
    await page.locator('dl.fields dd', { hasText: 'alert(2)' }).first().waitFor();
    await shots.take(page, 'hostile-node-page');
    assert.equal(await page.locator('img').count(), 0, 'no element was made from the data');
    assert.equal(await page.locator('main script, main b').count(), 0);
    await page.waitForTimeout(300);
    assert.deepEqual(record.dialogs, []);
  });

  it('shows the fleet: counts by state, the conductor and its hardware types', async () => {
    await page.click('header.top nav a[href="#/fleet"]');
    await page.locator('.fleet td.num[data-count=enroll]').waitFor();
    assert.equal(await page.locator('.fleet td.num[data-count=available]').textContent(), '1');
    assert.equal(Number(await page.locator('.fleet td.num[data-count=enroll]').textContent()), NODES - 1);
    await page.locator('.fleet td', { hasText: 'fake-hardware' }).first().waitFor();
    await shots.take(page, 'fleet');
  });

  it('broke no rule of the CSP and threw no error', () => {
    assert.deepEqual(record.cspRefusals, []);
    assert.deepEqual(record.errors, []);
    assert.deepEqual(record.dialogs, []);
  });
});
