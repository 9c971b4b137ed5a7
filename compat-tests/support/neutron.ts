/**
 * A real Neutron for tests: Debian 13's neutron-server 26 (python3-neutron, unmodified) run from
 * the project's Debian 13 root, ML2 with the flat and vlan type drivers, on its own MariaDB
 * database (127.0.0.1:3306, root) and a free 127.0.0.1 port, auth_strategy = noauth.
 *
 * Ports with binding:vnic_type=baremetal are bound by baremetal_test_mech.py (beside this file,
 * declared to stevedore through an entry point in the run's directory): bound (vif_type `other`)
 * when binding:profile.local_link_information is present, binding_failed otherwise, as
 * networking-baremetal binds them.
 *
 * Without Keystone every request acts as an admin (the run's policy file makes context_is_admin
 * always true), so Ironic's unauthenticated client ([neutron]auth_type = none) may bind ports;
 * Neutron then needs project_id in create bodies that have no project from a token, which the
 * helpers here give. The schema (neutron-db-manage upgrade heads, about a minute) is built once
 * per package version and kept as an SQL dump in $IRONIC_TS_CACHE_DIR/neutron; a run loads it in
 * a few seconds.
 *
 *   const neutron = await startNeutron();
 *   const net = await neutron.createNetwork({ name: 'prov', physnet: 'physnet1' });
 *   await neutron.stop();
 */
import { authtokenConf } from './keystone';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ensureDebian13, inDebian13 } from './debian13-root';
import { killGroup } from './process-group';
import { freePort } from './target';

const run = promisify(execFile);

export const NEUTRON_PACKAGES = ['python3-neutron', 'python3-pymysql'];
/** The physical network flat and vlan test networks sit on. */
export const PHYSNET = 'physnet1';
export const TEST_PROJECT = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';

const CACHE = process.env.IRONIC_TS_CACHE_DIR || '/var/cache/ironic-ts';
const ROOT = path.join(CACHE, 'debian13');
const MECH_DRIVER = path.join(__dirname, '..', '..', '..', 'compat-tests', 'support', 'neutron', 'baremetal_test_mech.py');
const MYSQL = ['-h', '127.0.0.1', '-P', '3306', '-u', 'root'];

export type NeutronRow = Record<string, unknown>;

export interface NetworkInput {
  name: string;
  /** flat (default) or vlan on PHYSNET. */
  type?: 'flat' | 'vlan';
  segmentationId?: number;
  physnet?: string;
  /** A subnet (with DHCP) in this CIDR; none when omitted. */
  cidr?: string;
}

/** What a test may add to the stock set-up; without options: no agents (transport fake:/, no RPC workers). */
export interface NeutronOptions {
  /** [DEFAULT]service_plugins, e.g. `segments` for routed networks (a subnet's segment_id); none by default. */
  servicePlugins?: readonly string[];
  /**
   * A real broker (a RabbitMQ vhost of the test's own): RPC and state report workers listen on it and
   * DHCP agents are notified of port changes, so agents (neutron-dhcp-agent, a Smart NIC's) can join.
   */
  transportUrl?: string;
  /** [DEFAULT]agent_down_time: seconds after its last state report an agent is shown dead. */
  agentDownTime?: number;
  /** ML2 mechanism drivers after baremetal_test, e.g. openvswitch (which binds Smart NIC ports to an agent's host). */
  extraMechanismDrivers?: readonly string[];
}

/** Neutron behind a Keystone: keystonemiddleware validates tokens as this service user. */
export interface NeutronKeystone {
  url: string;
  username: string;
  password: string;
  project: string;
  /** A token the helpers of RealNeutron send (an admin's). */
  token(): Promise<string>;
}

export interface RealNeutron {
  /** http://127.0.0.1:PORT: Neutron's root, as [neutron]endpoint_override takes it. */
  url: string;
  dir: string;
  /** An admin request to `/v2.0${apiPath}`; throws on a non-2xx answer. */
  api<T = NeutronRow>(method: string, apiPath: string, body?: unknown): Promise<T>;
  createNetwork(input: NetworkInput): Promise<NeutronRow>;
  /** A port on the network, as a tenant VIF the way Nova makes one (no binding yet). */
  createPort(networkId: string, extra?: NeutronRow): Promise<NeutronRow>;
  showPort(id: string): Promise<NeutronRow | null>;
  listPorts(query?: Record<string, string>): Promise<NeutronRow[]>;
  createSecurityGroup(name: string): Promise<NeutronRow>;
  /** neutron-server killed (an outage); its database and port are kept for restart(). */
  kill(): Promise<void>;
  /** neutron-server started again after kill(), on the same port and database. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Neutron's stock paste pipeline (neutron-common's /etc/neutron/api-paste.ini, not installed here). */
const API_PASTE = `[composite:neutron]
use = egg:Paste#urlmap
/: neutronversions_composite
/v2.0: neutronapi_v2_0
[composite:neutronapi_v2_0]
use = call:neutron.auth:pipeline_factory
noauth = cors http_proxy_to_wsgi request_id catch_errors extensions neutronapiapp_v2_0
keystone = cors http_proxy_to_wsgi request_id catch_errors authtoken keystonecontext extensions neutronapiapp_v2_0
[composite:neutronversions_composite]
use = call:neutron.auth:pipeline_factory
noauth = cors http_proxy_to_wsgi neutronversions
keystone = cors http_proxy_to_wsgi neutronversions
[filter:request_id]
paste.filter_factory = oslo_middleware:RequestId.factory
[filter:catch_errors]
paste.filter_factory = oslo_middleware:CatchErrors.factory
[filter:cors]
paste.filter_factory = oslo_middleware.cors:filter_factory
oslo_config_project = neutron
[filter:http_proxy_to_wsgi]
paste.filter_factory = oslo_middleware.http_proxy_to_wsgi:HTTPProxyToWSGI.factory
[filter:keystonecontext]
paste.filter_factory = neutron.auth:NeutronKeystoneContext.factory
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
[filter:extensions]
paste.filter_factory = neutron.api.extensions:plugin_aware_extension_middleware_factory
[app:neutronversions]
paste.app_factory = neutron.pecan_wsgi.app:versions_factory
[app:neutronapiapp_v2_0]
paste.app_factory = neutron.api.v2.router:APIRouter.factory
`;


function rpcConf(opts: NeutronOptions): string {
  if (!opts.transportUrl) {
    return 'rpc_workers = 0\nrpc_state_report_workers = 0\ntransport_url = fake:/\ndhcp_agent_notification = false';
  }
  return `rpc_workers = 1\nrpc_state_report_workers = 1\ntransport_url = ${opts.transportUrl}\ndhcp_agent_notification = true`;
}

function neutronConf(dir: string, port: number, dbUrl: string, ks?: NeutronKeystone, opts: NeutronOptions = {}): string {
  return `[DEFAULT]
api_paste_config = ${dir}/api-paste.ini
bind_host = 127.0.0.1
bind_port = ${port}
core_plugin = ml2
service_plugins = ${(opts.servicePlugins ?? []).join(',')}
auth_strategy = ${ks ? 'keystone' : 'noauth'}
api_workers = 1
${rpcConf(opts)}
${opts.agentDownTime !== undefined ? `agent_down_time = ${opts.agentDownTime}\n` : ''}notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
state_path = ${dir}/state
log_file = ${dir}/neutron.log
debug = false
[database]
connection = ${dbUrl}
[oslo_concurrency]
lock_path = ${dir}/locks
[oslo_policy]
policy_file = ${dir}/policy.yaml
${ks ? '' : '# The legacy rules, which context_is_admin governs.\nenforce_new_defaults = false\nenforce_scope = false\n'}[ml2]
type_drivers = flat,vlan
tenant_network_types =
mechanism_drivers = ${['baremetal_test', ...opts.extraMechanismDrivers ?? []].join(',')}
extension_drivers = port_security
[ml2_type_flat]
flat_networks = *
[ml2_type_vlan]
network_vlan_ranges = ${PHYSNET}:100:199
${ks ? authtokenConf(ks) : ''}`;
}

/** Declares the test mechanism driver to stevedore (entry points are read from *.dist-info). */
async function writeDriverPackage(dir: string): Promise<string> {
  const site = path.join(dir, 'site');
  const info = path.join(site, 'ironic_ts_neutron_test-1.0.dist-info');
  await fsp.mkdir(info, { recursive: true });
  await fsp.copyFile(MECH_DRIVER, path.join(site, 'baremetal_test_mech.py'));
  await fsp.writeFile(path.join(info, 'METADATA'), 'Metadata-Version: 2.1\nName: ironic-ts-neutron-test\nVersion: 1.0\n');
  await fsp.writeFile(path.join(info, 'entry_points.txt'),
    '[neutron.ml2.mechanism_drivers]\nbaremetal_test = baremetal_test_mech:BaremetalTestMechanismDriver\n');
  return site;
}

function mysql(args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('/usr/bin/mysql', [...MYSQL, ...args], { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, _out, stderr) => (err ? reject(new Error(`mysql ${args.join(' ')}: ${stderr || err.message}`)) : resolve()));
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function neutronVersion(): Promise<string> {
  const { stdout } = await run('chroot', [ROOT, 'dpkg-query', '-W', '-f=${Version}', 'python3-neutron']);
  return stdout.trim().replace(/[^A-Za-z0-9.+~-]/g, '_');
}

/** `python3 CODE args` in the Debian 13 root with dir bound and the test driver importable. */
function python(dir: string, site: string, code: string, args: string[]): [string, string[], NodeJS.ProcessEnv] {
  const [file, argv] = inDebian13([dir], '/usr/bin/python3', ['-c', code, ...args]);
  return [file, argv, { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: dir, LANG: 'C.UTF-8', PYTHONPATH: site }];
}

const DB_MANAGE = 'import sys; from neutron.db.migration.cli import main; sys.argv[0] = "neutron-db-manage"; sys.exit(main())';
const SERVER = 'import sys; from neutron.cmd.eventlet.server import main; sys.argv[0] = "neutron-server"; sys.exit(main())';

function confArgs(dir: string): string[] {
  return ['--config-file', path.join(dir, 'neutron.conf')];
}

/** The schema as an SQL dump, built once per python3-neutron version. */
async function schemaDump(dir: string, site: string): Promise<string> {
  const file = path.join(CACHE, 'neutron', `schema-${await neutronVersion()}.sql`);
  if (fs.existsSync(file)) return file;
  const db = `neutron_schema_${randomBytes(4).toString('hex')}`;
  await mysql(['-e', `CREATE DATABASE ${db}`]);
  try {
    await fsp.writeFile(path.join(dir, 'neutron.conf'), neutronConf(dir, 0, `mysql+pymysql://root@127.0.0.1:3306/${db}`));
    const [cmd, argv, env] = python(dir, site, DB_MANAGE, [...confArgs(dir), 'upgrade', 'heads']);
    await run(cmd, argv, { env, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 }).catch((err: Error & { stderr?: string }) => {
      throw new Error(`neutron-db-manage upgrade heads failed: ${String(err.stderr ?? err.message).slice(-3000)}`);
    });
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await run('/usr/bin/mysqldump', [...MYSQL, '--skip-comments', '--result-file', tmp, db], { timeout: 300_000 });
    await fsp.rename(tmp, file);
  } finally {
    await mysql(['-e', `DROP DATABASE IF EXISTS ${db}`]);
  }
  return file;
}

async function waitUp(url: string, pid: number, logFile: string, auth: () => Promise<Record<string, string>>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/v2.0/networks`, { headers: await auth(), signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (ok) return;
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const log = await fsp.readFile(logFile, 'utf8').catch(() => '');
  throw new Error(`neutron-server did not come up at ${url}:\n${log.slice(-4000)}`);
}

/** Until nothing answers at url (an API worker may outlive its parent by a moment). */
async function waitDown(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answered = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(() => true, () => false);
    if (!answered) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`neutron-server still answers at ${url} after it was killed`);
}

/**
 * Without `keystone`, noauth with every caller an admin; with it, keystonemiddleware and Neutron's
 * default policies (a token with the admin role is an admin).
 */
export async function startNeutron(keystone?: NeutronKeystone, opts: NeutronOptions = {}): Promise<RealNeutron> {
  await ensureDebian13(NEUTRON_PACKAGES);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'neutron-'));
  await Promise.all(['state', 'locks'].map((d) => fsp.mkdir(path.join(dir, d))));
  // Without Keystone every caller is an admin: the noauth peer lets Ironic bind ports as a cloud's Neutron lets its service user.
  await fsp.writeFile(path.join(dir, 'policy.yaml'), keystone ? '{}\n' : '"context_is_admin": "@"\n');
  await fsp.writeFile(path.join(dir, 'api-paste.ini'), API_PASTE);
  const site = await writeDriverPackage(dir);
  const db = `neutron_${randomBytes(6).toString('hex')}`;
  let pid = 0;
  try {
    const dump = await schemaDump(dir, site);
    await mysql(['-e', `CREATE DATABASE ${db}`]);
    await mysql([db], await fsp.readFile(dump, 'utf8'));
    const port = await freePort();
    await fsp.writeFile(path.join(dir, 'neutron.conf'), neutronConf(dir, port, `mysql+pymysql://root@127.0.0.1:3306/${db}`, keystone, opts));
    const url = `http://127.0.0.1:${port}`;
    const auth = async (): Promise<Record<string, string>> => (keystone ? { 'X-Auth-Token': await keystone.token() } : {});
    const launch = async (): Promise<void> => {
      pid = spawnServer(dir, site);
      await waitUp(url, pid, path.join(dir, 'neutron.log'), auth);
    };
    await launch();
    const kill = async (): Promise<void> => {
      if (pid) await killGroup(pid);
      pid = 0;
      await waitDown(url);
    };
    return neutronHandle(url, dir, auth, { kill, restart: launch, stop: async () => {
      await kill();
      await mysql(['-e', `DROP DATABASE IF EXISTS ${db}`]).catch(() => undefined);
      await fsp.rm(dir, { recursive: true, force: true });
    } });
  } catch (err) {
    if (pid) await killGroup(pid);
    await mysql(['-e', `DROP DATABASE IF EXISTS ${db}`]).catch(() => undefined);
    throw err;
  }
}

/** neutron-server in the background, its output appended to the run's stdout.log; its pid. */
function spawnServer(dir: string, site: string): number {
  const [cmd, argv, env] = python(dir, site, SERVER, confArgs(dir));
  const out = fs.openSync(path.join(dir, 'stdout.log'), 'a');
  const child = spawn(cmd, argv, { env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  return child.pid ?? 0;
}

interface ServerControl {
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function neutronHandle(url: string, dir: string, auth: () => Promise<Record<string, string>>, control: ServerControl): RealNeutron {
  async function api<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}/v2.0${apiPath}`, {
      method, headers: { 'Content-Type': 'application/json', ...await auth() }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`neutron ${method} ${apiPath}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
  return {
    url, dir, api, ...control,
    async createNetwork(input) {
      const type = input.type ?? 'flat';
      const network = (await api<{ network: NeutronRow }>('POST', '/networks', { network: {
        name: input.name, project_id: TEST_PROJECT, 'provider:network_type': type,
        'provider:physical_network': input.physnet ?? PHYSNET,
        ...(type === 'vlan' && input.segmentationId !== undefined ? { 'provider:segmentation_id': input.segmentationId } : {}),
      } })).network;
      if (input.cidr) {
        await api('POST', '/subnets', { subnet: {
          network_id: network.id, project_id: TEST_PROJECT, ip_version: input.cidr.includes(':') ? 6 : 4, cidr: input.cidr, enable_dhcp: true,
        } });
      }
      return network;
    },
    async createPort(networkId, extra = {}) {
      return (await api<{ port: NeutronRow }>('POST', '/ports', { port: { network_id: networkId, project_id: TEST_PROJECT, ...extra } })).port;
    },
    async showPort(id) {
      const res = await fetch(`${url}/v2.0/ports/${encodeURIComponent(id)}`, { headers: await auth() });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`neutron GET /ports/${id}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { port: NeutronRow }).port;
    },
    async listPorts(query = {}) {
      const qs = new URLSearchParams(query).toString();
      return (await api<{ ports: NeutronRow[] }>('GET', `/ports${qs ? `?${qs}` : ''}`)).ports;
    },
    async createSecurityGroup(name) {
      return (await api<{ security_group: NeutronRow }>('POST', '/security-groups', { security_group: { name, project_id: TEST_PROJECT } })).security_group;
    },
  };
}
