/**
 * One read (download) session on its own UDP socket, i.e. its own TID.
 * Sends DATA in a sliding window (RFC 7440): at most `windowsize` blocks
 * are unacknowledged at a time, an ACK slides the window and releases only
 * blocks not yet sent, and a timeout resends from the first unacknowledged
 * block. Block numbers are 16 bits on the wire and roll over to 0 after
 * 65535; internally blocks are counted without wrapping so large files work.
 */
import type * as dgram from 'node:dgram';
import type { FileHandle } from 'node:fs/promises';
import { Opcode, TftpErrorCode, decodePacket, encodeData, encodeError, encodeOack, type Packet } from './packets';
import type { TransferParams } from './options';

export interface Peer {
  address: string;
  port: number;
}

interface ReadTransferInit {
  socket: dgram.Socket;
  peer: Peer;
  file: FileHandle;
  size: number;
  params: TransferParams;
  limits: TransferLimits;
}

/** Bounds on how long a transfer may hold its slot, whatever the client negotiated. */
export interface TransferLimits {
  /** How many times one packet (or window) is resent before giving up. */
  retries: number;
  /** Longest wait for an ACK that moves the transfer on. */
  idleMs: number;
  /** Longest a transfer may last in total. */
  lifetimeMs: number;
}

const READ_AHEAD = 256 * 1024;

export type TransferOutcome = 'complete' | 'timeout' | 'idle' | 'expired' | 'aborted-by-peer' | 'closed' | 'io-error';

export class ReadTransfer {
  private readonly lastBlock: number;
  /** First block not yet acknowledged. */
  private base = 1;
  /** Highest block sent so far; blocks base..sentUpTo are in flight. */
  private sentUpTo = 0;
  private awaitingOackAck: boolean;
  private retriesLeft: number;
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly lifetimeTimer: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();
  private readAhead: { offset: number; data: Buffer } | undefined;
  private finished = false;
  private resolveDone!: (o: TransferOutcome) => void;
  readonly done: Promise<TransferOutcome>;

  constructor(private readonly init: ReadTransferInit) {
    // The final block is always shorter than blksize, possibly empty.
    this.lastBlock = Math.floor(init.size / init.params.blksize) + 1;
    this.awaitingOackAck = init.params.accepted.size > 0;
    this.retriesLeft = init.limits.retries;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    init.socket.on('message', (msg, rinfo) => this.enqueue(() => this.onMessage(msg, rinfo)));
    this.lifetimeTimer = setTimeout(() => this.giveUp('expired', 'Transfer time limit exceeded'), init.limits.lifetimeMs);
    this.armIdleTimer();
  }

  start(): void {
    this.enqueue(() => this.sendCurrent());
  }

  /** Stops the transfer (server shutdown). */
  abort(): void {
    this.finish('closed');
  }

  private enqueue(step: () => Promise<void> | void): void {
    this.queue = this.queue.then(step).catch(() => this.finish('io-error'));
  }

  private send(buf: Buffer): void {
    if (this.finished) return;
    this.init.socket.send(buf, this.init.peer.port, this.init.peer.address);
  }

  /** (Re)sends the OACK, or the window from the first unacknowledged block. */
  private async sendCurrent(): Promise<void> {
    if (this.finished) return;
    if (this.awaitingOackAck) this.send(encodeOack(this.init.params.accepted));
    else await this.sendBlocks(this.base, this.windowEnd());
    this.armTimer();
  }

  private windowEnd(): number {
    return Math.min(this.base + this.init.params.windowsize - 1, this.lastBlock);
  }

  private async sendBlocks(first: number, last: number): Promise<void> {
    if (first > last) return;
    const { blksize } = this.init.params;
    const start = (first - 1) * blksize;
    const data = await this.readRange(start, Math.min((last - first + 1) * blksize, this.init.size - start));
    for (let abs = first; abs <= last; abs++) {
      const from = (abs - first) * blksize;
      this.send(encodeData(abs & 0xffff, data.subarray(Math.min(from, data.length), Math.min(from + blksize, data.length))));
    }
    this.sentUpTo = Math.max(this.sentUpTo, last);
  }

  /**
   * Reads through a read-ahead buffer: with small blocks in lock-step, one
   * disk read per ACK would dominate the cost of a transfer.
   */
  private async readRange(offset: number, length: number): Promise<Buffer> {
    if (length <= 0) return Buffer.alloc(0);
    const c = this.readAhead;
    if (c && offset >= c.offset && offset + length <= c.offset + c.data.length) {
      return c.data.subarray(offset - c.offset, offset - c.offset + length);
    }
    const buf = Buffer.alloc(Math.max(length, READ_AHEAD));
    const { bytesRead } = await this.init.file.read(buf, 0, buf.length, offset);
    this.readAhead = { offset, data: buf.subarray(0, bytesRead) };
    return this.readAhead.data.subarray(0, Math.min(length, bytesRead));
  }

  private armTimer(): void {
    clearTimeout(this.timer);
    if (this.finished) return;
    this.timer = setTimeout(() => this.enqueue(() => this.onTimeout()), this.init.params.timeoutMs);
  }

  /** Restarted on every ACK that moves the transfer on. */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.giveUp('idle', 'Timeout'), this.init.limits.idleMs);
  }

  private async onTimeout(): Promise<void> {
    if (this.finished) return;
    if (this.retriesLeft-- <= 0) {
      this.giveUp('timeout', 'Timeout');
      return;
    }
    await this.sendCurrent();
  }

  /** Tells the client why (RFC 1350 error code 0) and frees the slot. */
  private giveUp(outcome: TransferOutcome, message: string): void {
    this.finish(outcome, encodeError(TftpErrorCode.NOT_DEFINED, message));
  }

  private async onMessage(msg: Buffer, rinfo: Peer): Promise<void> {
    if (this.finished) return;
    if (rinfo.port !== this.init.peer.port || rinfo.address !== this.init.peer.address) {
      // RFC 1350: a stranger gets an error but the transfer goes on.
      this.init.socket.send(encodeError(TftpErrorCode.UNKNOWN_TID, 'Unknown transfer ID'), rinfo.port, rinfo.address);
      return;
    }
    let packet: Packet;
    try {
      packet = decodePacket(msg);
    } catch {
      return;
    }
    if (packet.op === Opcode.ERROR) {
      this.finish('aborted-by-peer');
    } else if (packet.op === Opcode.ACK) {
      await this.onAck(packet.block);
    }
  }

  /** Maps a 16-bit block number to the unwrapped block it acknowledges. */
  private ackedBlock(wire: number): number | undefined {
    for (let abs = this.sentUpTo; abs >= this.base; abs--) {
      if ((abs & 0xffff) === wire) return abs;
    }
    return undefined;
  }

  private async onAck(wire: number): Promise<void> {
    if (this.awaitingOackAck) {
      if (wire !== 0) return;
      this.awaitingOackAck = false;
    } else {
      const abs = this.ackedBlock(wire);
      // Duplicate and old ACKs are ignored (no retransmit) to avoid the
      // Sorcerer's Apprentice syndrome; the timer covers genuine loss.
      if (abs === undefined) return;
      if (abs === this.lastBlock) {
        this.finish('complete');
        return;
      }
      this.base = abs + 1;
    }
    this.retriesLeft = this.init.limits.retries;
    this.armIdleTimer();
    // Slide, do not restart: blocks after the acknowledged one that are
    // already in flight are not resent (an ACK per block would otherwise
    // cost a whole window each); only the room the ACK freed is filled.
    await this.sendBlocks(this.sentUpTo + 1, this.windowEnd());
    this.armTimer();
  }

  /** Ends the transfer; a `farewell` packet is flushed before the socket closes (closing at once would drop it). */
  private finish(outcome: TransferOutcome, farewell?: Buffer): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    clearTimeout(this.idleTimer);
    clearTimeout(this.lifetimeTimer);
    const { socket, peer } = this.init;
    if (farewell) socket.send(farewell, peer.port, peer.address, () => socket.close());
    else socket.close();
    this.resolveDone(outcome);
  }
}
