/**
 * How the ssh interfaces reach a node (Ironic's ssh.py, Newton): driver_info parsed with its
 * messages, one SSH session per operation with the host key checked first, the VM found on the
 * hypervisor by the node's port MACs, and hypervisor commands whose failure is SSHCommandFailed.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  InvalidParameterValue, MissingParameterValue, NodeNotFound, SSHCommandFailed, SSHConnectFailed,
} from '../../common/errors';
import { log } from '../../common/log';
import { lookupTable } from '../../common/own-keys';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import * as states from '../../common/states';
import type { Config } from '../../conf/config';
import { checkKnownHosts, sha256Fingerprint } from '../../protocols/ssh/known-hosts';
import { openSsh, SshConnectError, type SshSession } from '../../protocols/ssh/client';
import type { DriverTask } from '../base';
import { boolFromString } from '../../common/python/bool-from-string';
import { validateNetworkPort } from '../network-port';
import { commandSet, fill, VIRT_TYPES, type CommandSet, type VirtType } from './commands';

const REQUIRED_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  ssh_address: 'IP address or hostname of the node to ssh into. Required.',
  ssh_username: 'username to authenticate as. Required.',
  ssh_virt_type: 'virtualization software to use; one of vbox, virsh, vmware, parallels, xenserver. Required.',
});

/** COMMON_PROPERTIES of Ironic's driver, and the host key pin ironic-ts adds. */
export const SSH_PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  ...REQUIRED_PROPERTIES,
  ssh_key_contents: 'private key(s). One of this, ssh_key_filename, or ssh_password must be specified.',
  ssh_key_filename: '(list of) filename(s) of optional private key(s) for authentication. One of this, ' +
    'ssh_key_contents, or ssh_password must be specified.',
  ssh_password: 'password to use for authentication or for unlocking a private key. One of this, ' +
    'ssh_key_contents, or ssh_key_filename must be specified.',
  ssh_port: "port on the node to connect to; default is 22. Optional.",
  vbox_use_headless: 'True or False (Default). Optional. In the case of VirtualBox 3.2 and above, allows the ' +
    'user to use a headless remote VirtualBox machine.',
  ssh_host_key_fingerprint: "the hypervisor's host key as `ssh-keygen -lf` prints it (SHA256:...); when set, " +
    'only that key is accepted. Optional (ironic-ts); otherwise [ssh]known_hosts_file must list the host.',
});

interface SshDriverInfo {
  uuid: string;
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  virtType: VirtType;
  headless: boolean;
  hostKeyFingerprint?: string;
  commands: CommandSet;
}

function isVirtType(value: unknown): value is VirtType {
  return typeof value === 'string' && (VIRT_TYPES as readonly string[]).includes(value);
}

function credential(info: Record<string, unknown>): { password?: string; privateKey?: string } {
  const password = info.ssh_password;
  const keyContents = info.ssh_key_contents;
  const keyFile = info.ssh_key_filename;
  // Only one credential may be set (no precedence rules to get wrong).
  if ([password, keyContents, keyFile].filter((v) => Boolean(v)).length !== 1) {
    throw new InvalidParameterValue('SSHPowerDriver requires one and only one of ssh_password, ssh_key_contents ' +
      'and ssh_key_filename to be set.');
  }
  if (password) return { password: pyStr(password) };
  if (keyContents) return { privateKey: pyStr(keyContents) };
  try {
    return { privateKey: readFileSync(pyStr(keyFile), 'utf8') };
  } catch {
    throw new InvalidParameterValue(`SSH key file ${pyStr(keyFile)} not found.`);
  }
}

/** _parse_driver_info. */
export function parseSshDriverInfo(task: DriverTask): SshDriverInfo {
  const info = (task.node.driver_info ?? {}) as Record<string, unknown>;
  const missing = Object.keys(REQUIRED_PROPERTIES).filter((key) => !Object.hasOwn(info, key) || !info[key]);
  if (missing.length) {
    throw new MissingParameterValue(`SSHPowerDriver requires the following parameters to be set in node's ` +
      `driver_info: ${pyRepr(missing)}.`);
  }
  const port = validateNetworkPort(Object.hasOwn(info, 'ssh_port') ? info.ssh_port : 22, 'ssh_port');
  const virtType = info.ssh_virt_type;
  if (!isVirtType(virtType)) {
    throw new InvalidParameterValue(`SSHPowerDriver '${pyStr(virtType)}' is not a valid virt_type, `);
  }
  const headless = boolFromString(Object.hasOwn(info, 'vbox_use_headless') ? info.vbox_use_headless : false);
  const fingerprint = info.ssh_host_key_fingerprint;
  return {
    uuid: task.node.uuid,
    host: pyStr(info.ssh_address),
    port,
    username: pyStr(info.ssh_username),
    ...credential(info),
    virtType,
    headless,
    hostKeyFingerprint: fingerprint ? pyStr(fingerprint) : undefined,
    commands: commandSet(virtType, { headless, libvirtUri: task.ctx.conf.str('ssh', 'libvirt_uri') }),
  };
}

function knownHostsText(conf: Config): string {
  try {
    return readFileSync(conf.str('ssh', 'known_hosts_file'), 'utf8');
  } catch {
    return '';
  }
}

/** Whether to talk to a server offering `key`; the refusal's reason goes to `refusal`. */
function hostKeyVerifier(conf: Config, info: SshDriverInfo, refusal: { reason?: string }): (key: Buffer) => boolean {
  return (key) => {
    const fingerprint = sha256Fingerprint(key);
    if (info.hostKeyFingerprint !== undefined) {
      if (fingerprint === info.hostKeyFingerprint) return true;
      refusal.reason = `host key ${fingerprint} does not match ssh_host_key_fingerprint`;
      return false;
    }
    const verdict = checkKnownHosts(knownHostsText(conf), info.host, info.port, key);
    if (verdict === 'known') return true;
    if (!conf.bool('ssh', 'strict_host_key_checking') && verdict === 'unknown') {
      log.warning(`Accepting unknown SSH host key ${fingerprint} of ${info.host}:${info.port} for node ${info.uuid}: ` +
        '[ssh]strict_host_key_checking is off.');
      return true;
    }
    refusal.reason = `host key ${fingerprint} is ${verdict === 'unknown' ? 'not known' : verdict} ` +
      `(checked against ${verdict === 'unknown' ? '[ssh]known_hosts_file' : 'its known_hosts entry'})`;
    return false;
  };
}

/** utils.ssh_connect: a session whose failure is SSHConnectFailed with the reason. */
async function connect(conf: Config, info: SshDriverInfo): Promise<SshSession> {
  const refusal: { reason?: string } = {};
  try {
    return await openSsh({
      host: info.host, port: info.port, username: info.username, password: info.password, privateKey: info.privateKey,
      verifyHostKey: hostKeyVerifier(conf, info, refusal),
      connectTimeoutMs: conf.int('ssh', 'connection_timeout') * 1000,
    });
  } catch (err) {
    const reason = refusal.reason ?? (err instanceof SshConnectError ? err.message : String(err));
    throw new SSHConnectFailed({ host: info.host, reason });
  }
}

/** One operation's connection to the node's hypervisor, closed whatever happens. */
export async function withHypervisor<T>(task: DriverTask, work: (h: Hypervisor) => Promise<T>): Promise<T> {
  const info = parseSshDriverInfo(task);
  const session = await connect(task.ctx.conf, info);
  try {
    return await work(new Hypervisor(task, info, session));
  } finally {
    session.close();
  }
}

/** driver_utils.normalize_mac. */
function normalizeMac(mac: string): string {
  return mac.replace(/[-:]/g, '').toLowerCase();
}

/** A VM name the templates can carry unquoted; anything else is skipped with a warning. */
const SAFE_VM_NAME = /^[A-Za-z0-9._@+-]+$/;

export class Hypervisor {
  private vmName?: string;

  constructor(private readonly task: DriverTask, readonly info: SshDriverInfo, private readonly session: SshSession) {}

  /** _ssh_execute: the output's lines; a failed or non-zero command is SSHCommandFailed. */
  async run(command: string): Promise<string[]> {
    let result;
    try {
      result = await this.session.exec(command, this.task.ctx.conf.int('ssh', 'command_timeout') * 1000);
    } catch (err) {
      log.error(`Cannot execute SSH cmd ${command}. Reason: ${String(err)}.`);
      throw new SSHCommandFailed({ cmd: command });
    }
    if (result.code !== 0) {
      log.error(`Cannot execute SSH cmd ${command}. Reason: exit code ${String(result.code)}: ${result.stderr.trim()}.`);
      throw new SSHCommandFailed({ cmd: command });
    }
    return result.stdout.split('\n');
  }

  /** `{base} <template>` for the VM. */
  async runOnVm(template: string): Promise<string[]> {
    const { base } = this.info.commands;
    return this.run(fill(`${base} ${template}`, { base, name: await this.nodeName() }));
  }

  private async findByMac(macs: string[]): Promise<string | undefined> {
    const { base, listAll, nodeMacs } = this.info.commands;
    for (const name of (await this.run(`${base} ${listAll}`)).map((l) => l.trim()).filter(Boolean)) {
      if (!SAFE_VM_NAME.test(name)) {
        log.warning(`Skipping hypervisor VM ${JSON.stringify(name)}: its name needs shell quoting.`);
        continue;
      }
      const vmMacs = (await this.run(fill(`${base} ${nodeMacs}`, { base, name }))).map((m) => m.trim()).filter(Boolean);
      if (vmMacs.some((m) => macs.includes(normalizeMac(m)))) return name;
    }
    return undefined;
  }

  /** driver_utils.get_node_mac_addresses. */
  private portMacs(): string[] {
    return this.task.ports.flatMap((p) => (p.address ? [p.address] : []));
  }

  /** _get_hosts_name_for_node: the VM with one of the node's port MACs, retried as configured. */
  async nodeName(): Promise<string> {
    if (this.vmName !== undefined) return this.vmName;
    const macs = this.portMacs().map(normalizeMac);
    const conf = this.task.ctx.conf;
    for (let attempt = 1; ; attempt++) {
      const found = await this.findByMac(macs);
      if (found !== undefined) return (this.vmName = found);
      if (attempt >= conf.int('ssh', 'get_vm_name_attempts')) break;
      await sleep(conf.int('ssh', 'get_vm_name_retry_interval') * 1000);
    }
    throw new NodeNotFound(`SSH driver was not able to find a VM with any of the specified MACs: ` +
      `${pyRepr(this.portMacs())} for node ${this.info.uuid}.`);
  }

  /** _get_power_status: on when the running list names the VM, plain or quoted. */
  async powerState(): Promise<string> {
    const name = await this.nodeName();
    const running = await this.runOnVm(this.info.commands.listRunning);
    const on = running.some((line) => line.trim() === name || line.includes(`"${name}"`));
    return on ? states.POWER_ON : states.POWER_OFF;
  }
}
