/** A private RabbitMQ vhost per test file, and forced connection drops, via rabbitmqctl. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

function ctl(...args: string[]): string {
  return execFileSync('rabbitmqctl', ['-q', ...args], { timeout: 30000 }).toString();
}

export function brokerAvailable(): boolean {
  try {
    ctl('status');
    return true;
  } catch {
    return false;
  }
}

export function createVhost(prefix: string): { vhost: string; url: string; remove(): void } {
  const vhost = `${prefix}-${randomBytes(4).toString('hex')}`;
  ctl('add_vhost', vhost);
  ctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  return {
    vhost,
    url: `rabbit://guest:guest@127.0.0.1:5672/${encodeURIComponent(vhost)}`,
    remove: () => {
      ctl('delete_vhost', vhost);
    },
  };
}

/** Closes, from the broker side, every connection whose client-provided name contains `needle`. */
export function dropConnections(needle: string): number {
  const lines = ctl('list_connections', 'pid', 'client_properties').split('\n');
  let closed = 0;
  for (const line of lines) {
    if (!line.includes(needle)) continue;
    const pid = line.split('\t')[0].trim();
    ctl('close_connection', pid, 'test: simulated broker connection drop');
    closed++;
  }
  return closed;
}
