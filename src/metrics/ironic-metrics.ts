/**
 * Ironic's metrics (ironic/common/metrics*.py): [metrics]backend `statsd` sends each timer,
 * counter and gauge as one statsd line over UDP to [metrics_statsd]statsd_host:statsd_port;
 * `noop` sends nothing; `collector` keeps them in memory. Names are
 * `[global_prefix.][host reversed.]<python module>.<name>`, as get_metrics_logger(__name__) builds
 * them, e.g. `ironic.conductor.manager.ConductorManager.change_node_power_state`.
 *
 * The statsd line protocol is one `name:value|type` datagram per figure, so node:dgram does it;
 * one socket is kept (Ironic opens one per datagram) and a send error is logged, never thrown.
 */
import * as dgram from 'node:dgram';
import { isIP } from 'node:net';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { pyFloatText } from '../common/python/float';

type Backend = 'noop' | 'statsd' | 'collector';

interface Settings {
  backend: Backend;
  prefix: string;
  host: string;
  port: number;
}

let settings: Settings = { backend: 'noop', prefix: '', host: 'localhost', port: 8125 };
let socket: dgram.Socket | null = null;

/** get_metrics_logger's prefix before the module name: `[global_prefix.][host.]`. */
function prefixFor(conf: Config): string {
  const parts: string[] = [];
  const global = conf.optStr('metrics', 'global_prefix');
  if (global) parts.push(global);
  const host = conf.str('DEFAULT', 'host');
  if (conf.bool('metrics', 'prepend_host') && host) {
    parts.push(conf.bool('metrics', 'prepend_host_reverse') ? host.split('.').reverse().join('.') : host);
  }
  return parts.map((p) => `${p}.`).join('');
}

export function configureIronicMetrics(conf: Config): void {
  settings = {
    backend: conf.str('metrics', 'backend') as Backend,
    prefix: prefixFor(conf),
    host: conf.str('metrics_statsd', 'statsd_host'),
    port: conf.int('metrics_statsd', 'statsd_port'),
  };
}

/** Whether timers are sent at all ([metrics]backend = statsd). */
export function ironicMetricsOn(): boolean {
  return settings.backend === 'statsd';
}

export function closeIronicMetrics(): void {
  socket?.close();
  socket = null;
}

function udpSocket(): dgram.Socket {
  if (socket) return socket;
  socket = dgram.createSocket(isIP(settings.host) === 6 ? 'udp6' : 'udp4');
  socket.on('error', (err) => log.warning(`Failed to send the metric value to host ${settings.host}, port ${settings.port}. Error: ${err.message}`));
  socket.unref();
  return socket;
}

function send(name: string, value: number, type: 'ms' | 'c' | 'g'): void {
  if (settings.backend !== 'statsd') return;
  const full = settings.prefix + name;
  const line = Buffer.from(`${full}:${Number.isInteger(value) ? String(value) : pyFloatText(value)}|${type}`);
  udpSocket().send(line, settings.port, settings.host, (err) => {
    if (err) log.warning(`Failed to send the metric value to host ${settings.host}, port ${settings.port}. Error: ${err.message}`);
  });
}

/** One module's metric logger (get_metrics_logger(__name__)): `module` is Ironic's Python module path. */
export class MetricLogger {
  constructor(private readonly module: string) {}

  private name(metric: string): string {
    return `${this.module}.${metric}`;
  }

  /** A timer like METRICS.timer: the duration in ms, sent only when `fn` succeeds (as the decorator does). */
  async time<T>(metric: string, fn: () => Promise<T>): Promise<T> {
    if (settings.backend !== 'statsd') return fn();
    const started = performance.now();
    const result = await fn();
    send(this.name(metric), performance.now() - started, 'ms');
    return result;
  }

  /** A duration already measured, in milliseconds. */
  sendTimer(metric: string, ms: number): void {
    send(this.name(metric), ms, 'ms');
  }

  counter(metric: string, value = 1): void {
    send(this.name(metric), value, 'c');
  }

  gauge(metric: string, value: number): void {
    send(this.name(metric), value, 'g');
  }
}
