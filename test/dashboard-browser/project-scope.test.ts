/**
 * A project-scoped user in the dashboard, in Debian's chromium: ironic-ts behind a real Keystone
 * (Debian's python3-keystone); the user logs in with a password and a project and sees only the
 * nodes their project owns, in the list, on a node's page and over the event stream.
 * Screenshots: test-artifacts/dashboard/project-scope/.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ironicKeystoneConf, ironicServiceUser, startKeystone, type Keystone } from '../../compat-tests/support/keystone';
import { startTarget, type Target } from '../../compat-tests/support/target';
import {
  apiClient, createNodes, launchChromium, listedCount, logIn, newRecordedPage, patchNode, Screenshots,
  type ApiClient, type PageRecord,
} from './support';

let ks: Keystone;
let server: Target;
let admin: ApiClient;
let browser: Browser;
let page: Page;
let record: PageRecord;
let projectA = '';
let projectB = '';
let nodesA: string[] = [];
let nodesB: string[] = [];
const shots = new Screenshots('project-scope');

interface Store { count(field: string, value: unknown): number; events: number }
const store = (p: Page, field: string, value: unknown): Promise<number> =>
  p.evaluate(([f, v]) => (globalThis as unknown as { __dashboard: Store }).__dashboard.count(f as string, v), [field, value]);

before(async () => {
  ks = await startKeystone();
  await ironicServiceUser(ks);
  await ks.createUser('owner-a', { project: 'proj-a', projectRoles: ['member'] });
  projectA = await ks.createProject('proj-a');
  projectB = await ks.createProject('proj-b');
  server = await startTarget({ kind: 'ironic-ts', extraConf: ironicKeystoneConf(ks.url) });
  admin = apiClient(server.url, { 'X-Auth-Token': await ks.adminToken() });
  nodesA = await createNodes(admin, 3, 'proj-a-node');
  nodesB = await createNodes(admin, 4, 'proj-b-node');
  for (const uuid of nodesA) await patchNode(admin, uuid, [{ op: 'add', path: '/owner', value: projectA }]);
  for (const uuid of nodesB) await patchNode(admin, uuid, [{ op: 'add', path: '/owner', value: projectB }]);
  await createNodes(admin, 2, 'unowned');
  browser = await launchChromium();
  ({ page, record } = await newRecordedPage(browser));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await ks?.stop();
});

describe('a project-scoped user in the dashboard', () => {
  it('refuses a wrong password', async () => {
    await page.goto(`${server.url}/dashboard/`);
    await page.fill('form.login input[name=username]', 'owner-a');
    await page.fill('form.login input[name=password]', 'wrong');
    await page.fill('form.login input[name=project]', 'proj-a');
    await page.click('form.login button[type=submit]');
    await page.locator('form.login .error').waitFor();
    await shots.take(page, 'wrong-password');
    assert.equal(await page.locator('header.top').count(), 0);
  });

  it('logs in with a project and lists only that project\'s nodes', async () => {
    await logIn(page, server.url, 'owner-a', 'owner-a-password', 'proj-a');
    assert.match(await page.locator('header.top .who').textContent() ?? '', /owner-a/);
    assert.equal(await listedCount(page), nodesA.length);
    const shown = await page.locator('.rows .row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-uuid')));
    assert.deepEqual([...shown].sort(), [...nodesA].sort());
    assert.equal(await page.locator('.rows .row', { hasText: 'proj-b-node' }).count(), 0);
    assert.equal(await page.locator('.rows .row', { hasText: 'unowned' }).count(), 0);
    await shots.take(page, 'project-list');
  });

  it('does not open another project\'s node', async () => {
    await page.goto(`${server.url}/dashboard/#/nodes/${nodesB[0]}`);
    await page.locator('.node-page .error').waitFor();
    assert.match(await page.locator('.node-page .error').textContent() ?? '', /could not be found/i);
    await shots.take(page, 'other-project-node');
    await page.goto(`${server.url}/dashboard/#/nodes/${nodesA[0]}`);
    await page.locator('.node-head .node-name').waitFor();
    assert.equal(await page.locator('.node-head .node-name').textContent(), 'proj-a-node-0000');
    await shots.take(page, 'own-node');
  });

  it('gets live changes of its own nodes only', async () => {
    await page.goto(`${server.url}/dashboard/#/nodes`);
    assert.equal(await listedCount(page), nodesA.length);
    // Another project's node changes first, then one of ours: once ours shows, theirs would have too.
    for (const uuid of [nodesB[1], nodesA[1]]) {
      const res = await admin.call('PUT', `/v1/nodes/${uuid}/maintenance`, { reason: 'live check' });
      assert.equal(res.status, 202);
    }
    await page.locator(`.rows .row[data-uuid="${nodesA[1]}"] .badge.maint`).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    assert.equal(await store(page, 'owner', projectB), 0);
    assert.equal(await store(page, 'maintenance', true), 1);
    assert.equal(await page.locator('.summary .count').textContent(), String(nodesA.length));
    await shots.take(page, 'live-own-change');
    assert.deepEqual(record.dialogs, []);
    assert.deepEqual(record.errors, []);
    assert.deepEqual(record.cspRefusals, []);
  });
});
