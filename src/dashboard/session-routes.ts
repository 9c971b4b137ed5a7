/**
 * /dashboard/session: POST logs in (201, the session cookie and its CSRF token), GET says who is
 * logged in, DELETE logs out (with the CSRF token). Logins from another origin are refused.
 */
import type * as http from 'node:http';
import { KeystoneUnavailable } from '../auth/keystone-client';
import { log } from '../common/log';
import { sendError, sendJson } from './headers';
import { LoginFailure, type Credentials, type Login } from './login';
import { setCookieHeader, type Session, type SessionStore } from './sessions';
import { sameOrigin } from './origin';

const MAX_LOGIN_BODY = 16 * 1024;

export interface SessionRoutes {
  store: SessionStore;
  login: Login;
  secure: boolean;
}

export function sessionBody(session: Session): Record<string, unknown> {
  return { user: session.user, project: session.project, roles: session.roles, csrf_token: session.csrfToken };
}

async function readBody(req: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_LOGIN_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The login body's fields, or a message saying what is wrong. */
function credentialsOf(text: string): Credentials | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'The body must be JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'The body must be a JSON object';
  const field = (name: string): unknown => (Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined);
  const username = field('username');
  const password = field('password');
  const project = field('project') ?? null;
  const domain = field('domain') ?? 'Default';
  if (typeof username !== 'string' || !username || username.length > 255) return 'username must be a non-empty string';
  if (typeof password !== 'string' || password.length > 4096) return 'password must be a string';
  if (project !== null && (typeof project !== 'string' || project.length > 255)) return 'project must be a string or null';
  if (typeof domain !== 'string' || !domain || domain.length > 255) return 'domain must be a non-empty string';
  return { username, password, project: project || null, domain };
}

export async function login(req: http.IncomingMessage, res: http.ServerResponse, routes: SessionRoutes): Promise<void> {
  if (!sameOrigin(req)) {
    sendError(res, 403, 'Cross-origin login refused');
    return;
  }
  const text = await readBody(req);
  if (text === null) {
    sendError(res, 413, 'Login body too large');
    return;
  }
  const credentials = credentialsOf(text);
  if (typeof credentials === 'string') {
    sendError(res, 400, credentials);
    return;
  }
  try {
    const session = routes.store.create(await routes.login(credentials, req.socket.remoteAddress ?? ''));
    log.info(`Dashboard login of ${session.user}`);
    sendJson(res, 201, sessionBody(session), { 'Set-Cookie': setCookieHeader(session, routes.secure) });
  } catch (err) {
    if (err instanceof LoginFailure) {
      log.info(`Dashboard login refused: ${err.message}`);
      sendError(res, err.status, err.message, err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) });
    } else if (err instanceof KeystoneUnavailable) {
      log.error(`Dashboard login: ${err.message}`);
      sendError(res, 503, 'The Keystone service is temporarily unavailable.');
    } else {
      throw err;
    }
  }
}

export function logout(res: http.ServerResponse, routes: SessionRoutes, session: Session): void {
  routes.store.delete(session.id);
  res.writeHead(204, { 'Set-Cookie': setCookieHeader(null, routes.secure), 'Cache-Control': 'no-store' });
  res.end();
}
