/**
 * A scale-out ironic-ts deployment on this machine: a fresh MariaDB database migrated with
 * `ironic-dbsync upgrade`, one `ironic-api` and N `ironic-conductor` processes sharing it and
 * RabbitMQ (rpc_transport = oslo), fake-hardware, with short periodic intervals so that
 * take-over and timeouts happen within a test.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../support/target';
import { createDatabase, dropDatabase } from './mariadb';
import { sleep } from './ports';
import { FAKE_HARDWARE_INTERFACES } from '../support/target';

const REPO = path.resolve(__dirname, '..', '..', '..');
const CMD = (name: string) => path.join(REPO, 'dist', 'src', 'cmd', `${name}.js`);

export class ClusterStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterStartError';
  }
}

/** Periodic settings (seconds) every process gets; the test's timeouts are derived from them. */
export const TIMING = {
  heartbeatInterval: 1,
  heartbeatTimeout: 6,
  checkProvisionStateInterval: 2,
  syncLocalStateInterval: 2,
  deployCallbackTimeout: 20,
  hashRingResetInterval: 2,
  rpcResponseTimeout: 20,
};

function clusterConf(host: string, port: number, dbUrl: string, dir: string, extra: string): string {
  return `[DEFAULT]
auth_strategy = noauth
host = ${host}
rpc_transport = oslo
transport_url = rabbit://guest:guest@127.0.0.1:5672/
rpc_response_timeout = ${TIMING.rpcResponseTimeout}
hash_ring_reset_interval = ${TIMING.hashRingResetInterval}
${FAKE_HARDWARE_INTERFACES}
state_path = ${dir}/state
[api]
host_ip = 127.0.0.1
port = ${port}
[database]
connection = ${dbUrl}
[dhcp]
dhcp_provider = none
[conductor]
automated_clean = false
heartbeat_interval = ${TIMING.heartbeatInterval}
heartbeat_timeout = ${TIMING.heartbeatTimeout}
check_provision_state_interval = ${TIMING.checkProvisionStateInterval}
sync_local_state_interval = ${TIMING.syncLocalStateInterval}
deploy_callback_timeout = ${TIMING.deployCallbackTimeout}
periodic_max_workers = 50
${extra}
`;
}

export class Cluster {
  readonly url: string;
  private readonly procs = new Map<string, ChildProcess>();

  private constructor(readonly dir: string, readonly dbName: string, readonly dbUrl: string, readonly port: number,
    private readonly extra: string) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Creates the database, migrates it, starts the API and the named conductors. */
  static async start(conductors: string[], extra = ''): Promise<Cluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-scaleout-'));
    const dbName = `ironicts_scaleout_${randomBytes(4).toString('hex')}`;
    const cluster = new Cluster(dir, dbName, createDatabase(dbName), await freePort(), extra);
    try {
      execFileSync(process.execPath, [CMD('ironic-dbsync'), '--config-file', cluster.confFile('dbsync'), 'upgrade'],
        { stdio: 'pipe', timeout: 120000 });
      // One at a time: each conductor registers itself before the next one starts.
      for (const host of conductors) await cluster.startConductor(host);
      await cluster.startApi();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  private confFile(host: string): string {
    const file = path.join(this.dir, `${host}.conf`);
    fs.writeFileSync(file, clusterConf(host, this.port, this.dbUrl, this.dir, this.extra));
    return file;
  }

  logOf(name: string): string {
    const file = path.join(this.dir, `${name}.log`);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  private spawnProcess(name: string, cmd: string): ChildProcess {
    const log = fs.openSync(path.join(this.dir, `${name}.log`), 'a');
    const child = spawn(process.execPath, [CMD(cmd), '--config-file', this.confFile(name)], { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    this.procs.set(name, child);
    return child;
  }

  async startConductor(host: string): Promise<void> {
    const child = this.spawnProcess(host, 'ironic-conductor');
    await this.waitFor(host, child, () => this.logOf(host).includes(`Conductor ${host} started`));
  }

  private async startApi(): Promise<void> {
    const child = this.spawnProcess('api', 'ironic-api');
    await this.waitFor('api', child, async () => {
      try {
        return (await fetch(`${this.url}/v1`)).ok;
      } catch {
        return false;
      }
    });
  }

  private async waitFor(name: string, child: ChildProcess, ready: () => boolean | Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (await ready()) return;
      await sleep(100);
    }
    throw new ClusterStartError(`${name} did not start (exit ${child.exitCode}):\n${this.logOf(name).slice(-3000)}`);
  }

  /** True while the named process has not exited. */
  alive(name: string): boolean {
    const child = this.procs.get(name);
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  async kill(name: string, signal: NodeJS.Signals): Promise<void> {
    const child = this.procs.get(name);
    if (!child || !this.alive(name)) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await Promise.race([exited, sleep(10000)]);
    if (this.alive(name)) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** Stops every process, drops the database, removes the scratch folder (logs are kept on request). */
  async stop(keepLogs = false): Promise<void> {
    await Promise.all([...this.procs.keys()].map((name) => this.kill(name, 'SIGTERM')));
    try {
      dropDatabase(this.dbName);
    } finally {
      if (!keepLogs) fs.rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
