/**
 * Refusals where Ironic 29.0.5 words its message differently from 21.4.4 and ironic-ts follows
 * 29.0.5: against the 2023.1 reference the same status with another message is accepted for these
 * steps (README "Where Ironic 29.0.5 answers differently from 21.4.4").
 */
import { CURRENT_RELEASE, referenceRelease } from '../support/reference-ironic';
import type { StepRecord } from './recorder';

const STEP_INTERFACES =
  '29.0.5\'s step schemas accept the vendor and firmware interfaces, and its schema errors quote that enum';

const SERVICE_VERB =
  '29.0.5 knows the service verb: from active the state check passes and the 1.87 gate answers 406 (21.4.4: a 400 ' +
  'naming the state)';

const CHANGED_SINCE_21: ReadonlyMap<string, string> = new Map([
  ['active: service', SERVICE_VERB],
  ['clean step without step', STEP_INTERFACES],
  ['clean step without interface', STEP_INTERFACES],
  ['clean step with unknown interface', STEP_INTERFACES],
  ['clean step empty object', STEP_INTERFACES],
  ['deploy_steps without priority', STEP_INTERFACES],
]);

/** Steps whose status changed too, not only the message. */
const STATUS_CHANGED: ReadonlySet<string> = new Set(['active: service']);

/** The same record but for the error message (and the status where listed), on a listed step, against the older reference. */
export function changedSince21(ref: StepRecord | undefined, ts: StepRecord | undefined): boolean {
  if (!ref || !ts || referenceRelease() === CURRENT_RELEASE || !CHANGED_SINCE_21.has(ref.step)) return false;
  const statusToo = STATUS_CHANGED.has(ref.step);
  const { error: _refError, status: refStatus, ...refRest } = ref;
  const { error: _tsError, status: tsStatus, ...tsRest } = ts;
  if (!statusToo && refStatus !== tsStatus) return false;
  return JSON.stringify(refRest) === JSON.stringify(tsRest);
}
