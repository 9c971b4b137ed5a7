/**
 * The node API tests' server: the real API over HTTP on an ephemeral port, a temp SQLite database and
 * the real in-process conductor service (its ConductorApi handed to the API directly, no RPC client).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import { openDatabase } from '../../../src/db/connection';
import { upgrade } from '../../../src/db/sync';
import { startConductorService } from '../../../src/conductor/service';
import { startApiServer } from '../../../src/api/server';
import { maxMinorFor } from '../../../src/api/versions';
import type { ConductorApi } from '../../../src/rpc/conductor-api';
import type { TestResponse, TestServer } from './server';

/** `wrap` may interpose on the conductor API the server is given (e.g. to record calls). */
export async function startNodeServer(overrides: Record<string, Record<string, string>> = {},
  wrap: (api: ConductorApi) => ConductorApi = (api) => api): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ts-nodes-'));
  const groups: Record<string, Record<string, string>> = {};
  for (const [group, options] of Object.entries(embeddedDefaults(dir))) {
    groups[group] = {};
    for (const [name, value] of Object.entries(options)) groups[group][name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  groups.api.port = '0';
  groups.DEFAULT.host = 'test-conductor';
  for (const [group, options] of Object.entries(overrides)) groups[group] = { ...(groups[group] ?? {}), ...options };
  const confFile = path.join(dir, 'ironic.conf');
  fs.writeFileSync(confFile, Object.entries(groups)
    .map(([g, o]) => `[${g}]\n${Object.entries(o).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`).join('\n'));
  const conf = new Config([confFile]);
  const db = await openDatabase(conf.str('database', 'connection'));
  await upgrade(db);
  const service = await startConductorService({ conf, db });
  const api = await startApiServer({ conf, db, conductor: wrap(service.api),
    maxMinor: maxMinorFor(conf.optStr('DEFAULT', 'pin_release_version')) });
  return {
    url: api.url,
    db,
    conf,
    request: (method, urlPath, opts = {}) => send(api.url, method, urlPath, opts),
    async stop() {
      await api.close();
      await service.stop();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function send(base: string, method: string, urlPath: string,
  opts: { version?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse> {
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
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}
