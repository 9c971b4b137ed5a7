/**
 * The machine's RabbitMQ (127.0.0.1:5672): restarting the broker application for outage tests.
 * Callers must always call ensureRabbitRunning() afterwards, other tests and CI need it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitForPort } from './ports';

const AMQP_PORT = 5672;
const run = promisify(execFile);

export async function stopRabbitApp(): Promise<void> {
  await run('/usr/sbin/rabbitmqctl', ['stop_app'], { timeout: 60000 });
  await waitForPort(AMQP_PORT, 'closed', 15000);
}

/** start_app when the node runs; boots the whole node (which starts the app) when even that is down. */
export async function ensureRabbitRunning(timeoutMs = 90000): Promise<void> {
  try {
    await run('/usr/sbin/rabbitmqctl', ['start_app'], { timeout: 60000 });
  } catch {
    await run('/usr/sbin/rabbitmq-server', ['-detached'], { timeout: 30000 });
  }
  await waitForPort(AMQP_PORT, 'open', timeoutMs);
}
