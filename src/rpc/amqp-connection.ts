/**
 * One AMQP connection that comes back after the broker goes away: callers get the current
 * confirm channel (waiting while reconnecting) and register a setup hook re-run on every
 * reconnect (declare exchanges/queues, start consumers).
 */
import type * as amqp from 'amqplib';

/** amqplib is loaded only when an AMQP transport is configured (the embedded default has none). */
function amqplib(): typeof amqp {
  return require('amqplib') as typeof amqp;
}
import { log } from '../common/log';

type Setup = (channel: amqp.ConfirmChannel) => Promise<void>;

/** rabbit://user:pass@host:port/vhost -> amqp://... (oslo.messaging's transport_url). */
export function amqpUrl(transportUrl: string): string {
  const u = new URL(transportUrl.replace(/^rabbit:/, 'amqp:'));
  if (!u.hostname) u.hostname = '127.0.0.1';
  if (!u.username) {
    u.username = 'guest';
    u.password = 'guest';
  }
  return u.toString().replace(/\/$/, '');
}

export class ReconnectingAmqp {
  private model: amqp.ChannelModel | null = null;
  private channel: amqp.ConfirmChannel | null = null;
  private connecting: Promise<amqp.ConfirmChannel> | null = null;
  private readonly setups: Setup[] = [];
  private closed = false;

  constructor(private readonly url: string, private readonly name: string) {}

  addSetup(setup: Setup): void {
    this.setups.push(setup);
    if (this.channel) void setup(this.channel).catch((err: unknown) => log.error(`AMQP setup failed: ${String(err)}`));
  }

  async get(): Promise<amqp.ConfirmChannel> {
    if (this.channel) return this.channel;
    if (this.closed) throw new Error('AMQP connection closed');
    this.connecting ??= this.connectLoop().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connectLoop(): Promise<amqp.ConfirmChannel> {
    let delay = 200;
    for (;;) {
      if (this.closed) throw new Error('AMQP connection closed');
      try {
        return await this.connectOnce();
      } catch (err) {
        log.warning(`${this.name}: AMQP connect failed (${(err as Error).message}); retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async connectOnce(): Promise<amqp.ConfirmChannel> {
    // A named connection shows up in the broker's tools (rabbitmqctl list_connections client_properties).
    const model = await amqplib().connect(this.url, { clientProperties: { connection_name: this.name } });
    const channel = await model.createConfirmChannel();
    const lost = () => {
      if (this.model !== model) return;
      this.model = null;
      this.channel = null;
      if (!this.closed) {
        log.warning(`${this.name}: AMQP connection lost; reconnecting`);
        void this.get().catch(() => undefined);
      }
    };
    model.on('close', lost);
    model.on('error', () => undefined);
    channel.on('error', () => undefined);
    channel.on('close', lost);
    for (const setup of this.setups) await setup(channel);
    this.model = model;
    this.channel = channel;
    return channel;
  }

  async close(): Promise<void> {
    this.closed = true;
    const model = this.model;
    this.model = null;
    this.channel = null;
    if (model) await model.close().catch(() => undefined);
  }
}
