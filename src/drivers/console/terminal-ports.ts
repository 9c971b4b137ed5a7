/**
 * console_utils' port allocation: a free TCP port of `[console]port_range` (`<start>:<stop>`) on the
 * console host, checked by binding it, and remembered in this process until released.
 */
import * as net from 'node:net';
import { InvalidParameterValue, NoFreeIPMITerminalPorts } from '../../common/errors';

const allocated = new Set<number>();

function portRange(range: string): [number, number] {
  const m = /^(\d+):(\d+)$/.exec(range);
  const [start, stop] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || start >= stop) throw new InvalidParameterValue('[console]port_range should be in the format <start>:<stop> and start < stop');
  return [start, stop];
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** acquire_port: the first port of the range neither allocated here nor bound by anyone. */
export async function acquirePort(range: string, host: string, conductorHost: string): Promise<number> {
  const [start, stop] = portRange(range);
  for (let port = start; port < stop; port += 1) {
    if (allocated.has(port)) continue;
    allocated.add(port);
    if (await bindable(port, host)) return port;
    allocated.delete(port);
  }
  throw new NoFreeIPMITerminalPorts({ host: conductorHost });
}

export function releasePort(port: number): void {
  allocated.delete(port);
}
