/** How `ironic-compute` shows progress and results: one line per observed change, on stdout. */
import type { IronicNode } from '../client';
import type { ProgressFn } from '../types';

export function write(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Prints a line only when it differs from the previous one, so polling does not flood. */
export function progressPrinter(): ProgressFn {
  let last = '';
  return (e) => {
    const states = e.provisionState !== undefined
      ? ` provision_state=${e.provisionState ?? 'None'} target=${e.targetState ?? 'None'} power_state=${e.powerState ?? 'None'}`
      : '';
    const line = `${e.phase}: node ${e.node}${states}${e.message ? ` ${e.message}` : ''}`;
    if (line !== last) write(line);
    last = line;
  };
}

/** The node fields each step's result line shows. */
export function nodeSummary(n: IronicNode): string {
  return `node ${n.uuid} instance ${n.instance_uuid ?? 'None'} provision_state=${n.provision_state ?? 'None'} power_state=${n.power_state ?? 'None'}`;
}
