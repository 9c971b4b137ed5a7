/**
 * dnsmasq DHCP provider. dnsmasq watches [dnsmasq]dhcp_hostsdir and
 * dhcp_optsdir with inotify, so each node gets:
 *  - one host file per PXE MAC: `<mac>,set:<tag>,set:ironic` tagging the
 *    client with a per-node tag (or `<mac>,ignore` once cleaned), and
 *  - one options file `ironic-<node uuid>.conf` with `tag:<tag>,<opt>,<value>`
 *    lines, applied only to clients carrying that tag.
 * Files are written to a dot-named temp file and renamed, because dnsmasq
 * skips dotfiles and would otherwise read half-written files.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { log } from '../common/log';
import type { DhcpOption } from './boot-options';
import type { DhcpNode, DhcpProvider, DhcpUpdateResult } from './provider';

export interface DnsmasqConf {
  /** [dnsmasq]dhcp_optsdir */
  dhcp_optsdir: string;
  /** [dnsmasq]dhcp_hostsdir */
  dhcp_hostsdir: string;
  /** [dnsmasq]dhcp_leasefile */
  dhcp_leasefile?: string;
  /** When set, dnsmasq gets SIGHUP after each change (needed for deletions). */
  pid_file?: string;
}

export class DnsmasqError extends Error {
  override readonly name = 'DnsmasqError';
}

const MAC_RE = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

function checkMac(mac: string): string {
  if (!MAC_RE.test(mac)) throw new DnsmasqError(`invalid MAC address ${mac}`);
  return mac.toLowerCase();
}

/** Option lines must not smuggle extra config: no newlines anywhere. */
function checkValue(v: string): string {
  if (/[\r\n]/.test(v)) throw new DnsmasqError('newline in DHCP option');
  return v;
}

/**
 * IPv6 option numbers need dnsmasq's `option6:` prefix; any leading
 * `tag:` / `!175` selectors are kept in front of it.
 */
function dnsmasqOptionName(opt: DhcpOption): string {
  if (opt.ip_version !== 6) return opt.opt_name;
  const parts = opt.opt_name.split(',');
  const last = parts.pop()!;
  return [...parts, /^\d+$/.test(last) ? `option6:${last}` : last].join(',');
}

function optionsFileText(tag: string, options: DhcpOption[]): string {
  return options.map((o) => `tag:${tag},${checkValue(dnsmasqOptionName(o))},${checkValue(o.opt_value)}\n`).join('');
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fsp.writeFile(tmp, text, { mode: 0o644 });
  await fsp.rename(tmp, file);
}

export class DnsmasqDhcpProvider implements DhcpProvider {
  readonly name = 'dnsmasq';

  constructor(private readonly conf: DnsmasqConf) {}

  optFilePath(nodeUuid: string): string {
    return path.join(this.conf.dhcp_optsdir, `ironic-${nodeUuid}.conf`);
  }

  hostFilePath(mac: string): string {
    return path.join(this.conf.dhcp_hostsdir, `ironic-${mac.toLowerCase()}.conf`);
  }

  async updateDhcpOpts(node: DhcpNode, options: DhcpOption[]): Promise<DhcpUpdateResult> {
    const tag = node.dnsmasq_tag ?? randomUUID();
    const macs = [...new Set(node.pxe_macs.map(checkMac))];
    await fsp.mkdir(this.conf.dhcp_optsdir, { recursive: true });
    await fsp.mkdir(this.conf.dhcp_hostsdir, { recursive: true });
    // Options first, so a client tagged by a new host file already finds them.
    await writeAtomic(this.optFilePath(node.uuid), optionsFileText(tag, options));
    for (const mac of macs) await writeAtomic(this.hostFilePath(mac), `${mac},set:${tag},set:ironic\n`);
    await this.reload();
    return { tag };
  }

  /** Hosts flip to `ignore` (picked up without a reload); the option file goes. */
  async cleanDhcpOpts(node: DhcpNode): Promise<void> {
    for (const mac of new Set(node.pxe_macs.map(checkMac))) await writeAtomic(this.hostFilePath(mac), `${mac},ignore\n`);
    await fsp.rm(this.optFilePath(node.uuid), { force: true });
    await this.reload();
  }

  /** Lease lines are `<expiry> <mac> <ip> <hostname> <client-id>`. */
  async getIpAddresses(node: DhcpNode): Promise<string[]> {
    if (!this.conf.dhcp_leasefile) return [];
    const macs = new Set(node.pxe_macs.map((m) => m.toLowerCase()));
    const text = await fsp.readFile(this.conf.dhcp_leasefile, 'utf8').catch(() => '');
    const out: string[] = [];
    for (const line of text.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length >= 3 && macs.has(f[1]!.toLowerCase())) out.push(f[2]!);
    }
    return out;
  }

  supportsIpxeTag(): boolean {
    return true;
  }

  /** SIGHUP makes dnsmasq drop deleted entries; additions need none. */
  async reload(): Promise<boolean> {
    if (!this.conf.pid_file) return false;
    const raw = await fsp.readFile(this.conf.pid_file, 'utf8').catch(() => '');
    const pid = Number(raw.trim());
    if (!Number.isInteger(pid) || pid <= 1) throw new DnsmasqError(`no valid pid in ${this.conf.pid_file}`);
    try {
      process.kill(pid, 'SIGHUP');
    } catch (err) {
      // A dnsmasq that is not running has nothing stale to drop: it reads both directories when
      // it starts again. Failing the node's operation for it would leave the node in error.
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') {
        log.warning(`dnsmasq (pid ${pid} in ${this.conf.pid_file}) is not running; its host and option files are read when it starts`);
        return false;
      }
      throw new DnsmasqError(`cannot signal dnsmasq pid ${pid}: ${(err as Error).message}`);
    }
    return true;
  }
}
