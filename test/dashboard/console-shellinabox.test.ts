/**
 * The ipmitool-shellinabox console on ipmi_sim with SOL: enabling it starts Debian's shellinaboxd
 * (daemonized, pid file), get_console gives its URL, the URL serves Shell In A Box's page, and
 * disabling it stops the daemon and frees the port. Both console interfaces share the pid handling.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSolSim, USER, PASSWORD, type SolSim } from './support/sol-sim';
import { startDashboardServer, type DashboardServer } from './support/servers';

let server: DashboardServer;
let sim: SolSim;

const V = { 'X-OpenStack-Ironic-API-Version': '1.96', 'Content-Type': 'application/json' };

async function api(method: string, urlPath: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${urlPath}`, { method, headers: V, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) as Record<string, unknown> : {} };
}

async function consoleState(uuid: string): Promise<Record<string, unknown>> {
  return (await api('GET', `/v1/nodes/${uuid}/states/console`)).json;
}

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  sim = await startSolSim();
  server = await startDashboardServer({
    extraConf: '[DEFAULT]\nmy_ip = 127.0.0.1\nenabled_console_interfaces = fake,no-console,ipmitool-socat,ipmitool-shellinabox',
  });
});

after(async () => {
  await server?.stop();
  await sim?.stop();
});

test('ipmitool-shellinabox: shellinaboxd serves the console page at the URL get_console gives', async () => {
  const created = await api('POST', '/v1/nodes', {
    driver: 'fake-hardware', power_interface: 'ipmitool', management_interface: 'ipmitool', console_interface: 'ipmitool-shellinabox',
    driver_info: { ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD, ipmi_cipher_suite: 3 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const uuid = String(created.json.uuid);
  assert.equal((await api('PUT', `/v1/nodes/${uuid}/states/console`, { enabled: true })).status, 202);
  await waitFor('the console to be enabled', async () => {
    const node = (await api('GET', `/v1/nodes/${uuid}`)).json;
    assert.equal(node.last_error, null, String(node.last_error));
    return (await consoleState(uuid)).console_enabled === true;
  });

  const info = (await consoleState(uuid)).console_info as { type: string; url: string };
  assert.equal(info.type, 'shellinabox');
  assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const pidFile = path.join(server.dir, 'console', `${uuid}.pid`);
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  assert.ok(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('shellinaboxd'), 'the pid file names shellinaboxd');
  const page = await (await fetch(info.url)).text();
  assert.match(page, /ShellInABox|shell_in_a_box/i, page.slice(0, 300));
  assert.ok(!page.includes(PASSWORD), 'the page does not carry the BMC password');
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  assert.ok(!cmdline.includes(PASSWORD), 'the password is passed in a file, not on the command line');

  assert.equal((await api('PUT', `/v1/nodes/${uuid}/states/console`, { enabled: false })).status, 202);
  await waitFor('the console to be disabled', async () => (await consoleState(uuid)).console_enabled === false);
  assert.ok(!fs.existsSync(pidFile), 'the pid file is removed');
  await waitFor('shellinaboxd to exit', async () => !fs.existsSync(`/proc/${pid}`));
  await assert.rejects(fetch(info.url), 'nothing listens on the console port any more');
});
