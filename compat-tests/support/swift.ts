/**
 * A real Swift (Debian's python3-swift, unmodified) for tests: account, container and object
 * servers plus a proxy, each one process on a free 127.0.0.1 port, with rings built by
 * swift-ring-builder (swift.cli.ringbuilder) in a scratch directory that also holds the
 * storage device (mount_check off; the filesystem must take user xattrs, as Swift's object
 * metadata lives there). The proxy authenticates with Keystone: keystonemiddleware's
 * auth_token validates tokens as the `swift` service user, keystoneauth maps project roles to
 * AUTH_<project id> accounts, and tempurl lets a signed URL read an object without a token.
 *
 *   const { ks, swift } = await startKeystoneAndSwift(); // catalog: object-store -> swift.catalogUrl
 *   await swift.stop(); await ks.stop();
 * or startSwift({ url, username, password, project }) behind a Keystone of your own.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startKeystone, type Keystone, type KeystoneUser, authtokenOptions } from './keystone';
import { freePort, stopProcess } from './target';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const SERVERS = ['account', 'container', 'object'] as const;
type Server = typeof SERVERS[number];

export interface SwiftKeystone {
  /** Keystone's root URL. */
  url: string;
  /** The service user auth_token validates tokens as (admin role in `project`). */
  username: string;
  password: string;
  project: string;
}

export interface RealSwift {
  /** The proxy's root, e.g. http://127.0.0.1:PORT. */
  url: string;
  /** The object-store endpoint for the Keystone catalog: `${url}/v1/AUTH_$(project_id)s`. */
  catalogUrl: string;
  /** The storage account of a Keystone project. */
  accountUrl(projectId: string): string;
  dir: string;
  stop(): Promise<void>;
}

/** One server: Swift's own swift_dir (swift.conf, rings), then run_wsgi as swift-*-server does, in one process. */
const SERVE_PY = `
import sys
from swift.common import utils
utils.set_swift_dir(sys.argv[1])
from swift.common.wsgi import run_wsgi
sys.exit(run_wsgi(sys.argv[2], sys.argv[3], verbose=True))
`;

/** swift-ring-builder's commands (JSON list of argument lists), run in one interpreter. */
const RING_PY = `
import json, sys
from swift.cli.ringbuilder import main
for args in json.loads(sys.argv[1]):
    try:
        main(['swift-ring-builder'] + args)
    except SystemExit as e:
        # 1 is a warning (e.g. one device, nothing to balance against), not a failure.
        if e.code not in (None, 0, 1):
            sys.exit('swift-ring-builder %s: exit %s' % (' '.join(args), e.code))
`;

const XATTR_PY = `
import os, sys
os.setxattr(sys.argv[1], 'user.swift.probe', b'1')
`;

function swiftConf(): string {
  return `[swift-hash]
swift_hash_path_prefix = ironic-ts-test
swift_hash_path_suffix = ironic-ts-test
[storage-policy:0]
name = Policy-0
default = yes
`;
}

function backendConf(dir: string, server: Server, port: number): string {
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
devices = ${path.join(dir, 'srv')}
mount_check = false
swift_dir = ${dir}
log_name = ${server}-server
log_level = INFO
[pipeline:main]
pipeline = ${server}-server
[app:${server}-server]
use = egg:swift#${server}
${server === 'container' ? '[container-sync]\n' : ''}`;
}

function proxyConf(dir: string, port: number, ks: SwiftKeystone): string {
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}
log_name = proxy-server
log_level = INFO
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging listing_formats tempurl authtoken keystoneauth copy dlo slo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:tempurl]
use = egg:swift#tempurl
[filter:copy]
use = egg:swift#copy
[filter:dlo]
use = egg:swift#dlo
[filter:slo]
use = egg:swift#slo
[filter:keystoneauth]
use = egg:swift#keystoneauth
operator_roles = admin, member
reseller_admin_role = ResellerAdmin
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
# tempurl requests carry no token: keystoneauth decides after tempurl.
delay_auth_decision = true
${authtokenOptions(ks)}`;
}

async function buildRings(dir: string, ports: Record<Server, number>): Promise<void> {
  const commands = SERVERS.flatMap((server) => {
    const builder = path.join(dir, `${server}.builder`);
    // Part power 6, one replica, min_part_hours 1: one device holds everything.
    return [['create', '6', '1', '1'], ['add', `r1z1-127.0.0.1:${ports[server]}/sdb1`, '100'], ['rebalance']]
      .map((args) => [builder, ...args]);
  });
  await run(PYTHON, ['-c', RING_PY, JSON.stringify(commands)],
    { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' }, timeout: 60_000 });
}

async function waitUp(url: string, children: ChildProcess[], dir: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (children.some((c) => c.exitCode !== null)) break;
    if (await fetch(url, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const logs = await Promise.all(['proxy', ...SERVERS].map((s) => fsp.readFile(path.join(dir, `${s}.log`), 'utf8').catch(() => '')));
  throw new Error(`Swift did not come up at ${url}:\n${logs.map((l) => l.slice(-1500)).join('\n')}`);
}

/** `keystone` may still be starting: the rings and the storage servers do not need it, only the proxy. */
export async function startSwift(keystone: SwiftKeystone | Promise<SwiftKeystone>): Promise<RealSwift> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-swift-'));
  const children: ChildProcess[] = [];
  try {
    return await configureAndServe(dir, keystone, children);
  } catch (err) {
    await Promise.all(children.map((c) => stopProcess(c)));
    await fsp.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function configureAndServe(dir: string, keystone: SwiftKeystone | Promise<SwiftKeystone>, children: ChildProcess[]): Promise<RealSwift> {
  const device = path.join(dir, 'srv', 'sdb1');
  await fsp.mkdir(device, { recursive: true });
  await run(PYTHON, ['-c', XATTR_PY, device]).catch((err: Error) => {
    throw new Error(`Swift needs user xattrs on ${os.tmpdir()}'s filesystem: ${err.message}`);
  });
  await fsp.writeFile(path.join(dir, 'swift.conf'), swiftConf());
  const ports = { account: await freePort(), container: await freePort(), object: await freePort() };
  const proxyPort = await freePort();
  await buildRings(dir, ports);
  const env = { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
  const start = async (name: string, conf: string, section: string): Promise<void> => {
    const file = path.join(dir, `${name}-server.conf`);
    await fsp.writeFile(file, conf);
    const log = await fsp.open(path.join(dir, `${name}.log`), 'w');
    children.push(spawn(PYTHON, ['-c', SERVE_PY, dir, file, section], { env, stdio: ['ignore', log.fd, log.fd] }));
    await log.close();
  };
  for (const server of SERVERS) await start(server, backendConf(dir, server, ports[server]), `${server}-server`);
  await start('proxy', proxyConf(dir, proxyPort, await keystone), 'proxy-server');
  const url = `http://127.0.0.1:${proxyPort}`;
  for (const server of SERVERS) await waitUp(`http://127.0.0.1:${ports[server]}/`, children, dir);
  await waitUp(`${url}/healthcheck`, children, dir);
  return {
    url, dir,
    catalogUrl: `${url}/v1/AUTH_$(project_id)s`,
    accountUrl: (projectId) => `${url}/v1/AUTH_${projectId}`,
    async stop() {
      await Promise.all(children.map((c) => stopProcess(c)));
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Keystone and a Swift behind it, started side by side: the `swift` service user (admin in
 * `service`) and the object-store endpoint in the catalog.
 */
export async function startKeystoneAndSwift(): Promise<{ ks: Keystone; swift: RealSwift }> {
  const ksStart = startKeystone();
  const swiftStart = startSwift(ksStart.then(async (ks) => {
    const user = await ks.createUser('swift', { project: 'service', projectRoles: ['admin'] });
    return { url: ks.url, username: user.name, password: user.password, project: 'service' };
  }));
  const [ks, swift] = await Promise.allSettled([ksStart, swiftStart]);
  if (ks.status === 'rejected' || swift.status === 'rejected') {
    if (ks.status === 'fulfilled') await ks.value.stop();
    if (swift.status === 'fulfilled') await swift.value.stop();
    throw ks.status === 'rejected' ? ks.reason : (swift as PromiseRejectedResult).reason;
  }
  await ks.value.registerService('object-store', 'swift', swift.value.catalogUrl);
  return { ks: ks.value, swift: swift.value };
}

/** Keystone and Swift for an ironic-ts that writes objects, with the users its tests log in as. */
export interface SwiftForIronic {
  ks: Keystone;
  swift: RealSwift;
  /** `ironic`, member of `service`: Swift lets it write. */
  ironicUser: KeystoneUser;
  /** `watcher`, reader of `service`: Swift refuses its writes. */
  readerUser: KeystoneUser;
  /** The `service` project, whose account is AUTH_<id>. */
  projectId: string;
  stop(): Promise<void>;
}

export async function startSwiftForIronic(): Promise<SwiftForIronic> {
  const { ks, swift } = await startKeystoneAndSwift();
  try {
    const ironicUser = await ks.createUser('ironic', { project: 'service', projectRoles: ['member'] });
    const readerUser = await ks.createUser('watcher', { project: 'service', projectRoles: ['reader'] });
    const projectId = await ks.createProject('service');
    return { ks, swift, ironicUser, readerUser, projectId, async stop() { await swift.stop(); await ks.stop(); } };
  } catch (err) {
    await swift.stop();
    await ks.stop();
    throw err;
  }
}
