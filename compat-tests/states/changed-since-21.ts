/**
 * Refusals where Ironic 29.0.5 words its message differently from 21.4.4 and ironic-ts follows
 * 29.0.5: against the 2023.1 reference the same status with another message is accepted for these
 * steps (README "Where Ironic 29.0.5 answers differently from 21.4.4").
 */
import { CURRENT_RELEASE, referenceRelease } from '../support/reference-ironic';
import type { StepRecord } from './recorder';

const STEP_INTERFACES =
  '29.0.5\'s step schemas accept the vendor and firmware interfaces, and its schema errors quote that enum';

const CHANGED_SINCE_21: ReadonlyMap<string, string> = new Map([
  ['clean step without step', STEP_INTERFACES],
  ['clean step without interface', STEP_INTERFACES],
  ['clean step with unknown interface', STEP_INTERFACES],
  ['clean step empty object', STEP_INTERFACES],
  ['deploy_steps without priority', STEP_INTERFACES],
]);

/** The same record but for the error message, on a listed step, against the older reference. */
export function changedSince21(ref: StepRecord | undefined, ts: StepRecord | undefined): boolean {
  if (!ref || !ts || referenceRelease() === CURRENT_RELEASE || !CHANGED_SINCE_21.has(ref.step)) return false;
  const { error: _refError, ...refRest } = ref;
  const { error: _tsError, ...tsRest } = ts;
  return JSON.stringify(refRest) === JSON.stringify(tsRest);
}
