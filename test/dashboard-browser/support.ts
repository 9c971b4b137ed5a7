/**
 * Shared pieces of the dashboard's browser tests: Debian's chromium driven headless through
 * playwright-core (no browser download), screenshots kept as artefacts under
 * test-artifacts/dashboard/<test>/, a page that records dialogs, page errors and CSP refusals, and
 * fleets of fake-hardware nodes made through the real API.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openDatabase } from '../../src/db/connection';
import { encodeDate } from '../../src/db/codec';
import { pool } from '../../bench/support';

/** Debian's chromium (scripts/debian-packages.txt). */
export const CHROMIUM = '/usr/bin/chromium';

/** dist/test/dashboard-browser/ is three levels below the repository. */
export const ARTIFACTS_ROOT = path.resolve(__dirname, '..', '..', '..', 'test-artifacts', 'dashboard');

export const API_VERSION = '1.96';

export async function launchChromium(): Promise<Browser> {
  // As root, chromium refuses to start without --no-sandbox.
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

/** Numbered screenshots of one test file, in a directory emptied at the start of the run. */
export class Screenshots {
  readonly dir: string;
  private count = 0;

  constructor(name: string) {
    this.dir = path.join(ARTIFACTS_ROOT, name);
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
  }

  /** Takes one and checks it was written (a PNG of some size). */
  async take(page: Page, label: string): Promise<string> {
    this.count++;
    const file = path.join(this.dir, `${String(this.count).padStart(2, '0')}-${label}.png`);
    await page.screenshot({ path: file });
    const head = fs.readFileSync(file).subarray(0, 8);
    if (!head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error(`${file} is not a PNG`);
    return file;
  }
}

/** What a page did that a test may assert on: dialogs (alert, confirm...), uncaught errors, CSP refusals. */
export interface PageRecord {
  dialogs: string[];
  errors: string[];
  cspRefusals: string[];
}

export async function newRecordedPage(browser: Browser): Promise<{ page: Page; record: PageRecord }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const record: PageRecord = { dialogs: [], errors: [], cspRefusals: [] };
  page.on('dialog', (dialog) => {
    record.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (err) => record.errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) record.cspRefusals.push(message.text());
  });
  return { page, record };
}

/** Logs in through the login form and waits for the app's header. */
export async function logIn(page: Page, baseUrl: string, user: string, password: string, project?: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/`);
  await page.locator('form.login').waitFor();
  await page.fill('form.login input[name=username]', user);
  await page.fill('form.login input[name=password]', password);
  if (project !== undefined) await page.fill('form.login input[name=project]', project);
  await page.click('form.login button[type=submit]');
  await page.locator('header.top .who').waitFor();
}

/** The node list's "N of M nodes" count once every page has loaded. */
export async function listedCount(page: Page): Promise<number> {
  await page.waitForFunction(() => (globalThis as unknown as { __dashboard?: { loadedAt: number } }).__dashboard?.loadedAt);
  return Number(await page.locator('.summary .count').textContent());
}

export interface ApiClient {
  call(method: string, route: string, body?: unknown): Promise<{ status: number; json: any }>;
}

export function apiClient(baseUrl: string, headers: Record<string, string> = {}): ApiClient {
  return {
    async call(method, route, body) {
      const res = await fetch(`${baseUrl}${route}`, {
        method,
        headers: { 'X-OpenStack-Ironic-API-Version': API_VERSION, 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    },
  };
}

/** Creates `count` fake-hardware nodes named `<prefix>-0000`... (8 at a time); returns their uuids in order. */
export async function createNodes(api: ApiClient, count: number, prefix = 'node', fields: Record<string, unknown> = {}): Promise<string[]> {
  const uuids: string[] = new Array<string>(count);
  await pool(count, 8, async (i) => {
    const res = await api.call('POST', '/v1/nodes', { driver: 'fake-hardware', name: `${prefix}-${String(i).padStart(4, '0')}`, ...fields });
    if (res.status !== 201) throw new Error(`node create: ${res.status} ${JSON.stringify(res.json)}`);
    uuids[i] = (res.json as { uuid: string }).uuid;
  });
  return uuids;
}

export async function patchNode(api: ApiClient, uuid: string, ops: unknown[]): Promise<void> {
  const res = await api.call('PATCH', `/v1/nodes/${uuid}`, ops);
  if (res.status !== 200) throw new Error(`node patch: ${res.status} ${JSON.stringify(res.json)}`);
}

/**
 * Writes node columns straight into the server's SQLite database, for values the API refuses (a
 * node name that is not a valid host name, which an Ironic database adopted from elsewhere may hold).
 */
export async function writeNodeColumns(sqliteFile: string, uuid: string, columns: Record<string, string>): Promise<void> {
  const db = await openDatabase(`sqlite:///${sqliteFile}`);
  try {
    const updated = await db.knex('nodes').where({ uuid }).update({ ...columns, updated_at: encodeDate(new Date(), 'sqlite') });
    if (updated !== 1) throw new Error(`node ${uuid} not found in ${sqliteFile}`);
  } finally {
    await db.close();
  }
}
