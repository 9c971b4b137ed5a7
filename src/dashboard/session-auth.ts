/**
 * The API's request context for a dashboard session: under keystone the same RequestAuth the
 * API's auth middleware builds from a token (the session's validated identity, the API's policy
 * enforcer); under noauth and http_basic none, as the API has none there either.
 */
import type { ApiAuthentication } from '../api/middleware/auth';
import type { RequestAuth } from '../api/policy/scope';
import { policyCreds } from '../api/policy/enforcer';
import type { Config } from '../conf/config';
import type { Session } from './sessions';

export function sessionRequestAuth(auth: ApiAuthentication, conf: Config, session: Session): RequestAuth | undefined {
  if (auth.strategy !== 'keystone' || !session.identity) return undefined;
  return { identity: session.identity, isPublicApi: false, enforcer: auth.enforcer, creds: policyCreds(session.identity, conf, false) };
}
