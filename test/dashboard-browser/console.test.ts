/**
 * The serial console in Debian's chromium: an ipmi node on OpenIPMI's ipmi_sim with Serial over LAN
 * (the simulated serial line is a TCP socket the test writes into), its ipmitool-socat console
 * enabled from the node's page, and xterm.js showing the node's serial output through the
 * dashboard's WebSocket; keys typed in the terminal reach the serial line.
 * Screenshots: test-artifacts/dashboard/console/.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../api/support/server';
import { freePort } from '../../compat-tests/support/target';
import { startSolSim, USER, PASSWORD, type SolSim } from '../dashboard/support/sol-sim';
import { launchChromium, logIn, newRecordedPage, Screenshots, type PageRecord } from './support';

const V = '1.96';
const BANNER = 'Debian GNU/Linux 13 sol-node ttyS0';
let server: TestServer;
let sim: SolSim;
let dir: string;
let browser: Browser;
let page: Page;
let record: PageRecord;
let node = '';
const shots = new Screenshots('console');

/** The terminal's whole buffer as text (xterm's own API: the DOM holds only the rows in view). */
const terminalText = (p: Page): Promise<string> => p.evaluate(() => {
  interface Line { translateToString(trim: boolean): string }
  const term = (globalThis as unknown as { __dashboardTerminal: { buffer: { active: { length: number; getLine(i: number): Line } } } })
    .__dashboardTerminal;
  const lines: string[] = [];
  for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i).translateToString(true));
  return lines.join('\n');
});

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-browser-console-'));
  sim = await startSolSim();
  const first = await freePort();
  server = await startTestServer({
    DEFAULT: { enabled_console_interfaces: 'fake,no-console,ipmitool-socat', tempdir: dir },
    console: { socat_address: '127.0.0.1', port_range: `${first}:${first + 20}`, terminal_pid_dir: path.join(dir, 'pids') },
    ipmi: { min_command_interval: '1', command_retry_timeout: '10' },
  });
  const created = await server.request('POST', '/v1/nodes', {
    version: V,
    body: {
      driver: 'ipmi', name: 'sol-node', console_interface: 'ipmitool-socat',
      driver_info: { ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD },
    },
  });
  assert.equal(created.status, 201, created.text);
  node = created.json.uuid;
  browser = await launchChromium();
  ({ page, record } = await newRecordedPage(browser));
});

after(async () => {
  await browser?.close();
  await server?.request('PUT', `/v1/nodes/${node}/states/console`, { version: V, body: { enabled: false } }).catch(() => undefined);
  await waitUntil(() => !fs.existsSync(path.join(dir, 'pids', `${node}.pid`)), 15000, () => 'socat to stop').catch(() => undefined);
  await server?.stop();
  await sim?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('serial console in chromium', () => {
  it('enables the console from the node page', async () => {
    await logIn(page, server.url, 'operator', 'x');
    await page.goto(`${server.url}/dashboard/#/nodes/${node}`);
    await page.locator('button[data-action=console-enable]').click();
    await page.locator('dialog[open]').waitFor();
    await shots.take(page, 'confirm-enable-console');
    await page.click('dialog[open] button[data-confirm]');
    await page.locator('button[data-action=console-open]').waitFor({ timeout: 45000 });
    await shots.take(page, 'console-enabled');
  });

  it('shows the simulated node\'s serial output and sends typed keys to it', async () => {
    await page.click('button[data-action=console-open]');
    await page.locator('.console-status', { hasText: 'connected' }).waitFor({ timeout: 30000 });
    await sim.connected;
    // The SOL session opens when socat runs ipmitool for the relay's connection: write until it shows.
    let text = '';
    await waitUntil(async () => {
      sim.write(`${BANNER}\r\nsol-node login: `);
      text = await terminalText(page);
      return text.includes(BANNER);
    }, 45000, () => `the banner in the terminal (got ${JSON.stringify(text.slice(-300))})`);
    assert.match(text, /sol-node login:/);
    await page.click('.console .terminal');
    await page.keyboard.type('root\r');
    await waitUntil(() => sim.typed().includes('root'), 15000, () => `the typed keys on the serial line (got ${JSON.stringify(sim.typed())})`);
    await page.waitForTimeout(300);
    await page.locator('.console').screenshot({ path: path.join(shots.dir, 'terminal.png') });
    await shots.take(page, 'console-page');
  });

  it('applied xterm\'s styles through constructed stylesheets, with no script refused and no error', async () => {
    // The terminal has its measured size: its dimension rules reached the page despite the CSP.
    const box = await page.locator('.console .xterm-screen').boundingBox();
    assert.ok(box && box.width > 300 && box.height > 100, `terminal box ${JSON.stringify(box)}`);
    assert.ok(await page.evaluate(() => (globalThis as unknown as { document: { adoptedStyleSheets: unknown[] } }).document.adoptedStyleSheets.length) > 0);
    assert.deepEqual(record.cspRefusals.filter((r) => !/style-src/.test(r)), []);
    assert.deepEqual(record.errors, []);
    assert.deepEqual(record.dialogs, []);
  });
});
