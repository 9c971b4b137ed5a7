/**
 * Debian's snmpd on 127.0.0.1 (ephemeral port) playing a PDU: one `pass_persist` script per layout in
 * pdu-layouts.ts keeps each outlet's status in a temp dir, applies SETs the way the vendor's MIB
 * says, and logs every SET. Debian's snmpget / snmpset read and switch it independently of the
 * driver under test. v1/v2c communities public (read) and private (write); a v3 authPriv user.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import * as dgram from 'node:dgram';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { SnmpClient } from '../../../src/protocols/snmp';
import { APC_OUTLET, PDU_LAYOUTS, statusOid, layout, type PduAction, type PduLayout } from './pdu-layouts';

export const SYS_OBJECT_ID = '1.3.6.1.4.1.318.1.1.4.2.5';
export const V3_USER = 'ironic';
export const V3_AUTH_KEY = 'authpass123';
export const V3_PRIV_KEY = 'privpass123';

/** An outlet whose relay never moves, on every layout: SETs are accepted and ignored. */
export const STUCK_OUTLET = 99;

const run = promisify(execFile);

/** Shell text of one action rule: a SET on the column with a matching value updates the outlet. */
function actionRule(l: PduLayout, a: PduAction): string {
  const becomes = a.becomes === '*' ? '"$value"' : String(a.becomes);
  const next = a.pending === undefined ? becomes : `"${a.pending} "${becomes}`;
  return `    n=$(index "$oid" .${a.column} "${l.suffix}")
    if [ -n "$n" ]; then
      column=1
      case "$value" in ${a.value}) [ "$n" = ${STUCK_OUTLET} ] || echo ${next} > "$DIR/${l.driver}-$n"; echo DONE; return ;; esac
    fi`;
}

/**
 * The `pass_persist` handler for one layout (plain `pass` would not do: snmpd caches the output of
 * a repeated identical command, so a relay in transit would look stuck). A status file holds the
 * value the next GET reads, optionally followed by the value it settles to afterwards.
 */
/** snmpd ends each SET with an empty line, which is skipped like any unknown command. */
function passScript(l: PduLayout): string {
  const actionColumns = [...new Set(l.actions.map((a) => a.column))].filter((c) => c !== l.status);
  const idle = actionColumns.map((c) => `  [ -n "$(index "$1" .${c} "${l.suffix}")" ] && { printf '%s\\ninteger\\n%s\\n' "$1" "${l.idle ?? 0}"; return; }`);
  return `#!/bin/sh
DIR="$(dirname "$0")"
# index OID COLUMN SUFFIX: the outlet number when OID is COLUMN.<n>SUFFIX.
index() {
  case "$1" in "$2".*"$3") ;; *) return 0 ;; esac
  n=\${1#"$2".}; n=\${n%"$3"}
  case "$n" in *[!0-9]*|'') return 0 ;; esac
  echo "$n"
}
get() {
${idle.join('\n')}
  n=$(index "$1" .${l.status} "${l.suffix}")
  [ -n "$n" ] || { echo NONE; return; }
  f="$DIR/${l.driver}-$n"
  now=${l.initial} next=
  [ -f "$f" ] && read -r now next < "$f"
  [ -n "$next" ] && echo "$next" > "$f"
  printf '%s\\ninteger\\n%s\\n' "$1" "$now"
}
set_() {
  oid=$1 value=$3 column=
  [ "$2" = integer ] || { echo wrong-type; return; }
  echo "$oid $value" >> "$DIR/sets.log"
${l.actions.map((a) => actionRule(l, a)).join('\n')}
  if [ -n "$column" ]; then echo wrong-value; else echo not-writable; fi
}
while read -r cmd; do
  case "$cmd" in
    PING) echo PONG ;;
    get) read -r oid; get "$oid" ;;
    getnext) read -r oid; echo NONE ;;
    set) read -r oid; read -r type value; set_ "$oid" "$type" "$value" ;;
  esac
done
`;
}

function agentConfig(dir: string, layouts: readonly PduLayout[]): string {
  return [
    // An APC MasterSwitch identity, for snmp_driver `auto`.
    `sysobjectid .${SYS_OBJECT_ID}`,
    'rocommunity public 127.0.0.1',
    'rwcommunity private 127.0.0.1',
    `createUser ${V3_USER} SHA ${V3_AUTH_KEY} AES ${V3_PRIV_KEY}`,
    `rwuser ${V3_USER} priv`,
    ...layouts.map((l) => `pass_persist .${l.subtree} /bin/sh ${path.join(dir, `pdu-${l.driver}.sh`)}`),
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

  async start(layouts: readonly PduLayout[] = PDU_LAYOUTS): Promise<void> {
    this.dir = await mkdtemp(path.join(tmpdir(), 'ironic-snmp-'));
    for (const l of layouts) await writeFile(path.join(this.dir, `pdu-${l.driver}.sh`), passScript(l), { mode: 0o755 });
    await writeFile(path.join(this.dir, 'snmpd.conf'), agentConfig(this.dir, layouts));
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
        await client.get('1.3.6.1.2.1.1.2.0');
        return;
      } catch (err) {
        if (i >= 50 || this.proc?.exitCode !== null) throw err;
      }
    }
  }

  /** The value an outlet settles to, from the agent's files (what the PDU "is"). */
  async statusValue(driver: string, outlet: number): Promise<number> {
    try {
      const words = (await readFile(path.join(this.dir, `${driver}-${outlet}`), 'utf8')).trim().split(/\s+/);
      return Number(words[words.length - 1]);
    } catch {
      return layout(driver).initial;
    }
  }

  /** Debian's snmpget, v2c: an object's value as the agent reports it. */
  async snmpgetOid(oid: string): Promise<string> {
    const { stdout } = await run('snmpget', ['-v2c', '-c', 'public', '-Oqv', `127.0.0.1:${this.port}`, `.${oid}`],
      { env: this.env() });
    return stdout.trim();
  }

  /** Debian's snmpset, v2c: writes an INTEGER through the agent, as someone at the PDU would. */
  async snmpsetOid(oid: string, value: number): Promise<void> {
    await run('snmpset', ['-v2c', '-c', 'private', `127.0.0.1:${this.port}`, `.${oid}`, 'i', String(value)],
      { env: this.env() });
  }

  /** Reads an outlet's status object with snmpget until it settles (no relay in transit). */
  async settledStatus(driver: string, outlet: number): Promise<number> {
    const l = layout(driver);
    let value = Number(await this.snmpgetOid(statusOid(l, outlet)));
    for (let i = 0; i < 3 && value !== l.on && value !== l.off; i += 1) value = Number(await this.snmpgetOid(statusOid(l, outlet)));
    return value;
  }

  /** Every SET the agent accepted for processing, oldest first, as `OID=value`. */
  async writes(): Promise<string[]> {
    const text = await readFile(path.join(this.dir, 'sets.log'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map((line) => line.replace(/^\./, '').replace(' ', '='));
  }

  /** APC MasterSwitch outlet: its stored value. */
  async outletValue(outlet: number): Promise<number> {
    return this.statusValue('apc', outlet);
  }

  /** APC MasterSwitch outlet: set through the agent with snmpset. */
  async setOutletValue(outlet: number, value: number): Promise<void> {
    await this.snmpsetOid(`${APC_OUTLET}.${outlet}`, value);
  }

  /** APC MasterSwitch outlet: values SET on it so far, oldest first. */
  async setsOn(outlet: number): Promise<number[]> {
    const prefix = `${APC_OUTLET}.${outlet}=`;
    return (await this.writes()).filter((w) => w.startsWith(prefix)).map((w) => Number(w.slice(prefix.length)));
  }

  /** APC MasterSwitch outlet: snmpget's view of it. */
  async snmpget(outlet: number): Promise<string> {
    return this.snmpgetOid(`${APC_OUTLET}.${outlet}`);
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
