/**
 * A real Cinder (Debian 13's python3-cinder 26, unmodified) for tests: cinder-api, cinder-scheduler
 * and cinder-volume from the package's entry points in the Debian 13 root, on a database of its own
 * in the MariaDB at 127.0.0.1:3306 and a RabbitMQ vhost of its own at 127.0.0.1:5672. The backend
 * is cinder_tgt_driver.py beside this file: sparse files exported by a tgtd on 127.0.0.1
 * (tgt-target.ts) with CHAP and an initiator ACL, so the connection info Cinder hands out is one a
 * host can log in with. With `keystone`, the API validates tokens through keystonemiddleware as the
 * given service user; without, it runs Cinder's noauth (a token reads `user:project`).
 *
 *   const cinder = await startCinder({ keystone });
 *   const volume = await cinder.createVolume({ size: 1 }, token);
 *   await cinder.stop();
 */
import { authtokenConf } from './keystone';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp, openSync, closeSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createVhost } from '../../test/rpc/broker';
import { ensureDebian13, inDebian13 } from './debian13-root';
import { killGroup } from './process-group';
import { freePort } from './target';
import { startTgt, type TgtTarget } from './tgt-target';

const run = promisify(execFile);
/** This directory in the source tree (the driver is not compiled: dist/ has no copy). */
const SUPPORT_DIR = path.resolve(__dirname, '..', '..', '..', 'compat-tests', 'support');
const PACKAGES = ['python3-cinder', 'python3-pymysql', 'tgt'];
/** tgtd's control sockets, shared with the root so that its tgtadm reaches the host's tgtd. */
const TGTD_SOCKETS = '/run/tgtd';
/** The API's routes without project id need 3.67 (Yoga). */
const MICROVERSION = 'volume 3.67';
const SERVICES = ['api', 'scheduler', 'volume'] as const;
type Service = (typeof SERVICES)[number];

export interface CinderKeystone {
  /** Keystone's root URL. */
  url: string;
  /** The service user keystonemiddleware validates tokens as. */
  username: string;
  password: string;
  project: string;
}

export interface CinderVolume {
  id: string;
  status: string;
  attachments: Array<Record<string, unknown>>;
  metadata: Record<string, string>;
  [key: string]: unknown;
}

export interface RealCinder {
  /** The API root, e.g. http://127.0.0.1:PORT (the v3 API is at `${url}/v3`). */
  url: string;
  dir: string;
  tgt: TgtTarget;
  /** Creates a volume and waits until it is available. */
  createVolume(input: { size: number; name?: string }, token?: string): Promise<CinderVolume>;
  volume(id: string, token?: string): Promise<CinderVolume>;
  /** POST /volumes/{id}/action, e.g. {'os-reserve': null}. */
  action(id: string, body: Record<string, unknown>, token?: string): Promise<void>;
  /** The file that backs a volume (what its iSCSI LUN serves). */
  volumeFile(id: string): string;
  /** Stops or restarts cinder-api alone (the other services keep running). */
  stopApi(): Promise<void>;
  startApi(): Promise<void>;
  stop(): Promise<void>;
}


interface Layout {
  dir: string;
  apiPort: number;
  dbUrl: string;
  transportUrl: string;
  tgt: TgtTarget;
  keystone?: CinderKeystone;
}

function cinderConf(l: Layout): string {
  return `[DEFAULT]
host = ironic-ts-cinder
my_ip = 127.0.0.1
state_path = ${l.dir}/state
log_dir = ${l.dir}
transport_url = ${l.transportUrl}
auth_strategy = ${l.keystone ? 'keystone' : 'noauth'}
api_paste_config = ${l.dir}/api-paste.ini
osapi_volume_listen = 127.0.0.1
osapi_volume_listen_port = ${l.apiPort}
osapi_volume_workers = 1
enabled_backends = tgtfile
# The volume service reports its capabilities early and often: the scheduler needs them.
periodic_interval = 5
scheduler_driver_init_wait_time = 30
[database]
connection = ${l.dbUrl}
[oslo_concurrency]
lock_path = ${l.dir}/locks
[coordination]
backend_url = file://${l.dir}/state
[tgtfile]
volume_driver = cinder_tgt_driver.TgtFileDriver
volume_backend_name = tgtfile
tgt_volumes_dir = ${l.dir}/volumes
tgt_control_port = ${l.tgt.control}
tgt_portal = 127.0.0.1:${l.tgt.port}
${l.keystone ? authtokenConf(l.keystone) : ''}`;
}

/** Cinder's paste pipeline, as its api-paste.ini has it (without the CORS/profiler filters). */
const API_PASTE = `[composite:osapi_volume]
use = call:cinder.api:root_app_factory
/: apiversions
/v3: openstack_volume_api_v3
[composite:openstack_volume_api_v3]
use = call:cinder.api.middleware.auth:pipeline_factory
noauth = request_id faultwrap sizelimit noauth apiv3
keystone = request_id faultwrap sizelimit authtoken keystonecontext apiv3
keystone_nolimit = request_id faultwrap sizelimit authtoken keystonecontext apiv3
[filter:request_id]
paste.filter_factory = oslo_middleware.request_id:RequestId.factory
[filter:faultwrap]
paste.filter_factory = cinder.api.middleware.fault:FaultWrapper.factory
[filter:noauth]
paste.filter_factory = cinder.api.middleware.auth:NoAuthMiddleware.factory
[filter:sizelimit]
paste.filter_factory = oslo_middleware.sizelimit:RequestBodySizeLimiter.factory
[app:apiv3]
paste.app_factory = cinder.api.v3.router:APIRouter.factory
[pipeline:apiversions]
pipeline = request_id faultwrap osvolumeversionapp
[app:osvolumeversionapp]
paste.app_factory = cinder.api.versions:Versions.factory
[filter:keystonecontext]
paste.filter_factory = cinder.api.middleware.auth:CinderKeystoneContext.factory
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
`;

/** Runs a cinder.cmd module's main() in the root (argv: the config file). */
function cinderCommand(l: Layout, module: string, extra: string[] = []): [string, string[]] {
  return inDebian13([l.dir, SUPPORT_DIR, TGTD_SOCKETS], '/usr/bin/python3',
    ['-c', `from cinder.cmd.${module} import main; main()`, '--config-file', path.join(l.dir, 'cinder.conf'), ...extra]);
}

const ENV = (l: Layout) => ({ PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: l.dir, LANG: 'C.UTF-8', PYTHONPATH: SUPPORT_DIR });

async function mysql(sql: string): Promise<void> {
  await run('mysql', ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-e', sql], { timeout: 60_000 });
}

async function logTail(l: Layout, service: Service | 'manage'): Promise<string> {
  const text = await fsp.readFile(path.join(l.dir, `cinder-${service}.out`), 'utf8').catch(() => '');
  const log = await fsp.readFile(path.join(l.dir, `cinder-${service}.log`), 'utf8').catch(() => '');
  return `${text.slice(-2000)}\n${log.slice(-3000)}`;
}

/** A detached service (its own process group, killed whole), output to cinder-<service>.out. */
function startService(l: Layout, service: Service): ChildProcess {
  const [file, args] = cinderCommand(l, service);
  const out = openSync(path.join(l.dir, `cinder-${service}.out`), 'a');
  try {
    return spawn(file, args, { env: ENV(l), stdio: ['ignore', out, out], detached: true });
  } finally {
    closeSync(out);
  }
}

async function waitForApi(l: Layout, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`cinder-api exited: ${await logTail(l, 'api')}`);
    const up = await fetch(`http://127.0.0.1:${l.apiPort}/`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status < 500, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`cinder-api did not come up: ${await logTail(l, 'api')}`);
}

async function keystoneToken(ks: CinderKeystone): Promise<string> {
  const res = await fetch(`${ks.url}/v3/auth/tokens`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: {
      identity: { methods: ['password'], password: { user: { name: ks.username, domain: { id: 'default' }, password: ks.password } } },
      scope: { project: { name: ks.project, domain: { id: 'default' } } },
    } }),
  });
  const token = res.headers.get('x-subject-token');
  if (res.status !== 201 || !token) throw new Error(`Keystone refused the cinder user a token: ${res.status}`);
  return token;
}

/**
 * `keystone` may still be on its way (a promise): the database is prepared meanwhile, and the
 * services start once it is known.
 */
export async function startCinder(opts: { keystone?: CinderKeystone | Promise<CinderKeystone> } = {}): Promise<RealCinder> {
  await ensureDebian13(PACKAGES);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cinder-'));
  await fsp.mkdir(TGTD_SOCKETS, { recursive: true });
  for (const sub of ['state', 'locks', 'volumes']) await fsp.mkdir(path.join(dir, sub));
  const database = `cinder_${randomBytes(4).toString('hex')}`;
  const vhost = createVhost('ironic-ts-cinder');
  const cleanups: Array<() => Promise<void>> = [
    async () => vhost.remove(),
    () => mysql(`DROP DATABASE IF EXISTS ${database}`),
    () => fsp.rm(dir, { recursive: true, force: true }),
  ];
  const children = new Map<Service, ChildProcess>();
  const stopChild = async (service: Service) => {
    const child = children.get(service);
    children.delete(service);
    if (child?.pid && child.exitCode === null) await killGroup(child.pid);
  };
  const stopAll = async () => {
    for (const service of [...children.keys()].reverse()) await stopChild(service);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    await mysql(`CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
    const tgt = await startTgt();
    cleanups.push(() => tgt.stop());
    const l: Layout = {
      dir, apiPort: await freePort(), tgt,
      dbUrl: `mysql+pymysql://root@127.0.0.1:3306/${database}?charset=utf8mb4`,
      transportUrl: vhost.url,
    };
    await fsp.writeFile(path.join(dir, 'cinder.conf'), cinderConf(l));
    await fsp.writeFile(path.join(dir, 'api-paste.ini'), API_PASTE);
    const [file, args] = cinderCommand(l, 'manage', ['db', 'sync']);
    const synced = run(file, args, { env: ENV(l), timeout: 600_000 }).catch(async (err: Error) => {
      throw new Error(`cinder-manage db sync failed: ${err.message}\n${await logTail(l, 'manage')}`);
    });
    [l.keystone] = await Promise.all([opts.keystone, synced]);
    await fsp.writeFile(path.join(dir, 'cinder.conf'), cinderConf(l));
    for (const service of SERVICES) children.set(service, startService(l, service));
    await waitForApi(l, children.get('api')!);
    return handle(l, children, stopChild, stopAll);
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function handle(l: Layout, children: Map<Service, ChildProcess>, stopChild: (s: Service) => Promise<void>,
  stopAll: () => Promise<void>): RealCinder {
  const url = `http://127.0.0.1:${l.apiPort}`;
  const defaultToken = async (): Promise<string> => (l.keystone ? keystoneToken(l.keystone) : 'admin:admin');
  const api = async (method: string, route: string, token: string | undefined, body?: unknown): Promise<Record<string, any>> => {
    const res = await fetch(`${url}/v3${route}`, {
      method,
      headers: {
        'X-Auth-Token': token ?? await defaultToken(), 'OpenStack-API-Version': MICROVERSION, Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`Cinder ${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) as Record<string, any> : {};
  };
  const self: RealCinder = {
    url, dir: l.dir, tgt: l.tgt,
    async volume(id, token) {
      return (await api('GET', `/volumes/${id}`, token)).volume as CinderVolume;
    },
    async action(id, body, token) {
      await api('POST', `/volumes/${id}/action`, token, body);
    },
    async createVolume(input, token) {
      const created = (await api('POST', '/volumes', token, { volume: { size: input.size, name: input.name ?? null } })).volume as CinderVolume;
      const deadline = Date.now() + 120_000;
      for (;;) {
        const volume = await self.volume(created.id, token);
        if (volume.status === 'available') return volume;
        if (volume.status === 'error' || Date.now() > deadline) {
          throw new Error(`volume ${created.id} is ${volume.status}: ${await logTail(l, 'volume')}\n${await logTail(l, 'scheduler')}`);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    volumeFile: (id) => path.join(l.dir, 'volumes', `volume-${id}`),
    stopApi: () => stopChild('api'),
    async startApi() {
      const child = startService(l, 'api');
      children.set('api', child);
      await waitForApi(l, child);
    },
    stop: stopAll,
  };
  return self;
}
