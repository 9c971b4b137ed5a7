/**
 * GET /dashboard/api/state-machine: the provision state machine as the app draws it, from the one
 * table in conductor/fsm.ts (as the API reads it for its checks): states with their kind and where a
 * non-stable state is heading, every transition, and the API verbs with the event each fires.
 */
import { ALL_STATES, TARGETS, VERBS, statesOfKind, transitions, type StateKind } from '../conductor/fsm';

const KINDS: readonly StateKind[] = ['stable', 'unstable', 'hold', 'failed'];

function describe(): string {
  const kindOf = new Map<string, StateKind>(KINDS.flatMap((kind) => statesOfKind(kind).map((state) => [state, kind] as const)));
  return JSON.stringify({
    states: ALL_STATES.map((name) => ({ name, kind: kindOf.get(name) ?? 'stable', target: TARGETS[name] ?? null })),
    transitions: transitions().map(({ from, event, to }) => ({ from, event, to })),
    verbs: Object.fromEntries(Object.entries(VERBS).map(([target, verb]) => [target, verb.event])),
  });
}

let cached: string | null = null;

/** The JSON text, built once. */
export function stateMachineJson(): string {
  cached ??= describe();
  return cached;
}
