// Shared state of one emulator instance, handed to every route module.

import { notFound } from './messages';
import { SessionStore } from './sessions';
import { EmulatedSystem } from './system-state';
import { TaskStore } from './tasks';

export interface EmulatorContext {
  readonly systems: Map<string, EmulatedSystem>;
  readonly sessions: SessionStore;
  readonly tasks: TaskStore;
  readonly serviceUuid: string;
}

export function systemOr404(ctx: EmulatorContext, id: string, path: string): EmulatedSystem {
  const system = ctx.systems.get(id);
  if (!system) throw notFound(path);
  return system;
}

/** Managers and chassis are named after their system ("BMC-1", "Chassis-1"). */
export function systemByPrefixedId(ctx: EmulatorContext, prefix: string, id: string, path: string): EmulatedSystem {
  if (!id.startsWith(prefix)) throw notFound(path);
  return systemOr404(ctx, id.slice(prefix.length), path);
}

export function link(path: string): { '@odata.id': string } {
  return { '@odata.id': path };
}

export function collection(path: string, type: string, name: string, members: string[]) {
  return {
    '@odata.id': path,
    '@odata.type': `#${type}.${type}`,
    Name: name,
    'Members@odata.count': members.length,
    Members: members.map(link),
  };
}
