/**
 * The API side of the oslo-style transport: publishes each call (persistent, publisher
 * confirms) to the owning conductor's topic and waits for the reply on a durable per-client
 * queue, re-publishing after a broker reconnect until [DEFAULT]rpc_response_timeout.
 */
import { randomUUID } from 'node:crypto';
import type * as amqp from 'amqplib';
import { IronicError } from '../common/errors';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { amqpUrl, ReconnectingAmqp } from './amqp-connection';
import { exchangeName } from './amqp-server';
import { callContext, decode, encode, fromFailure, RpcReply } from './wire';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class AmqpCaller {
  private readonly conn: ReconnectingAmqp;
  private readonly replyQueue = `reply_${randomUUID().replace(/-/g, '')}`;
  private readonly pending = new Map<string, Pending>();
  private readonly exchange: string;

  constructor(private readonly conf: Config) {
    this.exchange = exchangeName(conf);
    this.conn = new ReconnectingAmqp(amqpUrl(conf.str('DEFAULT', 'transport_url')), `ironic-ts rpc client ${this.replyQueue}`);
    this.conn.addSetup(async (ch: amqp.ConfirmChannel) => {
      await ch.assertExchange(this.exchange, 'topic', { durable: true });
      // Durable with an idle expiry: replies published while we reconnect are kept for us.
      await ch.assertQueue(this.replyQueue, { durable: true, arguments: { 'x-expires': 600000 } });
      await ch.consume(this.replyQueue, (msg) => {
        if (msg) this.onReply(msg);
      }, { noAck: true });
    });
  }

  private onReply(msg: amqp.ConsumeMessage): void {
    const id = (msg.properties as { correlationId?: string }).correlationId;
    const waiter = id ? this.pending.get(id) : undefined;
    if (!waiter || !id) return;
    this.pending.delete(id);
    const reply = decode<RpcReply>(msg.content.toString('utf8'));
    if ('failure' in reply) waiter.reject(fromFailure(reply.failure));
    else waiter.resolve(reply.result);
  }

  async call(topic: string, method: string, args: unknown[]): Promise<unknown> {
    const id = randomUUID();
    const timeoutMs = this.conf.int('DEFAULT', 'rpc_response_timeout') * 1000;
    const deadline = Date.now() + timeoutMs;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    const timer = new Promise<never>((_, reject) => {
      const t = setTimeout(() => {
        this.pending.delete(id);
        reject(new IronicError(`Timed out waiting for a reply to message ID ${id}`));
      }, timeoutMs);
      void answer.finally(() => clearTimeout(t)).catch(() => undefined);
    });
    await this.publish(id, topic, method, args, deadline);
    return Promise.race([answer, timer]);
  }

  /** Retries until the broker confirms the message is queued (durable) or the deadline passes. */
  private async publish(id: string, topic: string, method: string, args: unknown[], deadline: number): Promise<void> {
    const body = Buffer.from(encode({ method, args, context: callContext() }));
    for (;;) {
      try {
        const ch = await this.conn.get();
        ch.publish(this.exchange, topic, body, {
          persistent: true, correlationId: id, replyTo: this.replyQueue, contentType: 'application/json',
        });
        await ch.waitForConfirms();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new IronicError(`Timed out waiting for a reply to message ID ${id}`);
        log.warning(`RPC ${method} publish failed (${(err as Error).message}); retrying`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async close(): Promise<void> {
    for (const [id, p] of this.pending) {
      p.reject(new IronicError(`RPC client closed before a reply to message ID ${id}`));
    }
    this.pending.clear();
    await this.conn.close();
  }
}
