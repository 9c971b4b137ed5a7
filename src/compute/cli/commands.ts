/** Every `ironic-compute` command, by name. */
import type { Command } from './context';
import { infoCommands } from './info';
import { instanceCommands } from './instance';
import { networkCommands } from './network';
import { powerCommands } from './power';
import { rescueCommands } from './rescue';

export const COMMANDS: Command[] = [...instanceCommands, ...infoCommands, ...powerCommands, ...rescueCommands, ...networkCommands];

export function usage(): string {
  return ['usage: ironic-compute [--url URL] [--api-version V] [--interval SECONDS] [--timeout SECONDS] COMMAND [options]',
    ...COMMANDS.map((c) => `  ${c.usage}`),
    '--network keys: vif=PORT_ID (required), mac=MAC, net=NETWORK_ID, ip=ADDR/PREFIX, gateway=GW, dns=A;B, mtu=N, route=CIDR@GW;..., dhcp=SERVER',
    'Errors are printed as `error: <Nova exception name>: <message>` with exit status 1.'].join('\n');
}
