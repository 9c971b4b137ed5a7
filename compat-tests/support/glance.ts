/**
 * A real Glance (Debian's python3-glance, unmodified) for tests: glance-api standalone on a
 * free port over SQLite and the file store. Its paste pipeline has Glance's `context` filter
 * without keystonemiddleware: requests with X-Identity-Status: Confirmed act as the user and
 * project in their X-* headers (how the test uploads, as an admin of a project), others are
 * anonymous (allow_anonymous_access), which is how an Ironic without [glance] auth reads it.
 * With `keystone`, the pipeline is Glance's keystone one (keystonemiddleware auth_token against
 * that Keystone, as the `glance` service user) and every request needs a real token; with
 * `{ store: 'swift' }` as well, image data goes to the Swift of that Keystone's catalog
 * (glance_store's single-tenant swift driver, the same user, container `glance`).
 */
import { authtokenConf } from './keystone';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { stopProcess } from './target';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';

export interface GlanceImageInput {
  name: string;
  data?: Buffer;
  disk_format?: string;
  container_format?: string;
  visibility?: 'public' | 'private' | 'shared' | 'community';
  /** The uploading project (the image's owner). */
  project?: string;
  /** Extra image properties (kernel_id, img_type...). */
  properties?: Record<string, string>;
  /** A Keystone token to upload with (Glance behind Keystone). */
  token?: string;
}

export interface GlanceKeystone {
  /** Keystone's root URL. */
  url: string;
  /** The service user keystonemiddleware validates tokens as (admin role in `project`). */
  username: string;
  password: string;
  project: string;
}

export interface RealGlance {
  url: string;
  dir: string;
  createImage(input: GlanceImageInput): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const paste = (keystone: boolean) => `[pipeline:glance-api]
pipeline = versionnegotiation ${keystone ? 'authtoken ' : ''}context rootapp
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
delay_auth_decision = true
[composite:rootapp]
paste.composite_factory = glance.api:root_app_factory
/: apiversions
/v2: apiv2app
[app:apiversions]
paste.app_factory = glance.api.versions:create_resource
[app:apiv2app]
paste.app_factory = glance.api.v2.router:API.factory
[filter:versionnegotiation]
paste.filter_factory = glance.api.middleware.version_negotiation:VersionNegotiationFilter.factory
[filter:context]
paste.filter_factory = glance.api.middleware.context:ContextMiddleware.factory
`;


/** glance_store's swift backend: one reference in its own file, as the swift driver wants it. */
function swiftStoreConf(dir: string, ks: GlanceKeystone): { api: string; references: string } {
  return {
    api: `[swift]
swift_store_config_file = ${path.join(dir, 'glance-swift.conf')}
default_swift_reference = ref1
swift_store_container = glance
swift_store_create_container_on_put = true
swift_store_endpoint_type = publicURL
`,
    references: `[ref1]
user = ${ks.project}:${ks.username}
key = ${ks.password}
auth_address = ${ks.url}/v3
auth_version = 3
user_domain_id = default
project_domain_id = default
`,
  };
}

function apiConf(dir: string, port: number, ks: GlanceKeystone | undefined, swift: boolean): string {
  return `[DEFAULT]
bind_host = 127.0.0.1
bind_port = ${port}
workers = 0
# Records show their file:// location (for [glance]allowed_direct_url_schemes = file).
show_image_direct_url = true
allow_anonymous_access = ${ks ? 'false' : 'true'}
enabled_backends = ${swift ? 'swift:swift' : 'fs:file'}
[database]
connection = sqlite:///${path.join(dir, 'glance.sqlite')}
[glance_store]
default_backend = ${swift ? 'swift' : 'fs'}
${swift && ks ? swiftStoreConf(dir, ks).api : ''}[fs]
filesystem_store_datadir = ${path.join(dir, 'images')}/
[os_glance_staging_store]
filesystem_store_datadir = ${path.join(dir, 'staging')}/
[os_glance_tasks_store]
filesystem_store_datadir = ${path.join(dir, 'tasks')}/
[paste_deploy]
flavor =
${ks ? authtokenConf(ks) : ''}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string, child: ChildProcess, logFile: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`glance-api exited: ${await fsp.readFile(logFile, 'utf8').catch(() => '')}`);
    const ok = await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`glance-api did not come up at ${url}`);
}

function adminHeaders(project: string): Record<string, string> {
  return { 'X-Identity-Status': 'Confirmed', 'X-Roles': 'admin,member,reader', 'X-Project-Id': project, 'X-User-Id': 'test-user' };
}

export async function startRealGlance(keystone?: GlanceKeystone, opts: { store?: 'file' | 'swift' } = {}): Promise<RealGlance> {
  const swift = opts.store === 'swift';
  if (swift && !keystone) throw new Error('a Swift store needs the Keystone whose catalog names Swift');
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'glance-'));
  const port = await freePort();
  const conf = path.join(dir, 'glance-api.conf');
  await fsp.writeFile(conf, apiConf(dir, port, keystone, swift));
  if (swift && keystone) await fsp.writeFile(path.join(dir, 'glance-swift.conf'), swiftStoreConf(dir, keystone).references);
  await fsp.writeFile(path.join(dir, 'glance-api-paste.ini'), paste(Boolean(keystone)));
  const env = { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
  await run(PYTHON, ['-m', 'glance.cmd.manage', '--config-file', conf, 'db_sync'], { env, timeout: 300_000 });
  const logFile = path.join(dir, 'api.log');
  const log = await fsp.open(logFile, 'w');
  const child = spawn(PYTHON, ['-m', 'glance.cmd.api', '--config-file', conf], { env, stdio: ['ignore', log.fd, log.fd] });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUp(url, child, logFile);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url, dir,
    async createImage(input) {
      const headers = input.token ? { 'X-Auth-Token': input.token } : adminHeaders(input.project ?? 'test-project');
      const created = await fetch(`${url}/v2/images`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: input.name, disk_format: input.disk_format ?? 'raw', container_format: input.container_format ?? 'bare',
          visibility: input.visibility ?? 'public', ...(input.properties ?? {}),
        }),
      });
      if (created.status !== 201) throw new Error(`glance image create: ${created.status} ${await created.text()}`);
      const image = await created.json() as Record<string, unknown>;
      if (!input.data) return image;
      const put = await fetch(`${url}/v2/images/${String(image.id)}/file`, {
        method: 'PUT', headers: { ...headers, 'Content-Type': 'application/octet-stream' }, body: input.data,
      });
      if (put.status !== 204) throw new Error(`glance image upload: ${put.status} ${await put.text()}`);
      const shown = await fetch(`${url}/v2/images/${String(image.id)}`, { headers });
      return await shown.json() as Record<string, unknown>;
    },
    async stop() {
      await stopProcess(child);
      await log.close();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
