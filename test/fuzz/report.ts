/** A run's numbers for people: throughput, statuses, route coverage. */
import * as fs from 'node:fs';
import type { FuzzReport } from './engine';
import { faultText } from './checks';
import type { FuzzRequest, FuzzResponse } from './http';

export function formatReport(report: FuzzReport): string {
  const seconds = report.elapsedMs / 1000;
  const statuses = [...report.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  const routes = [...report.routes.values()];
  const reached = routes.filter((r) => r.ok > 0).length;
  return [
    `${report.sent} generated requests (+${report.support} replenishing) in ${seconds.toFixed(1)} s, ${(report.sent / seconds).toFixed(0)} req/s`,
    `statuses ${statuses}`,
    `${report.routes.size} routes exercised, ${reached} of them answered 2xx at least once; ${report.logLines} log lines searched`,
    `${report.failures.total} failures in ${report.failures.classCount} classes`,
  ].join('\n');
}

/** Everything, for a file: failure classes with their first example, statuses, per-route counts. */
export function reportJson(report: FuzzReport): string {
  return JSON.stringify({
    sent: report.sent, elapsedMs: report.elapsedMs, statuses: Object.fromEntries(report.statuses),
    routes: Object.fromEntries(report.routes), failures: report.failures.toJSON(),
  }, null, 2);
}

/** A trace callback appending `status route method url | fault` lines to a file. */
export function traceTo(file: string): (req: FuzzRequest, res: FuzzResponse | null) => void {
  const fd = fs.openSync(file, 'w');
  return (req, res) => {
    const fault = res && res.status >= 400 ? faultText(res.body).split('\n')[0].slice(0, 160) : '';
    fs.writeSync(fd, `${res?.status ?? '---'}\t${req.style ?? '-'}\t${req.route}\t${req.method} ${req.url.slice(0, 200)}\t${fault}\n`);
  };
}
