// Authentication state of one connection, following Ironic's redfish_auth_type: "session"
// (X-Auth-Token from SessionService), "basic", or "auto" (session, falling back to basic when the BMC
// will not hand out sessions). Sessions come from and go to the process-wide session cache.

import { RedfishEndpoint } from './address';
import { RedfishConfigError, RedfishConnectionError, RedfishError, RedfishInvalidResponseError } from './errors';
import { RedfishObject, linkOf, objectField, parseJsonObject } from './json';
import { RedfishResponse, toRedfishResponse } from './responses';
import { forgetSession, lookupSession, sessionKey, storeSession } from './session-cache';
import { HttpReply } from './transport';

export type AuthType = 'basic' | 'session' | 'auto';
export type AuthMode = 'session' | 'basic' | 'none';

/** What the auth layer needs from its connection: URL resolution and unauthenticated, retried sends. */
interface AuthTransport {
  endpoint: RedfishEndpoint;
  resolve(path: string): URL;
  send(method: string, url: URL, body: RedfishObject | null, headers: Record<string, string>): Promise<HttpReply>;
}

export class RedfishAuth {
  private currentMode: AuthMode | null = null;
  private sessionToken: string | null = null;
  private sessionLocation: string | null = null;
  private authInFlight: Promise<void> | null = null;
  private renewal: Promise<void> | null = null;
  private readonly cacheKey: string;

  constructor(
    private readonly authType: AuthType,
    private readonly username: string | null,
    private readonly password: string,
    private readonly transport: AuthTransport,
  ) {
    if (!['basic', 'session', 'auto'].includes(authType)) {
      throw new RedfishConfigError(`redfish_auth_type must be basic, session or auto, not ${JSON.stringify(authType)}`);
    }
    const { origin, rootPrefix } = transport.endpoint;
    this.cacheKey = sessionKey(origin, rootPrefix, username ?? '');
  }

  get mode(): AuthMode | null {
    return this.currentMode;
  }

  get token(): string | null {
    return this.sessionToken;
  }

  headers(): Record<string, string> {
    if (this.currentMode === 'session' && this.sessionToken) return { 'X-Auth-Token': this.sessionToken };
    if (this.currentMode === 'basic' && this.username !== null) {
      return { Authorization: `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}` };
    }
    return {};
  }

  /** Settles how to authenticate; concurrent first requests share one login. */
  async ensure(): Promise<void> {
    if (this.currentMode !== null) return;
    this.authInFlight ??= this.authenticate().finally(() => {
      this.authInFlight = null;
    });
    await this.authInFlight;
  }

  /** Replaces a session the BMC rejected; callers that saw the same stale token share one renewal. */
  async renew(staleToken: string | null): Promise<void> {
    if (this.sessionToken !== staleToken && this.currentMode === 'session') return;
    this.renewal ??= this.replaceSession(staleToken).finally(() => {
      this.renewal = null;
    });
    await this.renewal;
  }

  /** Deletes our BMC session (best effort) and forgets it; the next request logs in again. */
  async logout(): Promise<void> {
    const location = this.sessionLocation;
    const token = this.sessionToken;
    this.drop();
    if (!location || !token) return;
    try {
      await this.transport.send('DELETE', this.transport.resolve(location), null, { 'X-Auth-Token': token });
    } catch (err) {
      if (!(err instanceof RedfishError)) throw err;
    }
  }

  private async authenticate(): Promise<void> {
    if (this.username === null) {
      this.currentMode = 'none';
      return;
    }
    if (this.authType === 'basic') {
      this.currentMode = 'basic';
      return;
    }
    const cached = lookupSession(this.cacheKey, this.password);
    if (cached) {
      this.adopt(cached.token, cached.location);
      return;
    }
    try {
      await this.login();
    } catch (err) {
      const unreachable = err instanceof RedfishConnectionError;
      if (this.authType !== 'auto' || unreachable || !(err instanceof RedfishError)) throw err;
      this.currentMode = 'basic';
    }
  }

  private async replaceSession(staleToken: string | null): Promise<void> {
    const cached = lookupSession(this.cacheKey, this.password);
    if (cached && cached.token !== staleToken) {
      this.adopt(cached.token, cached.location);
      return;
    }
    forgetSession(this.cacheKey, staleToken ?? undefined);
    try {
      await this.login();
    } catch (err) {
      this.drop();
      throw err;
    }
  }

  private async login(): Promise<void> {
    const url = this.transport.resolve(await this.sessionsPath());
    const reply = await this.transport.send('POST', url, { UserName: this.username, Password: this.password }, {});
    const res: RedfishResponse = toRedfishResponse('POST', url, reply);
    const token = res.headers['x-auth-token'];
    if (typeof token !== 'string' || token === '') {
      throw new RedfishInvalidResponseError(`Session login at ${url.href} returned no X-Auth-Token`, url.href);
    }
    const location = typeof res.headers.location === 'string' ? this.transport.resolve(res.headers.location).pathname : null;
    storeSession(this.cacheKey, this.password, { token, location });
    this.adopt(token, location);
  }

  /** Links/Sessions of the (anonymous) service root, else the DMTF default path. */
  private async sessionsPath(): Promise<string> {
    const { rootPrefix } = this.transport.endpoint;
    const fallback = `${rootPrefix}SessionService/Sessions`;
    const url = this.transport.resolve(rootPrefix);
    const reply = await this.transport.send('GET', url, null, {});
    if (reply.status !== 200) return fallback;
    try {
      return linkOf(objectField(parseJsonObject(reply.body.toString('utf8'), url.href), 'Links'), 'Sessions') ?? fallback;
    } catch {
      return fallback;
    }
  }

  private adopt(token: string, location: string | null): void {
    this.currentMode = 'session';
    this.sessionToken = token;
    this.sessionLocation = location;
  }

  private drop(): void {
    forgetSession(this.cacheKey, this.sessionToken ?? undefined);
    this.sessionToken = null;
    this.sessionLocation = null;
    this.currentMode = null;
  }
}
