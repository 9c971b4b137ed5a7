/**
 * A simulated lanplus BMC on its own UDP socket (127.0.0.1, ephemeral port by default).
 * An optional outbound hook lets tests turn it hostile (drop, corrupt, delay, replay).
 */
import dgram from 'node:dgram';
import { encodeAsfPong, isAsfPing } from '../rmcp';
import { BmcModel } from './bmc-model';
import { RmcpPlusResponder, type ResponderOptions, type SimUser } from './rmcpplus-responder';

export interface SimBmcOptions {
  address?: string;
  port?: number;
  users?: SimUser[];
  cipherSuites?: number[];
  kg?: Buffer;
  maxSessions?: number;
  bridgeMode?: 'embedded' | 'separate';
  /** Rewrites each response: return zero or more datagrams (each may carry a delay in ms). */
  outbound?: (response: Buffer, request: Buffer) => Array<{ data: Buffer; delayMs?: number }>;
}

export class SimBmc {
  readonly model = new BmcModel();
  readonly responder: RmcpPlusResponder;
  private socket: dgram.Socket | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  requestsSeen = 0;

  constructor(private readonly options: SimBmcOptions = {}) {
    const responderOptions: ResponderOptions = {
      users: options.users ?? [{ name: 'admin', password: 'password', maxPriv: 4 }],
      cipherSuites: options.cipherSuites ?? [0, 1, 2, 3, 15, 16, 17],
      kg: options.kg,
      maxSessions: options.maxSessions,
      bridgeMode: options.bridgeMode,
    };
    this.responder = new RmcpPlusResponder(this.model, responderOptions);
  }

  start(): Promise<number> {
    const socket = dgram.createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, rinfo) => this.onMessage(msg, rinfo));
    socket.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.options.port ?? 0, this.options.address ?? '127.0.0.1', () => {
        socket.off('error', reject);
        resolve(socket.address().port);
      });
    });
  }

  get port(): number {
    if (!this.socket) throw new Error('SimBmc not started');
    return this.socket.address().port;
  }

  private onMessage(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    this.requestsSeen += 1;
    const replies = isAsfPing(msg) ? [encodeAsfPong(msg[9])] : this.responder.handle(msg);
    for (const reply of replies) {
      const outs = this.options.outbound ? this.options.outbound(reply, msg) : [{ data: reply }];
      for (const out of outs) this.emit(out.data, rinfo, out.delayMs ?? 0);
    }
  }

  private emit(data: Buffer, rinfo: dgram.RemoteInfo, delayMs: number): void {
    const socket = this.socket;
    if (!socket) return;
    if (delayMs <= 0) {
      socket.send(data, rinfo.port, rinfo.address);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.socket?.send(data, rinfo.port, rinfo.address);
    }, delayMs);
    this.timers.add(timer);
  }

  stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => socket.close(() => resolve()));
  }
}
