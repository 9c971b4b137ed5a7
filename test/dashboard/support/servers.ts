/**
 * Servers for dashboard tests (this directory's and the browser tests'): a real `ironic` process
 * (API and conductor, SQLite, fake-hardware and ipmi with the ipmitool-socat console) with noauth,
 * http_basic or a real Keystone, and a node whose serial console the dashboard relays, on ipmi_sim.
 *
 *   const server = await startDashboardServer({ auth: 'http_basic' });   // server.users.operator
 *   const ks = await startKeystoneDashboard();                            // ks.users.ownerA, ks.projects
 *   const node = await startConsoleNode(server.url, server.apiHeaders);   // node.sim.write('text')
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import bcrypt from 'bcrypt';
import { freePort, stopProcess } from '../../../compat-tests/support/target';
import { ironicKeystoneConf, ironicServiceUser, startKeystone, type Keystone } from '../../../compat-tests/support/keystone';
import { startSolSim, USER, PASSWORD, type SolSim } from './sol-sim';
import { api } from './nodes';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

export interface Credentials {
  username: string;
  password: string;
  /** Keystone project name to log in to (project-scoped users). */
  project?: string;
}

export interface DashboardServer {
  url: string;
  pid: number;
  dir: string;
  /** Headers that authenticate API calls as an administrator (none under noauth). */
  apiHeaders: Record<string, string>;
  users: Record<string, Credentials>;
  stop(): Promise<void>;
}

interface ServerOptions {
  auth?: 'noauth' | 'http_basic';
  /** More ini text, appended (sections included). */
  extraConf?: string;
}

function confText(dir: string, port: number, consolePorts: number, authConf: string, extra: string): string {
  const d = (kind: string, values: string) => `enabled_${kind}_interfaces = ${values}`;
  return [
    '[DEFAULT]', 'host = dashboard-test', 'rpc_transport = none', `state_path = ${dir}/state`, `tempdir = ${dir}`,
    'enabled_hardware_types = fake-hardware,ipmi', d('bios', 'fake,no-bios'), d('boot', 'fake,pxe'), d('console', 'fake,no-console,ipmitool-socat'),
    d('deploy', 'fake,ramdisk'), d('inspect', 'fake,no-inspect'), d('management', 'fake,ipmitool'), d('network', 'noop'),
    d('power', 'fake,ipmitool'), d('raid', 'fake,no-raid'), d('rescue', 'fake,no-rescue'), d('storage', 'noop'),
    d('vendor', 'fake,no-vendor,ipmitool'), 'default_network_interface = noop',
    authConf,
    '[api]', 'host_ip = 127.0.0.1', `port = ${port}`,
    '[database]', `connection = sqlite:///${dir}/ironic.sqlite`,
    '[dhcp]', 'dhcp_provider = none',
    '[conductor]', 'automated_clean = false',
    '[console]', 'socat_address = 127.0.0.1', `port_range = ${consolePorts}:${consolePorts + 50}`, `terminal_pid_dir = ${dir}/console`,
    '[ipmi]', 'min_command_interval = 1', 'command_retry_timeout = 10',
    extra, '',
  ].join('\n');
}

async function spawnIronic(dir: string, conf: string, port: number): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const confFile = path.join(dir, 'ironic.conf');
  fs.writeFileSync(confFile, conf);
  const log = fs.openSync(path.join(dir, 'stdout.log'), 'a');
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'src', 'cmd', 'ironic.js'), '--config-file', confFile], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  while (!(await fetch(`${url}/v1`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`ironic did not start:\n${fs.readFileSync(path.join(dir, 'stdout.log'), 'utf8').slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid as number, stop: () => stopProcess(child) };
}

/** `ironic` with noauth (any login is admin) or http_basic (user `operator`, password `operator-password`). */
export async function startDashboardServer(opts: ServerOptions = {}): Promise<DashboardServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-server-'));
  const users: Record<string, Credentials> = { operator: { username: 'operator', password: 'operator-password' } };
  let authConf = 'auth_strategy = noauth';
  let apiHeaders: Record<string, string> = {};
  if (opts.auth === 'http_basic') {
    const file = path.join(dir, 'htpasswd');
    fs.writeFileSync(file, `operator:${bcrypt.hashSync('operator-password', 4)}\n`);
    authConf = `auth_strategy = http_basic\nhttp_basic_auth_user_file = ${file}`;
    apiHeaders = { Authorization: `Basic ${Buffer.from('operator:operator-password').toString('base64')}` };
  }
  const port = await freePort();
  const proc = await spawnIronic(dir, confText(dir, port, await freePort(), authConf, opts.extraConf ?? ''), port);
  return {
    ...proc, dir, apiHeaders, users,
    async stop() {
      await proc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface KeystoneDashboard extends DashboardServer {
  keystone: Keystone;
  /** Project name -> id: proj-a and proj-b. */
  projects: Record<string, string>;
}

/**
 * A real Keystone and `ironic` with auth_strategy = keystone. Users: `admin` (the bootstrap admin,
 * system scope: log in without a project), `ownerA` (member of proj-a), `ownerB` (member of proj-b).
 * apiHeaders carry a system-scoped admin token.
 */
export async function startKeystoneDashboard(extraConf = ''): Promise<KeystoneDashboard> {
  const keystone = await startKeystone();
  try {
    await ironicServiceUser(keystone);
    await keystone.createUser('owner-a', { project: 'proj-a', projectRoles: ['member'] });
    await keystone.createUser('owner-b', { project: 'proj-b', projectRoles: ['member'] });
    const projects = { 'proj-a': await keystone.createProject('proj-a'), 'proj-b': await keystone.createProject('proj-b') };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-keystone-'));
    const port = await freePort();
    const proc = await spawnIronic(dir, confText(dir, port, await freePort(), ironicKeystoneConf(keystone.url), extraConf), port);
    return {
      ...proc, dir, keystone, projects,
      apiHeaders: { 'X-Auth-Token': await keystone.adminToken() },
      users: {
        admin: { username: 'admin', password: keystone.adminPassword },
        ownerA: { username: 'owner-a', password: 'owner-a-password', project: 'proj-a' },
        ownerB: { username: 'owner-b', password: 'owner-b-password', project: 'proj-b' },
      },
      async stop() {
        await proc.stop();
        await keystone.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await keystone.stop();
    throw err;
  }
}

export interface ConsoleNode {
  uuid: string;
  /** The simulated BMC: sim.write(text) prints on the node's serial line, sim.typed() is what was typed. */
  sim: SolSim;
  stop(): Promise<void>;
}

/**
 * A node powered and managed with ipmitool on ipmi_sim with SOL, its ipmitool-socat console enabled through the API of a server
 * from startDashboardServer/startKeystoneDashboard. The dashboard's console WebSocket relays it.
 */
export async function startConsoleNode(url: string, headers: Record<string, string> = {}, name = 'console-node'): Promise<ConsoleNode> {
  const sim = await startSolSim();
  try {
    const created = await api(url, 'POST', '/v1/nodes', {
      // fake-hardware takes the ipmitool interfaces beside the fake boot and deploy these servers enable.
      driver: 'fake-hardware', name, power_interface: 'ipmitool', management_interface: 'ipmitool', console_interface: 'ipmitool-socat',
      driver_info: {
        ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD,
        // Named, so ipmitool does not spend seconds asking ipmi_sim for its cipher suites.
        ipmi_cipher_suite: 3,
      },
    }, headers);
    if (created.status !== 201) throw new Error(`node create: ${created.status} ${JSON.stringify(created.json)}`);
    const uuid = String(created.json.uuid);
    const enabled = await api(url, 'PUT', `/v1/nodes/${uuid}/states/console`, { enabled: true }, headers);
    if (enabled.status !== 202) throw new Error(`console enable: ${enabled.status} ${JSON.stringify(enabled.json)}`);
    const deadline = Date.now() + 30000;
    while (!(await api(url, 'GET', `/v1/nodes/${uuid}/states/console`, undefined, headers)).json.console_enabled) {
      if (Date.now() > deadline) throw new Error('the console was not enabled within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    return {
      uuid, sim,
      async stop() {
        await api(url, 'PUT', `/v1/nodes/${uuid}/states/console`, { enabled: false }, headers).catch(() => undefined);
        const until = Date.now() + 15000;
        while (Date.now() < until) {
          const state = await api(url, 'GET', `/v1/nodes/${uuid}/states/console`, undefined, headers).catch(() => null);
          if (!state || !state.json.console_enabled) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        await sim.stop();
      },
    };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}
