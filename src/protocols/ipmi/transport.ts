/**
 * One UDP socket talking to one BMC. Every exchange is bounded: a per-attempt timer, a fixed number
 * of attempts, and close() settles everything still waiting. The socket is only ref'ed while an
 * exchange is in flight, so an idle pooled session never keeps the process alive.
 */
import dgram from 'node:dgram';
import { isIP, isIPv6 } from 'node:net';
import { IpmiClosedError, IpmiError, IpmiTimeoutError } from './errors';

/** What an acceptor does with a datagram: use it, or ignore it (stale or not ours). */
export type Accepted<T> = { value: T } | undefined;

interface ExchangeSpec<T> {
  what: string;
  /** Builds the datagram for an attempt; called again for each retry (fresh sequence numbers). */
  build: (attempt: number) => Buffer;
  /** Returns a value to finish, undefined to keep waiting, or throws a typed error to fail. */
  accept: (packet: Buffer) => Accepted<T>;
  timeoutMs: number;
  retries: number;
}

interface Waiter {
  accept: (packet: Buffer) => boolean;
  fail: (err: Error) => void;
}

export class UdpTransport {
  private socket: dgram.Socket | undefined;
  private readonly waiters = new Set<Waiter>();
  private closed = false;

  constructor(readonly address: string, readonly port: number) {}

  private ensureSocket(): dgram.Socket {
    if (this.socket) return this.socket;
    const socket = dgram.createSocket({ type: isIPv6(this.address) ? 'udp6' : 'udp4' });
    socket.on('message', (msg, rinfo) => this.onMessage(msg, rinfo));
    socket.on('error', (err) => this.failAll(new IpmiError(`IPMI socket error: ${err.message}`)));
    socket.unref();
    this.socket = socket;
    return socket;
  }

  private onMessage(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (rinfo.port !== this.port) return;
    if (isIP(this.address) && rinfo.address !== this.address) return;
    for (const waiter of [...this.waiters]) {
      if (waiter.accept(msg)) return;
    }
  }

  private failAll(err: Error): void {
    for (const waiter of [...this.waiters]) waiter.fail(err);
  }

  private updateRef(): void {
    if (!this.socket) return;
    if (this.waiters.size > 0) this.socket.ref();
    else this.socket.unref();
  }

  exchange<T>(spec: ExchangeSpec<T>): Promise<T> {
    if (this.closed) return Promise.reject(new IpmiClosedError(`IPMI transport to ${this.address}:${this.port} is closed`));
    const socket = this.ensureSocket();
    return new Promise<T>((resolve, reject) => {
      let attempt = 0;
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const finish = (fn: () => void): void => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        this.waiters.delete(waiter);
        this.updateRef();
        fn();
      };
      const waiter: Waiter = {
        accept: (packet) => {
          let result: Accepted<T>;
          try {
            result = spec.accept(packet);
          } catch (err) {
            finish(() => reject(err instanceof Error ? err : new IpmiError(String(err))));
            return true;
          }
          if (!result) return false;
          const value = result.value;
          finish(() => resolve(value));
          return true;
        },
        fail: (err) => finish(() => reject(err)),
      };
      const sendAttempt = (): void => {
        let datagram: Buffer;
        try {
          datagram = spec.build(attempt);
        } catch (err) {
          waiter.fail(err instanceof Error ? err : new IpmiError(String(err)));
          return;
        }
        socket.send(datagram, this.port, this.address, (err) => {
          if (err) waiter.fail(new IpmiError(`IPMI send to ${this.address}:${this.port} failed: ${err.message}`));
        });
        timer = setTimeout(onTimeout, spec.timeoutMs);
      };
      const onTimeout = (): void => {
        attempt += 1;
        if (attempt > spec.retries) {
          waiter.fail(new IpmiTimeoutError(spec.what, spec.timeoutMs, attempt));
          return;
        }
        sendAttempt();
      };
      this.waiters.add(waiter);
      this.updateRef();
      sendAttempt();
    });
  }

  /** Fire-and-forget datagram (used for Close Session when we do not care about the answer). */
  send(datagram: Buffer): void {
    if (this.closed) return;
    this.ensureSocket().send(datagram, this.port, this.address, () => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiters.size > 0) this.failAll(new IpmiClosedError(`IPMI transport to ${this.address}:${this.port} closed`));
    if (this.socket) {
      const socket = this.socket;
      this.socket = undefined;
      try {
        socket.close();
      } catch {
        // already closed by an error path; nothing left to release
      }
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
