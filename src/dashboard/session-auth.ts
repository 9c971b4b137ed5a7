/**
 * The API's request context for a dashboard session: under keystone the same RequestAuth the
 * API's auth middleware builds from a token (the session's token validated again through the API's
 * token client, so a revoked token ends the session within [keystone_authtoken]token_cache_time as
 * it stops the API; the API's policy enforcer); under noauth and http_basic none, as the API has
 * none there either.
 */
import type { ApiAuthentication } from '../api/middleware/auth';
import type { RequestAuth } from '../api/policy/scope';
import { policyCreds } from '../api/policy/enforcer';
import type { Config } from '../conf/config';
import type { Session } from './sessions';

/** The context, undefined where the API has none, or null when Keystone no longer accepts the token. */
export async function sessionRequestAuth(auth: ApiAuthentication, conf: Config, session: Session): Promise<RequestAuth | undefined | null> {
  if (auth.strategy !== 'keystone' || session.token === null) return undefined;
  const identity = await auth.keystone.validate(session.token);
  if (!identity) return null;
  return { identity, isPublicApi: false, enforcer: auth.enforcer, creds: policyCreds(identity, conf, false) };
}
