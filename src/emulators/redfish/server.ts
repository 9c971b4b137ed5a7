// startRedfishEmulator(): many emulated BMC systems behind one HTTP(S) Redfish service.

import { randomUUID } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import { EmulatorContext } from './context';
import { etagOf, ifMatchSatisfied, parseJsonBody, readBody, sendError, sendJson } from './http-io';
import { EmulatorHttpError, RedfishObject, notFound } from './messages';
import { METHODS, Method, RequestCtx, RouteMatch, Router, allowedMethods, normalisePath } from './router';
import { addBiosRoutes } from './routes-bios';
import { addManagerRoutes } from './routes-managers';
import { addServiceRoutes } from './routes-services';
import { addSystemRoutes } from './routes-systems';
import { EmulatorAuthOptions, SessionStore } from './sessions';
import { EmulatedSystem, SystemSpec } from './system-state';
import { TaskStore } from './tasks';

export interface RedfishEmulatorOptions {
  /** A count (ids "1".."n"), or explicit ids/specs. Default: one system "1". */
  systems?: number | Array<string | SystemSpec>;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  auth?: EmulatorAuthOptions | null;
  /** PEM key and certificate; when given the emulator speaks HTTPS. */
  tls?: { key: string | Buffer; cert: string | Buffer } | null;
  gracefulShutdownDelayMs?: number;
  taskDurationMs?: number;
  /** Refuse PATCH without If-Match (428), as some BMCs do. */
  requireIfMatch?: boolean;
  maxRequestBytes?: number;
}

/** Knobs tests may change while the emulator runs. */
interface EmulatorSettings {
  taskDurationMs: number;
  requireIfMatch: boolean;
}

interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ifMatch: string | null;
  auth: 'token' | 'basic' | 'none';
}

export interface RedfishEmulator {
  readonly url: string;
  readonly port: number;
  readonly settings: EmulatorSettings;
  readonly sessions: SessionStore;
  readonly tasks: TaskStore;
  /** The last 1000 requests served. */
  readonly requestLog: RequestLogEntry[];
  system(id: string): EmulatedSystem;
  systems(): EmulatedSystem[];
  stop(): Promise<void>;
}

const LOG_LIMIT = 1000;

export async function startRedfishEmulator(options: RedfishEmulatorOptions = {}): Promise<RedfishEmulator> {
  const settings: EmulatorSettings = {
    taskDurationMs: options.taskDurationMs ?? 200,
    requireIfMatch: options.requireIfMatch ?? false,
  };
  const ctx: EmulatorContext = {
    systems: buildSystems(options.systems ?? 1, options.gracefulShutdownDelayMs ?? 0),
    sessions: new SessionStore(options.auth ?? null),
    tasks: new TaskStore(() => settings.taskDurationMs),
    serviceUuid: randomUUID(),
  };
  const router = new Router();
  addServiceRoutes(router, ctx);
  addSystemRoutes(router, ctx);
  addBiosRoutes(router, ctx);
  addManagerRoutes(router, ctx);
  const requestLog: RequestLogEntry[] = [];
  const maxBody = options.maxRequestBytes ?? 1024 * 1024;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(req, res, { router, ctx, settings, maxBody }).then((status) => {
      requestLog.push(logEntry(req, status));
      if (requestLog.length > LOG_LIMIT) requestLog.shift();
    });
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener) : http.createServer(listener);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostPart}:${port}`,
    port,
    settings,
    sessions: ctx.sessions,
    tasks: ctx.tasks,
    requestLog,
    system: (id) => {
      const s = ctx.systems.get(id);
      if (!s) throw new Error(`no emulated system ${id}`);
      return s;
    },
    systems: () => [...ctx.systems.values()],
    stop: () => stopServer(server, ctx),
  };
}

function buildSystems(spec: number | Array<string | SystemSpec>, delayMs: number): Map<string, EmulatedSystem> {
  const specs: SystemSpec[] = typeof spec === 'number'
    ? Array.from({ length: spec }, (_, i) => ({ id: String(i + 1) }))
    : spec.map((s) => (typeof s === 'string' ? { id: s } : s));
  const systems = new Map<string, EmulatedSystem>();
  specs.forEach((s, i) => {
    if (systems.has(s.id)) throw new Error(`duplicate emulated system id ${s.id}`);
    systems.set(s.id, new EmulatedSystem(s, delayMs, i));
  });
  return systems;
}

interface ServeDeps {
  router: Router;
  ctx: EmulatorContext;
  settings: EmulatorSettings;
  maxBody: number;
}

async function serve(req: IncomingMessage, res: ServerResponse, deps: ServeDeps): Promise<number> {
  try {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = normalisePath(req.url ?? '/');
    const match = deps.router.match(path);
    if (!match) throw notFound(path);
    const allow = allowedMethods(match.route).join(', ');
    const handler = (METHODS as readonly string[]).includes(method) ? match.route.handlers[method as Method] : undefined;
    if (!handler) throw new EmulatorHttpError(405, 'OperationNotAllowed', `The HTTP method ${method} is not allowed on ${path}.`, [], { Allow: allow });
    if (!match.route.anonymous?.includes(method as Method)) deps.ctx.sessions.authorize(req.headers);
    const raw = await readBody(req, deps.maxBody);
    const body = method === 'GET' || method === 'DELETE' ? null : parseJsonBody(raw);
    const rctx: RequestCtx = { method: method as Method, path, params: match.params, body, headers: req.headers };
    if (method === 'PATCH') checkPreconditions(match, rctx, deps.settings);
    const reply = handler(rctx);
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    if (method === 'GET' && reply.body) {
      headers.ETag = etagOf(reply.body);
      headers.Allow = allow;
    }
    sendJson(res, reply.status, reply.body, headers);
    return reply.status;
  } catch (err) {
    return sendError(res, err);
  }
}

/** If-Match is compared with the ETag of the resource's current GET representation. */
function checkPreconditions(match: RouteMatch, rctx: RequestCtx, settings: EmulatorSettings): void {
  const get = match.route.handlers.GET;
  if (!get) return;
  const current: RedfishObject | undefined = get({ ...rctx, method: 'GET', body: null }).body;
  if (!current) return;
  const ifMatch = rctx.headers['if-match'];
  if (typeof ifMatch === 'string' && ifMatch !== '') {
    if (!ifMatchSatisfied(ifMatch, etagOf(current))) {
      throw new EmulatorHttpError(412, 'PreconditionFailed', 'The ETag supplied did not match the ETag required to change this resource.');
    }
  } else if (settings.requireIfMatch) {
    throw new EmulatorHttpError(428, 'PreconditionRequired', 'A precondition header or annotation is required to change this resource.');
  }
}

function logEntry(req: IncomingMessage, status: number): RequestLogEntry {
  const ifMatch = req.headers['if-match'];
  return {
    method: req.method ?? '',
    path: normalisePath(req.url ?? '/'),
    status,
    ifMatch: typeof ifMatch === 'string' ? ifMatch : null,
    auth: req.headers['x-auth-token'] ? 'token' : req.headers.authorization ? 'basic' : 'none',
  };
}

function stopServer(server: http.Server | https.Server, ctx: EmulatorContext): Promise<void> {
  ctx.tasks.stop();
  for (const s of ctx.systems.values()) s.stop();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
