/**
 * What both session kinds (IPMI 1.5 `lan`, IPMI 2.0 `lanplus`) offer to the client: open once,
 * run requests one at a time, close. Requests are serialized because many BMCs mishandle
 * concurrent commands on one session, and it keeps sequence-number handling simple.
 */
import { IpmiClosedError } from './errors';
import { plainPlan, type IpmiRequest, type IpmiResponse, type RequestPlan } from './message';
import { UdpTransport } from './transport';

export interface SessionParams {
  address: string;
  port: number;
  username: string;
  password: string;
  /** Privilege code 1..4. */
  priv: number;
  timeoutMs: number;
  retries: number;
}

type SessionState = 'new' | 'opening' | 'open' | 'broken' | 'closed';

export abstract class IpmiSessionBase {
  protected readonly transport: UdpTransport;
  protected rqSeq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private opening: Promise<void> | undefined;
  state: SessionState = 'new';
  lastUsed = Date.now();

  constructor(protected readonly params: SessionParams) {
    this.transport = new UdpTransport(params.address, params.port);
  }

  protected abstract establish(): Promise<void>;
  protected abstract sendPlan(plan: RequestPlan, what: string): Promise<IpmiResponse>;
  protected abstract buildClose(): Promise<void>;

  /** In-session request without queueing: for establish() and buildClose() themselves. */
  protected sendInSession(req: IpmiRequest, what: string): Promise<IpmiResponse> {
    return this.sendPlan(plainPlan(req), what);
  }

  protected nextRqSeq(): number {
    this.rqSeq = (this.rqSeq % 63) + 1;
    return this.rqSeq;
  }

  open(): Promise<void> {
    if (this.state === 'open') return Promise.resolve();
    if (this.state === 'closed' || this.state === 'broken') {
      return Promise.reject(new IpmiClosedError('IPMI session is no longer usable'));
    }
    if (!this.opening) {
      this.state = 'opening';
      this.opening = this.establish().then(
        () => {
          this.state = 'open';
        },
        (err: unknown) => {
          this.markBroken();
          throw err;
        },
      );
    }
    return this.opening;
  }

  /** Runs one request on the open session; the response is returned whatever its completion code. */
  request(req: IpmiRequest | RequestPlan, what: string): Promise<IpmiResponse> {
    const plan = 'wire' in req ? req : plainPlan(req);
    const run = async (): Promise<IpmiResponse> => {
      await this.open();
      this.lastUsed = Date.now();
      try {
        return plan.unwrap(await this.sendPlan(plan, what));
      } catch (err) {
        // A session that stopped answering or sent garbage cannot be trusted for the next request.
        this.markBroken();
        throw err;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  protected markBroken(): void {
    if (this.state === 'closed') return;
    this.state = 'broken';
    this.transport.close();
  }

  get usable(): boolean {
    return this.state === 'new' || this.state === 'opening' || this.state === 'open';
  }

  /** Sends Close Session when the session is up, then releases the socket. Never throws. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    if (wasOpen) {
      const closing = this.queue.then(() => this.buildClose()).catch(() => undefined);
      this.queue = closing;
      await closing;
    }
    this.state = 'closed';
    this.transport.close();
  }
}
