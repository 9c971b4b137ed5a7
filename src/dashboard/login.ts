/**
 * The dashboard's login: the user's name and password checked the way the API's
 * `[DEFAULT]auth_strategy` checks them. noauth accepts anyone as the API does; http_basic checks
 * the same htpasswd file (and its per-address failure limiter); keystone asks Keystone for a
 * token with that password, scoped to the project given (else the system), and validates it as the
 * API validates tokens. Failed Keystone logins count against the address like failed basic auth.
 */
import type { ApiAuthentication } from '../api/middleware/auth';
import { BasicAuthFailure } from '../auth/htpasswd';
import { FailureLimiter } from '../auth/failure-limiter';
import type { NewSession } from './sessions';

export interface Credentials {
  username: string;
  password: string;
  project: string | null;
  domain: string;
}

/** A refused login: status (401, 429, 503) and a message without secrets. */
export class LoginFailure extends Error {
  constructor(readonly status: number, message: string, readonly retryAfterSeconds?: number) {
    super(message);
  }
}

export type Login = (credentials: Credentials, address: string) => Promise<NewSession>;

export function loginFor(auth: ApiAuthentication): Login {
  switch (auth.strategy) {
    case 'noauth':
      return (c) => Promise.resolve({ user: c.username, project: null, roles: ['admin'], identity: null, token: null });
    case 'http_basic':
      return async (c, address) => {
        const header = `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
        try {
          await auth.htpasswd.authenticate(header, address);
        } catch (err) {
          if (!(err instanceof BasicAuthFailure)) throw err;
          throw new LoginFailure(err.code === 429 ? 429 : 401, err.code === 429 ? err.message : 'Incorrect username or password',
            err.retryAfterSeconds);
        }
        return { user: c.username, project: null, roles: [], identity: null, token: null };
      };
    case 'keystone':
      return keystoneLogin(auth);
  }
}

function keystoneLogin(auth: Extract<ApiAuthentication, { strategy: 'keystone' }>): Login {
  const limiter = new FailureLimiter();
  return async (c, address) => {
    const admission = limiter.admit(address);
    if (!admission.allowed) {
      throw new LoginFailure(429, `Too many failed authentication attempts, retry in ${admission.retryAfterSeconds} seconds`,
        admission.retryAfterSeconds);
    }
    const user = { name: c.username, domain: c.domain };
    const token = c.project !== null
      ? await auth.keystone.passwordToken(user, c.password, { project: { name: c.project, domain: { name: c.domain } } })
      : await auth.keystone.passwordToken(user, c.password, { system: { all: true } })
        ?? await auth.keystone.passwordToken(user, c.password, null);
    const identity = token === null ? null : await auth.keystone.validate(token);
    if (!identity) throw new LoginFailure(401, 'Incorrect username, password or project');
    admission.refund();
    return { user: identity.userName ?? c.username, project: identity.projectName, roles: identity.roles, identity, token };
  };
}
