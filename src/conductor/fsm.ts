/**
 * Ironic's provision state machine (common/states.py + common/fsm.py): every state's outgoing
 * events, each non-stable state's target, and the target bookkeeping Ironic's FSM does.
 */
import * as s from '../common/states';
import { InvalidState } from '../common/errors';
import { lookupTable } from '../common/own-keys';

type Transitions = Readonly<Record<string, Readonly<Record<string, string>>>>;

export const TRANSITIONS: Transitions = {
  [s.ENROLL]: { manage: s.VERIFYING },
  [s.VERIFYING]: { done: s.MANAGEABLE, fail: s.ENROLL },
  [s.MANAGEABLE]: { provide: s.CLEANING, clean: s.CLEANING, inspect: s.INSPECTING, adopt: s.ADOPTING },
  [s.AVAILABLE]: { deploy: s.DEPLOYING, manage: s.MANAGEABLE },
  [s.DEPLOYING]: { done: s.ACTIVE, wait: s.DEPLOYWAIT, hold: s.DEPLOYHOLD, fail: s.DEPLOYFAIL },
  [s.DEPLOYWAIT]: {
    resume: s.DEPLOYING, hold: s.DEPLOYHOLD, fail: s.DEPLOYFAIL, abort: s.DEPLOYFAIL, delete: s.DELETING,
  },
  [s.DEPLOYHOLD]: { unhold: s.DEPLOYWAIT, abort: s.DEPLOYFAIL },
  [s.DEPLOYFAIL]: { deploy: s.DEPLOYING, rebuild: s.DEPLOYING, delete: s.DELETING },
  [s.ACTIVE]: { rebuild: s.DEPLOYING, delete: s.DELETING, rescue: s.RESCUING, service: s.SERVICING },
  [s.DELETING]: { clean: s.CLEANING, fail: s.ERROR },
  [s.ERROR]: { rebuild: s.DEPLOYING, delete: s.DELETING },
  [s.CLEANING]: { done: s.AVAILABLE, wait: s.CLEANWAIT, hold: s.CLEANHOLD, fail: s.CLEANFAIL, manage: s.MANAGEABLE },
  [s.CLEANWAIT]: { resume: s.CLEANING, hold: s.CLEANHOLD, fail: s.CLEANFAIL, abort: s.CLEANFAIL },
  [s.CLEANHOLD]: { unhold: s.CLEANWAIT, abort: s.CLEANFAIL },
  [s.CLEANFAIL]: { manage: s.MANAGEABLE },
  [s.INSPECTING]: { done: s.MANAGEABLE, wait: s.INSPECTWAIT, fail: s.INSPECTFAIL },
  [s.INSPECTWAIT]: { done: s.MANAGEABLE, resume: s.INSPECTING, fail: s.INSPECTFAIL, abort: s.INSPECTFAIL },
  [s.INSPECTFAIL]: { manage: s.MANAGEABLE, inspect: s.INSPECTING },
  [s.ADOPTING]: { done: s.ACTIVE, fail: s.ADOPTFAIL },
  [s.ADOPTFAIL]: { adopt: s.ADOPTING, manage: s.MANAGEABLE },
  [s.RESCUING]: { done: s.RESCUE, wait: s.RESCUEWAIT, fail: s.RESCUEFAIL },
  [s.RESCUEWAIT]: { resume: s.RESCUING, fail: s.RESCUEFAIL, abort: s.RESCUEFAIL, delete: s.DELETING },
  [s.RESCUE]: { rescue: s.RESCUING, unrescue: s.UNRESCUING, delete: s.DELETING },
  [s.RESCUEFAIL]: { rescue: s.RESCUING, unrescue: s.UNRESCUING, delete: s.DELETING },
  [s.UNRESCUING]: { done: s.ACTIVE, fail: s.UNRESCUEFAIL },
  [s.UNRESCUEFAIL]: { rescue: s.RESCUING, unrescue: s.UNRESCUING, delete: s.DELETING },
  [s.SERVICING]: { done: s.ACTIVE, wait: s.SERVICEWAIT, hold: s.SERVICEHOLD, fail: s.SERVICEFAIL },
  [s.SERVICEWAIT]: {
    resume: s.SERVICING, hold: s.SERVICEHOLD, fail: s.SERVICEFAIL, abort: s.SERVICEFAIL, delete: s.DELETING,
  },
  [s.SERVICEHOLD]: { service: s.SERVICING, unhold: s.SERVICEWAIT, abort: s.SERVICEFAIL, fail: s.SERVICEFAIL },
  [s.SERVICEFAIL]: {
    service: s.SERVICING, rescue: s.RESCUING, delete: s.DELETING, abort: s.ACTIVE, wait: s.SERVICEWAIT,
    hold: s.SERVICEHOLD,
  },
};

/** Where each non-stable state is heading (add_state(..., target=...)). */
export const TARGETS: Readonly<Record<string, string>> = lookupTable({
  [s.VERIFYING]: s.MANAGEABLE,
  [s.DEPLOYING]: s.ACTIVE, [s.DEPLOYWAIT]: s.ACTIVE, [s.DEPLOYFAIL]: s.ACTIVE, [s.DEPLOYHOLD]: s.ACTIVE,
  [s.CLEANING]: s.AVAILABLE, [s.CLEANWAIT]: s.AVAILABLE, [s.CLEANFAIL]: s.AVAILABLE, [s.CLEANHOLD]: s.AVAILABLE,
  [s.DELETING]: s.AVAILABLE,
  [s.INSPECTING]: s.MANAGEABLE, [s.INSPECTFAIL]: s.MANAGEABLE, [s.INSPECTWAIT]: s.MANAGEABLE,
  [s.ADOPTING]: s.ACTIVE, [s.ADOPTFAIL]: s.ACTIVE,
  [s.RESCUING]: s.RESCUE, [s.RESCUEWAIT]: s.RESCUE, [s.RESCUEFAIL]: s.RESCUE,
  [s.UNRESCUING]: s.ACTIVE, [s.UNRESCUEFAIL]: s.ACTIVE,
  [s.SERVICING]: s.ACTIVE, [s.SERVICEWAIT]: s.ACTIVE, [s.SERVICEFAIL]: s.ACTIVE, [s.SERVICEHOLD]: s.ACTIVE,
});

export const ALL_STATES: readonly string[] = Object.keys(TRANSITIONS);

export function isStable(state: string | null): boolean {
  return state !== null && s.STABLE_STATES.includes(state);
}

/** Whether `event` has a transition out of `state` (fsm.is_actionable_event). */
export function isActionable(state: string | null, event: string): boolean {
  if (state === null) return false;
  return Object.prototype.hasOwnProperty.call(TRANSITIONS[state] ?? {}, event);
}

export function nextState(state: string | null, event: string): string {
  const next = state === null ? undefined : TRANSITIONS[state]?.[event];
  if (next === undefined) {
    throw new InvalidState(`Can not transition from state '${state}' on event '${event}' (no defined transition)`);
  }
  return next;
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
