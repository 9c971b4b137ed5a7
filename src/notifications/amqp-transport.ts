/**
 * oslo.messaging's `messaging`/`messagingv2` notification drivers over its rabbit driver: each
 * message goes to the control exchange (a topic exchange; Ironic's default `ironic`) with routing
 * key `<topic>.<priority>`, after declaring the queue of that name bound to it, as
 * _publish_and_creates_default_queue does so nothing is lost before a consumer comes. v2 wraps the
 * message in the `{"oslo.version": "2.0", "oslo.message": "<json>"}` envelope; both carry the
 * context as `_context_*` keys and a `_unique_id`.
 *
 * Sends are queued in order behind one pump; the queue is bounded and a broker that does not answer
 * within a few seconds gets the queue dropped with a warning, so no caller ever waits for it.
 */
import { randomUUID } from 'node:crypto';
import type * as amqp from 'amqplib';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { pythonJsonDumps } from '../common/python/json-dumps';
import { amqpUrl, ReconnectingAmqp } from '../rpc/amqp-connection';

/** What oslo.messaging's Notifier hands its drivers. */
export interface NotificationMessage {
  message_id: string;
  publisher_id: string;
  event_type: string;
  priority: string;
  payload: Record<string, unknown>;
  timestamp: string;
}

const MAX_QUEUED = 1000;
const BROKER_WAIT_MS = 3000;

interface Queued {
  routingKey: string;
  body: Buffer;
}

export class AmqpNotificationTransport {
  private readonly conn: ReconnectingAmqp;
  private readonly exchange: string;
  private readonly topics: string[];
  private readonly durable: boolean;
  private readonly autoDelete: boolean;
  private readonly queue: Queued[] = [];
  private pumping = false;
  private readonly declared = new WeakMap<amqp.ConfirmChannel, Set<string>>();
  private dropped = 0;

  constructor(conf: Config, private readonly version: 1 | 2) {
    const url = conf.optStr('oslo_messaging_notifications', 'transport_url') ?? conf.str('DEFAULT', 'transport_url');
    this.conn = new ReconnectingAmqp(amqpUrl(url), `ironic-ts notifier ${conf.str('DEFAULT', 'host')}`);
    // Ironic sets oslo.messaging's control_exchange default to `ironic` (rpc.set_defaults).
    this.exchange = conf.has('DEFAULT', 'control_exchange') ? conf.str('DEFAULT', 'control_exchange') : 'ironic';
    this.topics = conf.list('DEFAULT', 'versioned_notifications_topics');
    this.durable = conf.bool('oslo_messaging_rabbit', 'amqp_durable_queues');
    this.autoDelete = conf.bool('oslo_messaging_rabbit', 'amqp_auto_delete');
    void this.conn.get().catch(() => undefined);
  }

  send(message: NotificationMessage, context: Record<string, unknown>): void {
    const msg: Record<string, unknown> = { ...message, _unique_id: randomUUID().replace(/-/g, '') };
    for (const [key, value] of Object.entries(context)) msg[`_context_${key}`] = value;
    const wire = this.version === 2 ? { 'oslo.version': '2.0', 'oslo.message': pythonJsonDumps(msg) } : msg;
    const body = Buffer.from(pythonJsonDumps(wire));
    for (const topic of this.topics) {
      if (this.queue.length >= MAX_QUEUED) {
        this.dropped++;
        continue;
      }
      this.queue.push({ routingKey: `${topic}.${message.priority.toLowerCase()}`, body });
    }
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const channel = await this.channelOrNull();
        if (channel === null) {
          this.dropped += this.queue.length;
          this.queue.length = 0;
          break;
        }
        const item = this.queue[0];
        try {
          await this.publish(channel, item);
        } catch (err) {
          log.warning(`Notification to ${this.exchange}/${item.routingKey} not sent: ${(err as Error).message}`);
          this.dropped++;
        }
        this.queue.shift();
      }
    } finally {
      this.pumping = false;
      this.reportDropped();
    }
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    log.warning(`Dropped ${this.dropped} notification(s): the message broker is not reachable`);
    this.dropped = 0;
  }

  private async channelOrNull(): Promise<amqp.ConfirmChannel | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), BROKER_WAIT_MS); });
    try {
      return await Promise.race([this.conn.get().catch(() => null), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async publish(channel: amqp.ConfirmChannel, item: Queued): Promise<void> {
    let declared = this.declared.get(channel);
    if (!declared) {
      declared = new Set();
      this.declared.set(channel, declared);
      await channel.assertExchange(this.exchange, 'topic', { durable: this.durable, autoDelete: this.autoDelete });
    }
    if (!declared.has(item.routingKey)) {
      await channel.assertQueue(item.routingKey, { durable: this.durable, autoDelete: this.autoDelete });
      await channel.bindQueue(item.routingKey, this.exchange, item.routingKey);
      declared.add(item.routingKey);
    }
    await new Promise<void>((resolve, reject) => {
      channel.publish(this.exchange, item.routingKey, item.body,
        { contentType: 'application/json', contentEncoding: 'utf-8', persistent: this.durable },
        (err) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()));
    });
  }

  /** Gives queued notifications up to a few seconds to leave (a clean stop), then closes. */
  async close(): Promise<void> {
    const deadline = Date.now() + BROKER_WAIT_MS;
    while (this.pumping && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await this.conn.close();
  }
}
