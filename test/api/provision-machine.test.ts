/**
 * The API's provision decisions (api/machine.ts) against the conductor's machine (conductor/fsm.ts):
 * every state × every target, at the highest microversion and wherever a verb or a gated transition
 * appears, so the two cannot drift apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../../src/api/machine';
import * as fsm from '../../src/conductor/fsm';
import { MAX_MINOR, MIN_MINOR } from '../../src/api/versions';

const TARGETS = [...Object.keys(fsm.VERBS), 'delete', 'done', 'fail', 'wait', 'resume', 'hold', 'bogus', '__proto__',
  'constructor', 'toString'];
const STATES: Array<string | null> = [...fsm.ALL_STATES, null, 'bogus', '__proto__', 'constructor'];

/** Every microversion where an answer may change (a verb's or gated transition's, and the one before). */
function boundaries(): number[] {
  const points = [...Object.values(fsm.VERBS).map((v) => v.since), ...fsm.transitions().filter((t) => t.gated).map((t) => t.since)];
  const all = [MIN_MINOR, MAX_MINOR, ...points.flatMap((v) => [v - 1, v])];
  return [...new Set(all)].filter((v) => v >= MIN_MINOR && v <= MAX_MINOR).sort((a, b) => a - b);
}

type Answer = 'verb too new' | 'invalid state' | 'transition too new' | 'accepted';

/** The API's answer, in the order provision.ts asks. */
function apiAnswer(state: string | null, target: string, version: number): Answer {
  if (!api.verbAllowedAt(target, version)) return 'verb too new';
  if (!api.isActionableTarget(state, target)) return 'invalid state';
  if (!api.transitionAllowedAt(state, target, version)) return 'transition too new';
  if (!api.lateVerbAllowedAt(target, version)) return 'verb too new';
  return 'accepted';
}

/**
 * The conductor machine's answer for the verbs and transitions of the microversion the API serves:
 * most verbs are gated before the state check, unhold and service after it (and after the
 * gated transitions), as Ironic's provision() does.
 */
function conductorAnswer(state: string | null, target: string, version: number): Answer {
  const verb = fsm.verbAt(target, MAX_MINOR);
  if (verb !== undefined && !verb.late && version < verb.since) return 'verb too new';
  const event = verb?.event ?? target;
  const fired = Object.keys(fsm.VERBS).some((name) => fsm.verbAt(name, MAX_MINOR)?.event === event);
  const t = fsm.transition(state, event, MAX_MINOR);
  if (!fired || t === undefined) return 'invalid state';
  if (t.gated && version < t.since) return 'transition too new';
  return verb?.late && version < verb.since ? 'verb too new' : 'accepted';
}

test('the API and the conductor machine agree on every state × target × microversion', () => {
  const versions = boundaries();
  assert.ok(versions.includes(MAX_MINOR) && versions.includes(40) && versions.includes(73) && versions.includes(84));
  for (const version of versions) {
    for (const state of STATES) {
      for (const target of TARGETS) {
        const answer = apiAnswer(state, target, version);
        assert.equal(answer, conductorAnswer(state, target, version), `${state} × ${target} at 1.${version}`);
        if (answer === 'accepted') assert.doesNotThrow(() => fsm.nextState(state, api.eventOf(target)));
      }
    }
  }
});

// The events Ironic 29.0.5's machine (ironic/common/states.py, API 1.96) accepts from each state, of
// those its verbs fire. Ironic checks a request against this whole machine whatever its microversion.
const IRONIC_29_0_5: Readonly<Record<string, string[]>> = {
  active: ['delete', 'rescue', 'rebuild', 'service'], 'adopt failed': ['manage', 'adopt'], available: ['deploy', 'manage'],
  'clean failed': ['manage'], 'clean hold': ['abort', 'unhold'], 'clean wait': ['abort'], cleaning: ['manage'],
  deleting: ['clean'], 'deploy failed': ['deploy', 'delete', 'rebuild'], 'deploy hold': ['abort', 'unhold'],
  enroll: ['manage'], error: ['delete', 'rebuild'], 'inspect failed': ['manage', 'inspect'], 'inspect wait': ['abort'],
  manageable: ['provide', 'inspect', 'clean', 'adopt'], rescue: ['delete', 'rescue', 'unrescue'],
  'rescue failed': ['delete', 'rescue', 'unrescue'], 'rescue wait': ['delete', 'abort'],
  'service failed': ['delete', 'rescue', 'service'], 'service hold': ['abort', 'service', 'unhold'],
  'service wait': ['delete', 'abort'], 'unrescue failed': ['delete', 'rescue', 'unrescue'], 'wait call-back': ['delete'],
};

test('the API serves Ironic 29.0.5\'s machine at every microversion', () => {
  for (const state of STATES) {
    const allowed = state !== null && Object.hasOwn(IRONIC_29_0_5, state) ? IRONIC_29_0_5[state] : [];
    for (const target of TARGETS) {
      const expected = allowed.includes(api.eventOf(target));
      assert.equal(api.isActionableTarget(state, target), expected, `${state} × ${target}`);
    }
  }
});

test('at 1.82 the verbs and gated transitions of Ironic 21.4.4 are served; unhold and service wait for their versions', () => {
  assert.equal(api.verbAllowedAt('undeploy', 1), true, 'Ironic never gates undeploy');
  assert.equal(api.verbAllowedAt('deploy', 72), false);
  assert.equal(api.transitionAllowedAt('inspect wait', 'abort', 40), false);
  assert.equal(api.transitionAllowedAt('clean wait', 'abort', 13), true);
  // Gated only once the state check and the argument checks passed (406 rather than 400 there).
  assert.equal(api.verbAllowedAt('unhold', 82), true);
  assert.equal(api.verbAllowedAt('service', 82), true);
  assert.equal(apiAnswer('clean hold', 'unhold', 84), 'verb too new');
  assert.equal(apiAnswer('clean hold', 'unhold', 85), 'accepted');
  assert.equal(apiAnswer('enroll', 'unhold', 84), 'invalid state');
  assert.equal(apiAnswer('active', 'service', 86), 'verb too new');
  assert.equal(apiAnswer('active', 'service', 87), 'accepted');
  assert.equal(apiAnswer('service failed', 'abort', MAX_MINOR), 'invalid state', 'a later Ironic\'s transition');
  assert.equal(apiAnswer('wait call-back', 'abort', MAX_MINOR), 'invalid state', 'a later Ironic\'s transition');
});

test('the API\'s state lists are Ironic 29.0.5\'s', () => {
  assert.deepEqual([...api.UNSTABLE_STATES].sort(), ['adopting', 'clean wait', 'cleaning', 'deleting', 'deploying',
    'inspect wait', 'inspecting', 'rescue wait', 'rescuing', 'service wait', 'servicing', 'unrescuing', 'verifying',
    'wait call-back']);
  assert.deepEqual([...api.MACHINE_STATES].sort(), [...Object.keys(IRONIC_29_0_5), 'adopting', 'deploying', 'inspecting',
    'rescuing', 'servicing', 'unrescuing', 'verifying'].sort());
});
