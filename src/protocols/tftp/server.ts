/**
 * Read-only TFTP server on node:dgram. Every accepted request gets its own
 * ephemeral socket (its TID); the listening socket only receives requests.
 */
import * as dgram from 'node:dgram';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import { TFTP_DEFAULTS } from './defaults';
import { negotiate, type NegotiationLimits } from './options';
import { Opcode, TftpErrorCode, decodePacket, encodeError, type RequestPacket } from './packets';
import { ReadTransfer, type Peer, type TransferLimits, type TransferOutcome } from './read-transfer';
import { TftpPathError, resolveInRoot } from './resolve-path';
import { Slots } from './slots';

export interface TftpServerOptions {
  /** Directory served (Ironic's [pxe]tftp_root). */
  root: string;
  host?: string;
  port?: number;
  /** Concurrent transfers; further requests get an error. Defaults: TFTP_DEFAULTS. */
  maxTransfers?: number;
  /** Concurrent transfers per client address, so one host cannot take every slot. */
  maxTransfersPerClient?: number;
  /** Retransmission timeout when the client does not negotiate one. */
  timeoutMs?: number;
  /** Largest timeout option (seconds) a client may negotiate; larger ones are declined. */
  maxTimeoutS?: number;
  /** Resends of one packet (or window) before a transfer is abandoned. */
  retries?: number;
  /** A transfer with no ACK moving it on for this long is dropped, whatever timeout it negotiated. */
  idleMs?: number;
  /** A transfer still running after this long is dropped. */
  lifetimeMs?: number;
  /** Largest blksize agreed (RFC 2348); a client asking more gets this. */
  maxBlksize?: number;
  /** Largest windowsize agreed (RFC 7440); a client asking more gets this. */
  maxWindowsize?: number;
  /** Called once per finished transfer (for logs/metrics). */
  onTransfer?: (event: TransferEvent) => void;
}

export interface TransferEvent {
  peer: Peer;
  filename: string;
  outcome: TransferOutcome | 'refused';
  bytes: number;
}

export interface TftpServer {
  port: number;
  address: string;
  activeTransfers(): number;
  close(): Promise<void>;
}

class TftpServerError extends Error {
  override readonly name = 'TftpServerError';
}

const ACCEPTED_MODES = new Set(['octet', 'netascii']);

interface Settings extends NegotiationLimits {
  root: string;
  host: string;
  maxTransfers: number;
  maxTransfersPerClient: number;
  timeoutMs: number;
  limits: TransferLimits;
  onTransfer: (e: TransferEvent) => void;
}

function settingsFrom(opts: TftpServerOptions): Settings {
  return {
    root: opts.root,
    host: opts.host ?? '127.0.0.1',
    maxTransfers: opts.maxTransfers ?? TFTP_DEFAULTS.maxTransfers,
    maxTransfersPerClient: opts.maxTransfersPerClient ?? TFTP_DEFAULTS.maxTransfersPerClient,
    timeoutMs: opts.timeoutMs ?? TFTP_DEFAULTS.timeoutMs,
    maxTimeoutS: opts.maxTimeoutS ?? TFTP_DEFAULTS.maxTimeoutS,
    limits: { retries: opts.retries ?? TFTP_DEFAULTS.retries, idleMs: opts.idleMs ?? TFTP_DEFAULTS.idleMs, lifetimeMs: opts.lifetimeMs ?? TFTP_DEFAULTS.lifetimeMs },
    maxBlksize: opts.maxBlksize ?? TFTP_DEFAULTS.maxBlksize,
    maxWindowsize: opts.maxWindowsize ?? TFTP_DEFAULTS.maxWindowsize,
    onTransfer: opts.onTransfer ?? (() => undefined),
  };
}

function socketType(host: string): 'udp4' | 'udp6' {
  return net.isIPv6(host) ? 'udp6' : 'udp4';
}

function bind(sock: dgram.Socket, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, host, () => {
      sock.off('error', reject);
      resolve();
    });
  });
}

class Server {
  private readonly transfers = new Set<ReadTransfer>();
  private readonly slots: Slots;

  constructor(
    private readonly s: Settings,
    readonly socket: dgram.Socket,
  ) {
    this.slots = new Slots(s.maxTransfers, s.maxTransfersPerClient);
    // A request that fails unexpectedly (no socket or file handle to be had)
    // is dropped rather than left as an unhandled rejection; the client retries.
    socket.on('message', (msg, rinfo) => void this.onRequest(msg, rinfo).catch(() => undefined));
    socket.on('error', () => undefined);
  }

  /** Transfers under way, including requests still being opened. */
  active(): number {
    return this.slots.size;
  }

  private async openTid(): Promise<dgram.Socket> {
    const sock = dgram.createSocket(socketType(this.s.host));
    sock.on('error', () => undefined);
    await bind(sock, this.s.host, 0);
    return sock;
  }

  /** Errors go out from a fresh TID, as a transfer would, so clients accept them. */
  private async refuse(peer: Peer, filename: string, code: number, message: string): Promise<void> {
    const sock = await this.openTid();
    sock.send(encodeError(code, message), peer.port, peer.address, () => sock.close());
    this.s.onTransfer({ peer, filename, outcome: 'refused', bytes: 0 });
  }

  private async onRequest(msg: Buffer, rinfo: dgram.RemoteInfo): Promise<void> {
    const peer = { address: rinfo.address, port: rinfo.port };
    let req;
    try {
      req = decodePacket(msg);
    } catch {
      return; // garbage on the request port has no session to fail
    }
    if (req.op === Opcode.WRQ) return this.refuse(peer, req.filename, TftpErrorCode.ACCESS_VIOLATION, 'Server is read-only');
    if (req.op !== Opcode.RRQ) return this.refuse(peer, '', TftpErrorCode.ILLEGAL_OPERATION, 'Illegal TFTP operation');
    if (!ACCEPTED_MODES.has(req.mode)) return this.refuse(peer, req.filename, TftpErrorCode.ILLEGAL_OPERATION, `Unsupported mode ${req.mode}`);
    const slot = this.slots.take(peer);
    if (slot === 'duplicate') return;
    if (slot === 'busy') return this.refuse(peer, req.filename, TftpErrorCode.NOT_DEFINED, 'Server busy');
    let started = false;
    try {
      started = await this.serve(req, peer, slot.release);
    } finally {
      if (!started) slot.release();
    }
  }

  /** Returns true when a transfer started; `onEnd` runs when it finishes. */
  private async serve(req: RequestPacket, peer: Peer, onEnd: () => void): Promise<boolean> {
    let real: string;
    try {
      real = await resolveInRoot(this.s.root, req.filename);
    } catch (err) {
      if (!(err instanceof TftpPathError)) throw err;
      const code = err.kind === 'not-found' ? TftpErrorCode.FILE_NOT_FOUND : TftpErrorCode.ACCESS_VIOLATION;
      await this.refuse(peer, req.filename, code, err.kind === 'not-found' ? 'File not found' : 'Access violation');
      return false;
    }
    let file;
    try {
      file = await fsp.open(real, 'r');
    } catch {
      await this.refuse(peer, req.filename, TftpErrorCode.ACCESS_VIOLATION, 'Access violation');
      return false;
    }
    let size: number;
    let socket: dgram.Socket;
    try {
      size = (await file.stat()).size;
      socket = await this.openTid();
    } catch (err) {
      await file.close().catch(() => undefined);
      throw err;
    }
    const params = negotiate(req.options, size, this.s.timeoutMs, this.s);
    const transfer = new ReadTransfer({ socket, peer, file, size, params, limits: this.s.limits });
    this.transfers.add(transfer);
    transfer.start();
    void transfer.done.then(async (outcome) => {
      this.transfers.delete(transfer);
      onEnd();
      await file.close().catch(() => undefined);
      this.s.onTransfer({ peer, filename: req.filename, outcome, bytes: outcome === 'complete' ? size : 0 });
    });
    return true;
  }

  async close(): Promise<void> {
    const all = [...this.transfers];
    for (const t of all) t.abort();
    await Promise.all(all.map((t) => t.done));
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

/** Starts a TFTP server; `port: 0` picks a free port, reported back. */
export async function start(opts: TftpServerOptions): Promise<TftpServer> {
  const s = settingsFrom(opts);
  const st = await fsp.stat(s.root).catch(() => undefined);
  if (!st?.isDirectory()) throw new TftpServerError(`TFTP root ${s.root} is not a directory`);
  const sock = dgram.createSocket(socketType(s.host));
  await bind(sock, s.host, opts.port ?? 0);
  const server = new Server(s, sock);
  const addr = sock.address();
  return {
    port: addr.port,
    address: addr.address,
    activeTransfers: () => server.active(),
    close: () => server.close(),
  };
}
