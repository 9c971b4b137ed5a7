/**
 * A real ironic-ts API over HTTP on an ephemeral port with a temp SQLite database, whose conductor is a
 * stand-in that writes ports/portgroups straight to the repositories. For API tests of resources whose
 * conductor side is plain persistence; startTestServer() (server.ts) is the full stack.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../../src/conf/config';
import { embeddedDefaults } from '../../../src/conf/embedded';
import { openDatabase } from '../../../src/db/connection';
import { upgrade } from '../../../src/db/sync';
import * as ports from '../../../src/db/repositories/ports';
import * as portgroups from '../../../src/db/repositories/portgroups';
import { startApiServer } from '../../../src/api/server';
import { maxMinorFor } from '../../../src/api/versions';
import { toApiError } from '../../../src/api/repo-errors';
import type { ConductorApi } from '../../../src/rpc/conductor-api';
import type { Database } from '../../../src/db/connection';
import type { TestServer, TestResponse } from './server';

export type StubOverrides = Partial<ConductorApi>;

function passthrough<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => { throw toApiError(err); });
}

function stubConductor(db: Database, overrides: StubOverrides): ConductorApi {
  const base: Partial<ConductorApi> = {
    createPort: (values) => passthrough(ports.create(db, values)),
    updatePort: (uuid, changes) => passthrough(ports.update(db, uuid, changes)),
    destroyPort: (uuid) => passthrough(ports.destroy(db, uuid)),
    createPortgroup: (values) => passthrough(portgroups.create(db, values)),
    updatePortgroup: (uuid, changes) => passthrough(portgroups.update(db, uuid, changes)),
    destroyPortgroup: (uuid) => passthrough(portgroups.destroy(db, uuid)),
    ...overrides,
  };
  return new Proxy(base as ConductorApi, {
    get(target, name: string) {
      const fn = (target as unknown as Record<string, unknown>)[name];
      if (fn) return fn;
      // Optional conductor calls the API probes for; absent here so the API uses its local fallback.
      if (name === 'createAllocation' || name === 'destroyAllocation' || name === 'then') return undefined;
      return () => Promise.reject(new Error(`stub conductor: ${name} not implemented`));
    },
  });
}

export async function startStubServer(overrides: StubOverrides = {}, conf: Record<string, Record<string, string>> = {}):
  Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ts-api-stub-'));
  const confFile = path.join(dir, 'ironic.conf');
  const groups: Record<string, Record<string, string>> = {};
  for (const [group, options] of Object.entries(embeddedDefaults(dir))) {
    groups[group] = {};
    for (const [name, value] of Object.entries(options)) groups[group][name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  groups.api.port = '0';
  for (const [group, options] of Object.entries(conf)) groups[group] = { ...(groups[group] ?? {}), ...options };
  fs.writeFileSync(confFile, Object.entries(groups)
    .map(([g, o]) => `[${g}]\n${Object.entries(o).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`).join('\n'));
  const config = new Config([confFile]);
  const db = await openDatabase(config.str('database', 'connection'));
  await upgrade(db);
  const api = await startApiServer({ conf: config, db, conductor: stubConductor(db, overrides), maxMinor: maxMinorFor(null) });
  return {
    url: api.url,
    db,
    conf: config,
    request: (method, urlPath, opts = {}) => send(api.url, method, urlPath, opts),
    async stop() {
      await api.close();
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
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(base + urlPath, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}
