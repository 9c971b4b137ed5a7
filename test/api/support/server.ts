/**
 * Starts a real ironic-ts (API + in-process conductor) on an ephemeral port over a temp SQLite
 * file, for API tests. `overrides` are extra config file lines per group.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import { openDatabase, Database } from '../../../src/db/connection';
import { upgrade } from '../../../src/db/sync';
import { startConductorService } from '../../../src/conductor/service';
import { createConductorClient } from '../../../src/rpc';
import { startApiServer } from '../../../src/api/server';
import { maxMinorFor } from '../../../src/api/versions';
import type { ConductorApi } from '../../../src/rpc/conductor-api';

export interface TestServer {
  url: string;
  db: Database;
  conf: Config;
  /** fetch() against the server with a JSON body and an API version header. */
  request(method: string, urlPath: string, opts?: { version?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  stop(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when empty. */
  json: any;
}

/** `wrap` may interpose on the conductor API the server is given (e.g. to record calls). */
export async function startTestServer(overrides: Record<string, Record<string, string>> = {},
  wrap: (api: ConductorApi) => ConductorApi = (api) => api): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ts-api-'));
  const confFile = path.join(dir, 'ironic.conf');
  fs.writeFileSync(confFile, renderConf(dir, overrides));
  const conf = new Config([confFile]);
  const db = await openDatabase(conf.str('database', 'connection'));
  await upgrade(db);
  const service = await startConductorService({ conf, db });
  const conductor = await createConductorClient({ conf, db, local: service.api });
  const api = await startApiServer({ conf, db, conductor: wrap(conductor), maxMinor: maxMinorFor(conf.optStr('DEFAULT', 'pin_release_version')) });
  return {
    url: api.url,
    db,
    conf,
    request: (method, urlPath, opts = {}) => send(api.url, method, urlPath, opts),
    async stop() {
      await api.close();
      await conductor.close();
      await service.stop();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function renderConf(dir: string, overrides: Record<string, Record<string, string>>): string {
  const groups: Record<string, Record<string, string>> = {};
  for (const [group, options] of Object.entries(embeddedDefaults(dir))) {
    groups[group] = {};
    for (const [name, value] of Object.entries(options)) groups[group][name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  groups.api.port = '0';
  groups.DEFAULT.host = 'test-conductor';
  // Ramdisk logs of failed agent steps stay in the test's directory, not /var/log/ironic/deploy.
  groups.agent = { ...(groups.agent ?? {}), deploy_logs_local_path: path.join(dir, 'deploy-logs') };
  for (const [group, options] of Object.entries(overrides)) groups[group] = { ...(groups[group] ?? {}), ...options };
  return Object.entries(groups)
    .map(([group, options]) => `[${group}]\n${Object.entries(options).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`)
    .join('\n');
}

async function send(base: string, method: string, urlPath: string, opts: { version?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.version) headers['X-OpenStack-Ironic-API-Version'] = opts.version;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] = headers['Content-Type'] ?? 'application/json';
  }
  const res = await fetch(base + urlPath, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
