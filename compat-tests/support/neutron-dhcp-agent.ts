/**
 * A real neutron-dhcp-agent 26 (python3-neutron of the Debian 13 root, unmodified) serving a lab's
 * network: it runs inside the lab's namespace, reaches neutron-server and RabbitMQ through host
 * bridges on the namespace's loopback, and plugs each DHCP port onto the lab bridge with the test
 * interface driver (neutron/lab_interface_driver.py: Neutron 26 has no Linux bridge driver left).
 * dnsmasq, its host and option files and its command line are Neutron's own; [DEFAULT]
 * dnsmasq_base_log_dir makes it log every DHCP exchange (--log-dhcp) to a file the test reads.
 *
 * The agent runs as root with no root helper (it is root already) in a PID namespace of its own,
 * so stopping it takes dnsmasq and privsep-helper with it, and with a tmpfs on the root's
 * /run/netns, so its qdhcp- namespaces vanish with it and leave nothing in the cached root.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureDebian13, inDebian13 } from './debian13-root';
import type { LabNetwork } from './lab/network';
import { killGroup } from './process-group';

export const DHCP_AGENT_PACKAGES = ['python3-neutron', 'dnsmasq-base', 'dnsmasq-utils', 'iproute2'];
const DRIVER = path.join(__dirname, '..', '..', '..', 'compat-tests', 'support', 'neutron', 'lab_interface_driver.py');
const AGENT = 'import sys; from neutron.cmd.eventlet.agents.dhcp import main; sys.argv[0] = "neutron-dhcp-agent"; sys.exit(main())';

export interface DhcpAgent {
  /** The agent's `host`, as Neutron's agent list shows it. */
  host: string;
  /** Everything dnsmasq logged (DHCP exchanges with their options) for the network, '' before it starts. */
  dnsmasqLog(networkId: string): Promise<string>;
  stop(): Promise<void>;
}

function agentConf(dir: string, host: string, transportUrl: string): string {
  return `[DEFAULT]
host = ${host}
transport_url = ${transportUrl}
state_path = ${dir}/state
log_file = ${dir}/dhcp-agent.log
debug = true
interface_driver = lab_interface_driver.LabBridgeInterfaceDriver
enable_isolated_metadata = false
dnsmasq_base_log_dir = ${dir}/dnsmasq-log
dnsmasq_dns_servers = 127.0.0.1
[AGENT]
root_helper =
report_interval = 5
[oslo_concurrency]
lock_path = ${dir}/locks
`;
}

/**
 * Starts the agent for lab `lab` (its bridge takes the DHCP ports); `transportUrl` must name the
 * broker as the namespace sees it. Resolves once the agent runs; the test waits for Neutron to
 * list it alive.
 */
export async function startDhcpAgent(o: { lab: LabNetwork; dir: string; transportUrl: string; host?: string }): Promise<DhcpAgent> {
  await ensureDebian13(DHCP_AGENT_PACKAGES);
  const host = o.host ?? 'lab-dhcp-agent';
  const dir = path.join(o.dir, 'dhcp-agent');
  for (const sub of ['state', 'locks', 'dnsmasq-log', 'site']) await fsp.mkdir(path.join(dir, sub), { recursive: true });
  // dnsmasq drops to nobody and reads its host and option files under state/.
  await fsp.chmod(dir, 0o755);
  await fsp.copyFile(DRIVER, path.join(dir, 'site', 'lab_interface_driver.py'));
  const conf = path.join(dir, 'dhcp-agent.conf');
  await fsp.writeFile(conf, agentConf(dir, host, o.transportUrl));
  const script = 'mkdir -p /run/netns && mount -t tmpfs tmpfs /run/netns && exec /usr/bin/python3 -c "$0" "$@"';
  const [rootCmd, rootArgs] = inDebian13([dir], '/bin/sh', ['-c', script, AGENT, '--config-file', conf]);
  const [file, args] = o.lab.inside('unshare', ['--pid', '--fork', '--kill-child', rootCmd, ...rootArgs]);
  const out = fs.openSync(path.join(dir, 'stdout.log'), 'a');
  const child = spawn(file, args, {
    detached: true, stdio: ['ignore', out, out],
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: dir, LANG: 'C.UTF-8', PYTHONPATH: path.join(dir, 'site'), IRONIC_TS_LAB_BRIDGE: o.lab.bridge },
  });
  fs.closeSync(out);
  child.unref();
  const pid = child.pid ?? 0;
  return {
    host,
    dnsmasqLog: (networkId) => fsp.readFile(path.join(dir, 'dnsmasq-log', networkId, 'dhcp_dns_log'), 'utf8').catch(() => ''),
    async stop() {
      if (pid) await killGroup(pid);
    },
  };
}
