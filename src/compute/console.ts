/**
 * Console access as Nova's ironic driver gives it (_get_node_console_with_reset and
 * get_serial_console): an enabled console is disabled and re-enabled first, because IPMI serial
 * consoles take one session and a reset drops a stale one; a disabled console is not available.
 */
import type { IronicClient, NodeConsole } from './client';
import { ConsoleUnavailableError } from './errors';
import type { WaitOptions } from './types';
import { pollUntil } from './wait';

export interface ConsoleAccess {
  node: string;
  type: string | null;
  url: string | null;
  /** For a `socat` console on a tcp:// URL: what Nova hands out as ConsoleSerial. */
  serial?: { host: string; port: number };
}

async function getConsole(client: IronicClient, node: string): Promise<NodeConsole> {
  try {
    return await client.getConsole(node);
  } catch (err) {
    throw new ConsoleUnavailableError(`Guest does not have a console available. (${(err as Error).message})`);
  }
}

async function setMode(client: IronicClient, node: string, enabled: boolean, wait: WaitOptions): Promise<NodeConsole> {
  try {
    await client.setConsoleMode(node, enabled);
  } catch (err) {
    throw new ConsoleUnavailableError(`Guest does not have a console available. (${(err as Error).message})`);
  }
  // [ironic]serial_console_state_timeout defaults to 10 s.
  return pollUntil(`console ${enabled ? 'enabled' : 'disabled'}`, async () => {
    const c = await getConsole(client, node);
    return c.console_enabled === enabled ? c : undefined;
  }, { intervalMs: Math.min(wait.intervalMs ?? 1000, 1000), timeoutMs: 10000 });
}

/** Enabling first is the shim's addition (`console --enable`); Nova only resets enabled consoles. */
export async function consoleWithReset(client: IronicClient, node: string, wait: WaitOptions, enable = false): Promise<ConsoleAccess> {
  let c = await getConsole(client, node);
  if (c.console_enabled) {
    try {
      await setMode(client, node, false, wait);
      c = await setMode(client, node, true, wait);
    } catch {
      c = await setMode(client, node, true, wait);
    }
  } else if (enable) {
    c = await setMode(client, node, true, wait);
  }
  if (!c.console_enabled) throw new ConsoleUnavailableError('Guest does not have a console available.');
  const info = c.console_info ?? {};
  return { node, type: info.type ?? null, url: info.url ?? null, serial: serialOf(info) };
}

function serialOf(info: { type?: string; url?: string }): ConsoleAccess['serial'] {
  if (info.type !== 'socat' || !info.url) return undefined;
  try {
    const u = new URL(info.url);
    if (u.protocol !== 'tcp:' || !u.hostname || !u.port) return undefined;
    return { host: u.hostname, port: Number(u.port) };
  } catch {
    return undefined;
  }
}
