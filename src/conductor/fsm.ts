/**
 * Ironic's provision state machine (common/states.py + common/fsm.py) and the API verbs that drive
 * it: the one table of states, verbs and transitions, each verb and transition with the microversion
 * that introduced it. The conductor runs the whole machine; the API serves it as of the microversion
 * it implements (api/machine.ts), so both read the same facts.
 */
import * as s from '../common/states';
import { InvalidState } from '../common/errors';
import { lookupTable } from '../common/own-keys';

/** Any microversion: the whole machine, as the conductor runs it. */
const LATEST = Infinity;

/**
 * stable: rests until asked (STABLE_STATES); unstable: moves on without a request (UNSTABLE_STATES);
 * hold: paused by a hold step; failed: FAILURE_STATES.
 */
export type StateKind = 'stable' | 'unstable' | 'hold' | 'failed';

interface StateSpec {
  readonly kind: StateKind;
  /** Where a non-stable state is heading (add_state(..., target=...)). */
  readonly target: string | null;
}

const STABLE: StateSpec = { kind: 'stable', target: null };
const heading = (kind: StateKind) => (target: string): StateSpec => ({ kind, target });
const unstable = heading('unstable');
const hold = heading('hold');
const failed = heading('failed');

const STATES: Readonly<Record<string, StateSpec>> = lookupTable({
  [s.ENROLL]: STABLE, [s.VERIFYING]: unstable(s.MANAGEABLE), [s.MANAGEABLE]: STABLE, [s.AVAILABLE]: STABLE,
  [s.DEPLOYING]: unstable(s.ACTIVE), [s.DEPLOYWAIT]: unstable(s.ACTIVE), [s.DEPLOYHOLD]: hold(s.ACTIVE),
  [s.DEPLOYFAIL]: failed(s.ACTIVE), [s.ACTIVE]: STABLE, [s.DELETING]: unstable(s.AVAILABLE), [s.ERROR]: STABLE,
  [s.CLEANING]: unstable(s.AVAILABLE), [s.CLEANWAIT]: unstable(s.AVAILABLE), [s.CLEANHOLD]: hold(s.AVAILABLE),
  [s.CLEANFAIL]: failed(s.AVAILABLE), [s.INSPECTING]: unstable(s.MANAGEABLE), [s.INSPECTWAIT]: unstable(s.MANAGEABLE),
  [s.INSPECTFAIL]: failed(s.MANAGEABLE), [s.ADOPTING]: unstable(s.ACTIVE), [s.ADOPTFAIL]: failed(s.ACTIVE),
  [s.RESCUING]: unstable(s.RESCUE), [s.RESCUEWAIT]: unstable(s.RESCUE), [s.RESCUE]: STABLE,
  [s.RESCUEFAIL]: failed(s.RESCUE), [s.UNRESCUING]: unstable(s.ACTIVE), [s.UNRESCUEFAIL]: failed(s.ACTIVE),
  [s.SERVICING]: unstable(s.ACTIVE), [s.SERVICEWAIT]: unstable(s.ACTIVE), [s.SERVICEHOLD]: hold(s.ACTIVE),
  [s.SERVICEFAIL]: failed(s.ACTIVE),
});

/**
 * [to, since, gated]. `since` is the microversion that introduced the transition: the feature's own
 * where Ironic has one, else the highest of the first release that had it (1: Kilo's machine).
 * `gated`: Ironic's API refuses it (406, after the state check) below `since`.
 */
type Edge = readonly [to: string, since: number, gated?: 'gated'];

type EdgesOut = Readonly<Record<string, Edge>>;

const EDGES = lookupTable<EdgesOut>({
  [s.ENROLL]: { manage: [s.VERIFYING, 11] },
  [s.VERIFYING]: { done: [s.MANAGEABLE, 11], fail: [s.ENROLL, 11] },
  [s.MANAGEABLE]: {
    provide: [s.CLEANING, 4], clean: [s.CLEANING, 15], inspect: [s.INSPECTING, 6], adopt: [s.ADOPTING, 17],
  },
  [s.AVAILABLE]: { deploy: [s.DEPLOYING, 1], manage: [s.MANAGEABLE, 4] },
  [s.DEPLOYING]: {
    done: [s.ACTIVE, 1], wait: [s.DEPLOYWAIT, 1], hold: [s.DEPLOYHOLD, 85], fail: [s.DEPLOYFAIL, 1],
  },
  [s.DEPLOYWAIT]: {
    resume: [s.DEPLOYING, 1], hold: [s.DEPLOYHOLD, 85], fail: [s.DEPLOYFAIL, 1], abort: [s.DEPLOYFAIL, 110, 'gated'],
    delete: [s.DELETING, 1],
  },
  [s.DEPLOYHOLD]: { unhold: [s.DEPLOYWAIT, 85], abort: [s.DEPLOYFAIL, 85] },
  [s.DEPLOYFAIL]: { deploy: [s.DEPLOYING, 1], rebuild: [s.DEPLOYING, 1], delete: [s.DELETING, 1] },
  [s.ACTIVE]: {
    rebuild: [s.DEPLOYING, 1], delete: [s.DELETING, 1], rescue: [s.RESCUING, 38], service: [s.SERVICING, 87],
  },
  [s.DELETING]: { clean: [s.CLEANING, 1], fail: [s.ERROR, 56] },
  [s.ERROR]: { rebuild: [s.DEPLOYING, 1], delete: [s.DELETING, 1] },
  [s.CLEANING]: {
    done: [s.AVAILABLE, 1], wait: [s.CLEANWAIT, 11], hold: [s.CLEANHOLD, 85], fail: [s.CLEANFAIL, 1],
    manage: [s.MANAGEABLE, 15],
  },
  [s.CLEANWAIT]: {
    resume: [s.CLEANING, 11], hold: [s.CLEANHOLD, 85], fail: [s.CLEANFAIL, 11], abort: [s.CLEANFAIL, 13],
  },
  [s.CLEANHOLD]: { unhold: [s.CLEANWAIT, 85], abort: [s.CLEANFAIL, 85] },
  [s.CLEANFAIL]: { manage: [s.MANAGEABLE, 4] },
  [s.INSPECTING]: { done: [s.MANAGEABLE, 6], wait: [s.INSPECTWAIT, 39], fail: [s.INSPECTFAIL, 6] },
  [s.INSPECTWAIT]: {
    done: [s.MANAGEABLE, 39], resume: [s.INSPECTING, 84], fail: [s.INSPECTFAIL, 39],
    abort: [s.INSPECTFAIL, 41, 'gated'],
  },
  [s.INSPECTFAIL]: { manage: [s.MANAGEABLE, 6], inspect: [s.INSPECTING, 6] },
  [s.ADOPTING]: { done: [s.ACTIVE, 17], fail: [s.ADOPTFAIL, 17] },
  [s.ADOPTFAIL]: { adopt: [s.ADOPTING, 17], manage: [s.MANAGEABLE, 17] },
  [s.RESCUING]: { done: [s.RESCUE, 38], wait: [s.RESCUEWAIT, 38], fail: [s.RESCUEFAIL, 38] },
  [s.RESCUEWAIT]: {
    resume: [s.RESCUING, 38], fail: [s.RESCUEFAIL, 38], abort: [s.RESCUEFAIL, 38], delete: [s.DELETING, 38],
  },
  [s.RESCUE]: { rescue: [s.RESCUING, 38], unrescue: [s.UNRESCUING, 38], delete: [s.DELETING, 38] },
  [s.RESCUEFAIL]: { rescue: [s.RESCUING, 38], unrescue: [s.UNRESCUING, 38], delete: [s.DELETING, 38] },
  [s.UNRESCUING]: { done: [s.ACTIVE, 38], fail: [s.UNRESCUEFAIL, 38] },
  [s.UNRESCUEFAIL]: { rescue: [s.RESCUING, 38], unrescue: [s.UNRESCUING, 38], delete: [s.DELETING, 38] },
  [s.SERVICING]: {
    done: [s.ACTIVE, 87], wait: [s.SERVICEWAIT, 87], hold: [s.SERVICEHOLD, 87], fail: [s.SERVICEFAIL, 87],
  },
  [s.SERVICEWAIT]: {
    resume: [s.SERVICING, 87], hold: [s.SERVICEHOLD, 87], fail: [s.SERVICEFAIL, 87], abort: [s.SERVICEFAIL, 87],
    delete: [s.DELETING, 96],
  },
  [s.SERVICEHOLD]: {
    service: [s.SERVICING, 87], unhold: [s.SERVICEWAIT, 87], abort: [s.SERVICEFAIL, 87], fail: [s.SERVICEFAIL, 101],
  },
  [s.SERVICEFAIL]: {
    service: [s.SERVICING, 87], rescue: [s.RESCUING, 87], delete: [s.DELETING, 96], abort: [s.ACTIVE, 101],
    wait: [s.SERVICEWAIT, 101], hold: [s.SERVICEHOLD, 101],
  },
});

/** An API provision target: the event it fires and the microversion the API requires for it. */
export interface Verb {
  readonly event: string;
  readonly since: number;
  /** Ironic checks this verb's microversion after the state check and the argument checks, not before. */
  readonly late?: true;
}

/**
 * states.VERBS plus `rebuild` (Ironic passes it through as its own event), in api-ref order.
 * `undeploy` came with `deploy` in 1.73, but Ironic never requires it: its gate table is keyed by
 * event (`delete`) and looked up by target. Ironic checks `unhold` and `service` after the state
 * check, the others before.
 */
export const VERBS: Readonly<Record<string, Verb>> = lookupTable({
  active: { event: 'deploy', since: 1 },
  deleted: { event: 'delete', since: 1 },
  rebuild: { event: 'rebuild', since: 1 },
  manage: { event: 'manage', since: 4 },
  provide: { event: 'provide', since: 4 },
  inspect: { event: 'inspect', since: 6 },
  abort: { event: 'abort', since: 13 },
  clean: { event: 'clean', since: 15 },
  adopt: { event: 'adopt', since: 17 },
  rescue: { event: 'rescue', since: 38 },
  unrescue: { event: 'unrescue', since: 38 },
  deploy: { event: 'deploy', since: 73 },
  undeploy: { event: 'delete', since: 1 },
  unhold: { event: 'unhold', since: 85, late: true },
  service: { event: 'service', since: 87, late: true },
});

/** One transition of the machine. */
export interface Transition {
  readonly from: string;
  readonly event: string;
  readonly to: string;
  readonly since: number;
  readonly gated: boolean;
}

export const ALL_STATES: readonly string[] = Object.keys(STATES);

/** Every transition introduced up to microversion `minor`. */
export function transitions(minor: number = LATEST): Transition[] {
  return ALL_STATES.flatMap((from) => Object.entries(EDGES[from] ?? {}).map(([event, [to, since, gated]]) =>
    ({ from, event, to, since, gated: gated === 'gated' })))
    .filter((t) => t.since <= minor);
}

const BY_STATE: ReadonlyMap<string, ReadonlyMap<string, Transition>> = new Map(ALL_STATES.map((state) =>
  [state, new Map(transitions().filter((t) => t.from === state).map((t) => [t.event, t]))]));

/** The transition `event` takes out of `state`, if the machine at `minor` has one. */
export function transition(state: string | null, event: string, minor: number = LATEST): Transition | undefined {
  const found = state === null ? undefined : BY_STATE.get(state)?.get(event);
  return found !== undefined && found.since <= minor ? found : undefined;
}

/** Whether `event` has a transition out of `state` (fsm.is_actionable_event). */
export function isActionable(state: string | null, event: string, minor: number = LATEST): boolean {
  return transition(state, event, minor) !== undefined;
}

/** The states some transition introduced up to `minor` leaves or enters (machine.states). */
export function statesAt(minor: number): string[] {
  const seen = new Set(transitions(minor).flatMap((t) => [t.from, t.to]));
  return ALL_STATES.filter((state) => seen.has(state));
}

export function statesOfKind(kind: StateKind, minor: number = LATEST): string[] {
  return statesAt(minor).filter((state) => STATES[state].kind === kind);
}

/** The states `event` leaves (e.g. every state `abort` applies to). */
export function statesLeftBy(event: string): string[] {
  return ALL_STATES.filter((state) => isActionable(state, event));
}

/** The verb `target` names, if the API had it by `minor`. */
export function verbAt(target: string, minor: number): Verb | undefined {
  const verb = VERBS[target];
  return verb !== undefined && verb.since <= minor ? verb : undefined;
}

export const FAILURE_STATES: readonly string[] = statesOfKind('failed');

/** Where each non-stable state is heading (add_state(..., target=...)). */
export const TARGETS = lookupTable<string>(Object.fromEntries(ALL_STATES.flatMap((state) => {
  const target = STATES[state].target;
  return target === null ? [] : [[state, target] as const];
})));

export function isStable(state: string | null): boolean {
  return state !== null && STATES[state]?.kind === 'stable';
}

export function nextState(state: string | null, event: string): string {
  const next = transition(state, event);
  if (next === undefined) {
    throw new InvalidState(`Can not transition from state '${state}' on event '${event}' (no defined transition)`);
  }
  return next.to;
}

/** One node's position in the machine: the current state and the state it is heading to. */
export class ProvisionMachine {
  constructor(public current: string, public target: string | null = null) {}

  /**
   * Moves on `event` (fsm.FSM.process_event): a target that was reached is cleared, a state
   * with its own target replaces it, and `targetState` overrides both (e.g. manual clean ->
   * manageable).
   */
  processEvent(event: string, targetState?: string | null): void {
    this.current = nextState(this.current, event);
    if (this.target !== null && this.target === this.current) this.target = null;
    const declared = TARGETS[this.current];
    if (declared !== undefined) this.target = declared;
    if (targetState) {
      if (!isStable(targetState)) throw new InvalidState(`Target state '${targetState}' is not a 'stable' state`);
      this.target = targetState;
    }
  }
}
