/**
 * The provision state machine as the API serves it: conductor/fsm.ts as of the highest microversion
 * ironic-ts implements. Ironic's API checks its release's whole machine whatever microversion a
 * request asks for; only verbs and gated transitions answer to the request's microversion.
 */
import * as fsm from '../conductor/fsm';
import { MAX_MINOR } from './versions';

/** The verb `target` names, as of the highest microversion ironic-ts serves. */
export function apiVerb(target: string): fsm.Verb | undefined {
  return fsm.verbAt(target, MAX_MINOR);
}

/**
 * The events the API's verbs fire. A target firing another event (done, fail, ...) is refused at the
 * state check, where Ironic would pass it on to its "could not be understood" 400.
 */
const API_EVENTS: ReadonlySet<string> = new Set(Object.keys(fsm.VERBS).flatMap((target) => {
  const verb = apiVerb(target);
  return verb === undefined ? [] : [verb.event];
}));

/** states.VERBS.get(target, target). */
export function eventOf(target: string): string {
  return apiVerb(target)?.event ?? target;
}

/** MIN_VERB_VERSIONS: false when the request's microversion predates the verb (checked first). */
export function verbAllowedAt(target: string, version: number): boolean {
  const verb = apiVerb(target);
  return verb === undefined || verb.late === true || version >= verb.since;
}

/** allow_unhold_verb / allow_service_verb: the verbs Ironic gates only once the request was checked. */
export function lateVerbAllowedAt(target: string, version: number): boolean {
  const verb = apiVerb(target);
  return verb?.late !== true || version >= verb.since;
}

/** machine.is_actionable_event(VERBS.get(target, target)) in the node's state. */
export function isActionableTarget(state: string | null, target: string): boolean {
  const event = eventOf(target);
  return API_EVENTS.has(event) && fsm.isActionable(state, event, MAX_MINOR);
}

/** False for a transition Ironic refuses below its own microversion (abort from inspect wait before 1.41). */
export function transitionAllowedAt(state: string | null, target: string, version: number): boolean {
  const t = fsm.transition(state, eventOf(target), MAX_MINOR);
  return t === undefined || !t.gated || version >= t.since;
}

/** machine.states: the provision_state filter's valid values. */
export const MACHINE_STATES: readonly string[] = fsm.statesAt(MAX_MINOR);

/** UNSTABLE_STATES: boot mode and secure boot changes wait until the node settles. */
export const UNSTABLE_STATES: readonly string[] = fsm.statesOfKind('unstable', MAX_MINOR);
