/**
 * A real Keystone (Debian's python3-keystone) for tests: bootstrapped on SQLite in a scratch
 * directory (db_sync, fernet and credential keys, `bootstrap` with an admin user and a public
 * endpoint) and served by a threaded wsgiref server. Reusable by any service test needing auth.
 *
 *   const ks = await startKeystone();
 *   const user = await ks.createUser('alice', { project: 'p1', projectRoles: ['member'] });
 *   const token = await ks.token({ user: 'alice', password: user.password, project: 'p1' });
 *   await ks.stop();
 */
import { execFile, execFileSync, spawn, ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, stopProcess } from './target';

export interface KeystoneUser { id: string; name: string; password: string }

export interface CreateUserOptions {
  password?: string;
  /** Project name (created if missing) the projectRoles apply to. */
  project?: string;
  projectRoles?: string[];
  /** Roles on the system scope `all`. */
  systemRoles?: string[];
}

export interface TokenRequest { user: string; password: string; project?: string; system?: boolean }

export interface Keystone {
  /** Identity root, e.g. http://127.0.0.1:PORT (the v3 API is at `${url}/v3`). */
  url: string;
  adminPassword: string;
  /** A system-scoped token of the bootstrap admin. */
  adminToken(): Promise<string>;
  token(req: TokenRequest): Promise<string>;
  createProject(name: string): Promise<string>;
  createUser(name: string, opts?: CreateUserOptions): Promise<KeystoneUser>;
  /** Adds a service of this type with a public endpoint in RegionOne to the catalog. */
  registerService(type: string, name: string, publicUrl: string): Promise<void>;
  stop(): Promise<void>;
}

const PYTHON = '/usr/bin/python3';

/**
 * The WSGI runner: a thread per connection (a slow client cannot stall the others) but one request
 * inside Keystone at a time, since concurrent SQLite writers fail with "database is locked".
 */
const SERVE_PY = `
import socketserver, sys, threading
from wsgiref.simple_server import make_server, WSGIServer, WSGIRequestHandler
class Quiet(WSGIRequestHandler):
    def log_message(self, *args): pass
class Threaded(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
port = int(sys.argv[1]); sys.argv[1:] = []
from keystone.server.wsgi import initialize_public_application
keystone = initialize_public_application()
lock = threading.Lock()
def serialized(environ, start_response):
    with lock:
        return list(keystone(environ, start_response))
server = make_server('127.0.0.1', port, serialized, server_class=Threaded, handler_class=Quiet)
print('READY', flush=True)
server.serve_forever()
`;

function keystoneConf(dir: string): string {
  return `[DEFAULT]
use_stderr = true
[database]
connection = sqlite:///${dir}/keystone.db
[fernet_tokens]
key_repository = ${dir}/fernet-keys
[fernet_receipts]
key_repository = ${dir}/fernet-keys
[credential]
key_repository = ${dir}/credential-keys
[token]
provider = fernet
`;
}

function manage(dir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/keystone-manage', ['--config-file', path.join(dir, 'keystone.conf'), ...args],
      { env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' }, timeout: 180000, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        // keystone-manage prints eventlet noise at exit; the exit status is what counts.
        if (err && typeof err.code === 'number' && err.code !== 0) reject(new Error(`keystone-manage ${args[0]} failed: ${String(stderr).slice(-2000)}`));
        else if (err && typeof err.code !== 'number') reject(err);
        else resolve();
      });
  });
}

async function waitReady(child: ChildProcess, url: string, dir: string): Promise<void> {
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/v3`)).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`Keystone did not start at ${url}: ${fs.readFileSync(path.join(dir, 'keystone.log'), 'utf8').slice(-3000)}`);
}

export async function startKeystone(adminPassword = 'admin-secret'): Promise<Keystone> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-keystone-'));
  try {
    return await bootstrapAndServe(dir, adminPassword);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function bootstrapAndServe(dir: string, adminPassword: string): Promise<Keystone> {
  fs.writeFileSync(path.join(dir, 'keystone.conf'), keystoneConf(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await manage(dir, ['db_sync']);
  await manage(dir, ['fernet_setup', '--keystone-user', os.userInfo().username, '--keystone-group', groupName()]);
  await manage(dir, ['credential_setup', '--keystone-user', os.userInfo().username, '--keystone-group', groupName()]);
  await manage(dir, ['bootstrap', '--bootstrap-password', adminPassword, '--bootstrap-public-url', `${url}/v3`,
    '--bootstrap-region-id', 'RegionOne']);
  // WAL lets Keystone's readers and its one writer overlap; the default journal mode makes a
  // leftover reader fail the next commit with "database is locked".
  execFileSync(PYTHON, ['-c', 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode=WAL").fetchall()',
    path.join(dir, 'keystone.db')]);
  const log = fs.openSync(path.join(dir, 'keystone.log'), 'a');
  const child = spawn(PYTHON, ['-c', SERVE_PY, String(port)], {
    env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', OS_KEYSTONE_CONFIG_FILES: path.join(dir, 'keystone.conf') },
    stdio: ['ignore', log, log],
  });
  await waitReady(child, url, dir);
  return keystoneHandle(url, adminPassword, child, dir);
}

function groupName(): string {
  const gid = os.userInfo().gid;
  const line = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[2] === String(gid));
  return line ? line.split(':')[0] : String(gid);
}

function keystoneHandle(url: string, adminPassword: string, child: ChildProcess, dir: string): Keystone {
  const api = async (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
    const send = async (): Promise<Response> => fetch(`${url}/v3${route}`, {
      method,
      headers: { 'X-Auth-Token': await handle.adminToken(), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let res = await send();
    // A commit refused by SQLite's lock did not happen: one more try is safe.
    for (let attempt = 0; attempt < 2 && res.status === 500; attempt += 1) res = await send();
    if (res.status >= 300) {
      const tail = fs.readFileSync(path.join(dir, 'keystone.log'), 'utf8').split('\n').slice(-40).join('\n');
      throw new Error(`Keystone ${method} ${route}: ${res.status} ${await res.text()}\n${tail}`);
    }
    return res.status === 204 ? {} : await res.json() as Record<string, unknown>;
  };
  const roleIds = new Map<string, string>();
  const roleId = async (name: string): Promise<string> => {
    if (!roleIds.has(name)) {
      const roles = (await api('GET', `/roles?name=${encodeURIComponent(name)}`)).roles as { id: string }[];
      const id = roles[0]?.id ?? ((await api('POST', '/roles', { role: { name } })).role as { id: string }).id;
      roleIds.set(name, id);
    }
    return roleIds.get(name) as string;
  };
  let admin: string | null = null;
  const handle: Keystone = {
    url,
    adminPassword,
    async adminToken() {
      admin ??= await handle.token({ user: 'admin', password: adminPassword, system: true });
      return admin;
    },
    async token(req) {
      const scope = req.system ? { system: { all: true } }
        : req.project ? { project: { name: req.project, domain: { id: 'default' } } } : undefined;
      const res = await fetch(`${url}/v3/auth/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ auth: {
          identity: { methods: ['password'], password: { user: { name: req.user, domain: { id: 'default' }, password: req.password } } },
          ...(scope ? { scope } : {}),
        } }),
      });
      const token = res.headers.get('x-subject-token');
      if (res.status !== 201 || !token) throw new Error(`Keystone refused a token for ${req.user}: ${res.status} ${await res.text()}`);
      return token;
    },
    async createProject(name) {
      const found = (await api('GET', `/projects?name=${encodeURIComponent(name)}`)).projects as { id: string }[];
      if (found[0]) return found[0].id;
      return ((await api('POST', '/projects', { project: { name, domain_id: 'default' } })).project as { id: string }).id;
    },
    async createUser(name, opts = {}) {
      const password = opts.password ?? `${name}-password`;
      const user = (await api('POST', '/users', { user: { name, password, domain_id: 'default' } })).user as { id: string };
      if (opts.project) {
        const projectId = await handle.createProject(opts.project);
        for (const role of opts.projectRoles ?? []) await api('PUT', `/projects/${projectId}/users/${user.id}/roles/${await roleId(role)}`);
      }
      for (const role of opts.systemRoles ?? []) await api('PUT', `/system/users/${user.id}/roles/${await roleId(role)}`);
      return { id: user.id, name, password };
    },
    async registerService(type, name, publicUrl) {
      const service = (await api('POST', '/services', { service: { type, name, enabled: true } })).service as { id: string };
      await api('POST', '/endpoints', { endpoint: { service_id: service.id, interface: 'public', url: publicUrl, region_id: 'RegionOne' } });
    },
    async stop() {
      await stopProcess(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

/** The [DEFAULT]/[keystone_authtoken] lines that put an ironic-ts behind this Keystone (user `ironic`, see ironicServiceUser). */
export function ironicKeystoneConf(url: string): string {
  return `auth_strategy = keystone
[keystone_authtoken]
auth_type = password
auth_url = ${url}
www_authenticate_uri = ${url}
username = ironic
password = ironic-service-password
project_name = service
user_domain_name = Default
project_domain_name = Default
region_name = RegionOne
`;
}

/** An ironic.conf keystoneauth group ([swift], [glance]...) logging in as `user` in the `service` project. */
export function serviceProjectAuth(ks: Keystone, user: KeystoneUser, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    auth_type: 'password', auth_url: ks.url, username: user.name, password: user.password,
    project_name: 'service', user_domain_id: 'default', project_domain_id: 'default', ...overrides,
  };
}

/** Creates the service user that ironicKeystoneConf names. */
export async function ironicServiceUser(ks: Keystone): Promise<void> {
  await ks.createUser('ironic', { password: 'ironic-service-password', project: 'service', projectRoles: ['admin', 'service'] });
}

/** A service user keystonemiddleware validates tokens as, in `project` of Keystone at `url`. */
export interface ServiceUser {
  url: string;
  username: string;
  password: string;
  project: string;
}

/** keystonemiddleware's auth_token options for a peer's paste filter or [keystone_authtoken]. */
export function authtokenOptions(ks: ServiceUser): string {
  return `www_authenticate_uri = ${ks.url}/v3
auth_url = ${ks.url}/v3
auth_type = password
username = ${ks.username}
password = ${ks.password}
project_name = ${ks.project}
user_domain_id = default
project_domain_id = default
# The test Keystone's catalog has public endpoints only.
interface = public
`;
}

export function authtokenConf(ks: ServiceUser): string {
  return `[keystone_authtoken]\n${authtokenOptions(ks)}`;
}
