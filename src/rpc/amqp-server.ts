/**
 * The conductor side of the oslo-style transport: consumes `ironic.conductor_manager` and
 * `ironic.conductor_manager.<host>` (durable queues on a topic exchange), runs each call on the
 * local manager, and replies to the caller's queue with the same correlation id.
 */
import type * as amqp from 'amqplib';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { MANAGER_TOPIC } from './ring-manager';
import type { ConductorApi } from './conductor-api';
import { dispatch } from './dispatch';
import { amqpUrl, ReconnectingAmqp } from './amqp-connection';
import { decode, encode, RpcReply, RpcRequest, toFailure } from './wire';

interface RpcServer {
  close(): Promise<void>;
}

export function exchangeName(conf: Config): string {
  return conf.str('DEFAULT', 'control_exchange') || 'ironic';
}

export async function serveAmqpRpc(conf: Config, local: ConductorApi): Promise<RpcServer> {
  const host = conf.str('DEFAULT', 'host');
  const exchange = exchangeName(conf);
  const conn = new ReconnectingAmqp(amqpUrl(conf.str('DEFAULT', 'transport_url')), `ironic-ts conductor ${host}`);
  const queues = [MANAGER_TOPIC, `${MANAGER_TOPIC}.${host}`];
  conn.addSetup(async (ch: amqp.ConfirmChannel) => {
    await ch.assertExchange(exchange, 'topic', { durable: true });
    await ch.prefetch(Math.max(1, conf.int('conductor', 'workers_pool_size')));
    for (const q of queues) {
      await ch.assertQueue(q, { durable: true });
      await ch.bindQueue(q, exchange, q);
      await ch.consume(q, (msg) => {
        if (msg) void handle(ch, msg);
      }, { noAck: false });
    }
  });

  async function handle(ch: amqp.ConfirmChannel, msg: amqp.ConsumeMessage): Promise<void> {
    // Acknowledge before dispatching, as oslo.messaging does: a request redelivered after a lost
    // channel would otherwise run twice (the API answers 202 only once the reply arrives).
    try {
      ch.ack(msg);
    } catch (err) {
      log.warning(`Could not acknowledge an RPC request: ${(err as Error).message}`);
      return;
    }
    let reply: RpcReply;
    try {
      reply = await dispatch(local, decode<RpcRequest>(msg.content.toString('utf8')));
    } catch (err) {
      reply = { failure: toFailure(err) };
    }
    const { replyTo, correlationId } = msg.properties as { replyTo?: string; correlationId?: string };
    try {
      const out = await conn.get();
      if (replyTo) {
        out.sendToQueue(replyTo, Buffer.from(encode(reply)), { correlationId, contentType: 'application/json', persistent: true });
        await out.waitForConfirms();
      }
    } catch (err) {
      // The caller times out and reports the failure; the request is not run a second time.
      log.warning(`Could not reply to RPC ${correlationId}: ${(err as Error).message}`);
    }
  }

  await conn.get();
  return { close: () => conn.close() };
}
