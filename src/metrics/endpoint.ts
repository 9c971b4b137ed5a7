/**
 * The Prometheus endpoint: `GET /metrics` on [prometheus]host:port, in each process that runs it,
 * readable by anyone who reaches it (noauth: loopback unless allow_insecure_noauth) or by the users
 * of [prometheus]http_basic_auth_user_file. Scrape-time figures come from the database (nodes by
 * state) and from the conductor's worker pool when the process has one.
 */
import * as http from 'node:http';
import type { Config } from '../conf/config';
import type { Database } from '../db/connection';
import { log } from '../common/log';
import { BasicAuthFailure, HtpasswdFile } from '../auth/htpasswd';
import { guardNoauthExposure } from '../auth/noauth-exposure';
import { enablePrometheus, prometheusRegistry, setPrometheusSources } from './prometheus';

interface MetricsEndpoint {
  readonly port: number;
  close(): Promise<void>;
}

type NodeCountRow = { provision_state: string | null; power_state: string | null; maintenance: boolean | number | null; count: number };

async function nodeCounts(db: Database): Promise<NodeCountRow[]> {
  const rows = await db.knex('nodes').select('provision_state', 'power_state', 'maintenance').count({ count: '*' })
    .groupBy('provision_state', 'power_state', 'maintenance') as Array<Omit<NodeCountRow, 'count'> & { count: number | string }>;
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

async function authorize(users: HtpasswdFile | null, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  if (!users) return true;
  try {
    await users.authenticate(req.headers.authorization, req.socket.remoteAddress ?? '');
    return true;
  } catch (err) {
    const failure = err instanceof BasicAuthFailure ? err : new BasicAuthFailure(500, 'Authentication failed');
    res.statusCode = failure.code;
    if (failure.code === 401) res.setHeader('WWW-Authenticate', 'Basic realm="ironic-ts metrics"');
    res.end(`${failure.message}\n`);
    return false;
  }
}

async function serve(users: HtpasswdFile | null, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (!await authorize(users, req, res)) return;
  const registry = prometheusRegistry();
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics' || !registry) {
    res.statusCode = 404;
    res.end('Not Found\n');
    return;
  }
  const text = await registry.metrics();
  res.setHeader('Content-Type', registry.contentType);
  res.end(text);
}

/** Starts the endpoint when [prometheus]enabled; null otherwise. */
export async function startMetricsEndpoint(conf: Config, db: Database, service: string,
  pool?: () => { size: number; active: number }): Promise<MetricsEndpoint | null> {
  if (!conf.bool('prometheus', 'enabled')) return null;
  const host = conf.str('prometheus', 'host');
  const strategy = conf.str('prometheus', 'auth_strategy');
  guardNoauthExposure(conf, { service: `${service} metrics endpoint`, group: 'prometheus', strategy, host });
  const users = strategy === 'http_basic' ? new HtpasswdFile(conf.str('prometheus', 'http_basic_auth_user_file')) : null;
  enablePrometheus();
  setPrometheusSources({ nodes: () => nodeCounts(db), ...(pool ? { pool } : {}) });
  const server = http.createServer((req, res) => {
    serve(users, req, res).catch((err: unknown) => {
      log.warning(`Metrics endpoint failed: ${(err as Error).message}`);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(conf.int('prometheus', 'port'), host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  log.info(`${service} serves Prometheus metrics on http://${host}:${port}/metrics`);
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
