/**
 * Fixtures for the snmp driver tests: Debian's snmpd on 127.0.0.1 (ephemeral port) with a `pass`
 * script serving APC MasterSwitch outlet objects whose state lives in a temp dir, Debian's
 * snmpget to read the agent independently, and a conductor with the snmp hardware type enabled.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import * as dgram from 'node:dgram';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startConductorService, ConductorService } from '../../../src/conductor/service';
import type { Task } from '../../../src/conductor/task';
import type { NodeRecord } from '../../../src/db/models';
import { SnmpClient } from '../../../src/protocols/snmp';
import { makeConf, sqliteDb, TempDb } from '../../conductor/support';

export const OUTLET_BASE = '1.3.6.1.4.1.318.1.1.4.4.2.1.3';
export const SYS_OBJECT_ID = '1.3.6.1.4.1.318.1.1.4.2.5';
export const V3_USER = 'ironic';
export const V3_AUTH_KEY = 'authpass123';
export const V3_PRIV_KEY = 'privpass123';

/** An outlet whose relay never moves: SETs are accepted and ignored. */
export const STUCK_OUTLET = 99;

/**
 * `pass` handler: GET prints the stored value (2 = off by default), SET stores it (3 = reboot ends
 * on) except on the stuck outlet; every SET is logged.
 */
const PASS_SCRIPT = `#!/bin/sh
DIR="$(dirname "$0")"
BASE=.${OUTLET_BASE}
case "$2" in "$BASE".*) ;; *) exit 0 ;; esac
n=\${2#"$BASE".}
case "$n" in *[!0-9]*|'') exit 0 ;; esac
f="$DIR/outlet-$n"
if [ "$1" = "-g" ]; then
  v=2; [ -f "$f" ] && v=$(cat "$f")
  printf '%s\\ninteger\\n%s\\n' "$2" "$v"
elif [ "$1" = "-s" ]; then
  [ "$3" = integer ] || { echo wrong-type; exit 0; }
  echo "$n $4" >> "$DIR/sets.log"
  [ "$n" = ${STUCK_OUTLET} ] && exit 0
  v=$4; [ "$v" = 3 ] && v=1
  echo "$v" > "$f"
fi
`;

function agentConfig(dir: string): string {
  return [
    // An APC MasterSwitch identity, for snmp_driver `auto`.
    `sysobjectid .${SYS_OBJECT_ID}`,
    'rocommunity public 127.0.0.1',
    'rwcommunity private 127.0.0.1',
    `createUser ${V3_USER} SHA ${V3_AUTH_KEY} AES ${V3_PRIV_KEY}`,
    `rwuser ${V3_USER} priv`,
    `pass .${OUTLET_BASE} /bin/sh ${path.join(dir, 'outlet.sh')}`,
    '',
  ].join('\n');
}

/** A UDP port the kernel just handed out (then released for the agent). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    sock.once('error', reject);
    sock.bind(0, '127.0.0.1', () => {
      const { port } = sock.address();
      sock.close(() => resolve(port));
    });
  });
}

export class SnmpAgent {
  private proc?: ChildProcess;
  port = 0;
  dir = '';

  async start(): Promise<void> {
    this.dir = await mkdtemp(path.join(tmpdir(), 'ironic-snmp-'));
    await writeFile(path.join(this.dir, 'outlet.sh'), PASS_SCRIPT, { mode: 0o755 });
    await writeFile(path.join(this.dir, 'snmpd.conf'), agentConfig(this.dir));
    this.port = await freeUdpPort();
    this.proc = spawn('/usr/sbin/snmpd', ['-f', '-Lo', '-C', '-c', path.join(this.dir, 'snmpd.conf'),
      `udp:127.0.0.1:${this.port}`], { stdio: 'ignore', env: this.env() });
    await this.waitReady();
  }

  /** Keeps snmpd / snmpget state and MIB noise out of /var/lib/snmp and the test output. */
  env(): NodeJS.ProcessEnv {
    return { ...process.env, SNMP_PERSISTENT_DIR: path.join(this.dir, 'persist'), HOME: this.dir, MIBS: '' };
  }

  private async waitReady(): Promise<void> {
    const client = new SnmpClient({ address: '127.0.0.1', port: this.port, version: '2c', readCommunity: 'public',
      timeoutMs: 200, retries: 0 });
    for (let i = 0; ; i += 1) {
      try {
        await client.get(`${OUTLET_BASE}.1`);
        return;
      } catch (err) {
        if (i >= 50 || this.proc?.exitCode !== null) throw err;
      }
    }
  }

  /** The stored value of an outlet (what the PDU "is"). */
  async outletValue(outlet: number): Promise<number> {
    try {
      return Number((await readFile(path.join(this.dir, `outlet-${outlet}`), 'utf8')).trim());
    } catch {
      return 2;
    }
  }

  /** Debian's snmpset, v2c (goes through the agent, whose `pass` results are cached otherwise). */
  async setOutletValue(outlet: number, value: number): Promise<void> {
    await promisify(execFile)('snmpset', ['-v2c', '-c', 'private', `127.0.0.1:${this.port}`,
      `.${OUTLET_BASE}.${outlet}`, 'i', String(value)], { env: this.env() });
  }

  /** Values SET on an outlet so far, oldest first. */
  async setsOn(outlet: number): Promise<number[]> {
    const text = await readFile(path.join(this.dir, 'sets.log'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map((l) => l.split(' ')).filter(([n]) => Number(n) === outlet)
      .map(([, v]) => Number(v));
  }

  /** Debian's snmpget, v2c: the outlet object's value as the agent reports it. */
  async snmpget(outlet: number): Promise<string> {
    const { stdout } = await promisify(execFile)('snmpget', ['-v2c', '-c', 'public', '-Oqv',
      `127.0.0.1:${this.port}`, `.${OUTLET_BASE}.${outlet}`], { env: this.env() });
    return stdout.trim();
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

export const SNMP_ENABLED = {
  enabled_hardware_types: ['fake-hardware', 'snmp'],
  enabled_management_interfaces: ['fake', 'noop'],
  enabled_power_interfaces: ['fake', 'snmp'],
};

export interface Lab {
  agent: SnmpAgent;
  svc: ConductorService;
  tmp: TempDb;
  stop(): Promise<void>;
}

export async function startLab(snmpConf: Record<string, number> = {}): Promise<Lab> {
  const agent = new SnmpAgent();
  await agent.start();
  const tmp = await sqliteDb();
  const conf = makeConf('snmp-host', {
    DEFAULT: SNMP_ENABLED,
    snmp: { power_timeout: 2, udp_transport_timeout: 1, udp_transport_retries: 2, ...snmpConf },
  });
  const svc = await startConductorService({ conf, db: tmp.db });
  return {
    agent, svc, tmp,
    async stop() {
      await svc.stop();
      await tmp.cleanup();
      await agent.stop();
    },
  };
}

export function driverInfo(port: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { snmp_driver: 'apc', snmp_address: '127.0.0.1', snmp_port: port, snmp_outlet: 3,
    snmp_version: '2c', snmp_community_read: 'public', snmp_community_write: 'private', ...extra };
}

export async function snmpNode(lab: Lab, info: Record<string, unknown>): Promise<NodeRecord> {
  return lab.svc.api.createNode({ driver: 'snmp', driver_info: info });
}

/** Runs fn holding an exclusive lock on the node, as the conductor's workers do. */
export function withTask<T>(lab: Lab, node: NodeRecord, fn: (task: Task) => Promise<T>): Promise<T> {
  return lab.svc.manager.tasks.run(node.uuid, { purpose: 'snmp driver test' }, fn);
}
