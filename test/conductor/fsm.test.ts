import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as s from '../../src/common/states';
import { ALL_STATES, isActionable, nextState, ProvisionMachine, TARGETS, transition, transitions } from '../../src/conductor/fsm';
import { InvalidState } from '../../src/common/errors';

// The reference table (ironic-api-facts.md section 3), written independently of fsm.ts.
const TABLE: Array<[string, string, string]> = [
  ['enroll', 'manage', 'verifying'], ['verifying', 'done', 'manageable'], ['verifying', 'fail', 'enroll'],
  ['manageable', 'provide', 'cleaning'], ['manageable', 'clean', 'cleaning'], ['manageable', 'inspect', 'inspecting'],
  ['manageable', 'adopt', 'adopting'], ['available', 'deploy', 'deploying'], ['available', 'manage', 'manageable'],
  ['deploying', 'done', 'active'], ['deploying', 'wait', 'wait call-back'], ['deploying', 'hold', 'deploy hold'],
  ['deploying', 'fail', 'deploy failed'], ['wait call-back', 'abort', 'deploy failed'], ['wait call-back', 'delete', 'deleting'],
  ['wait call-back', 'resume', 'deploying'], ['wait call-back', 'hold', 'deploy hold'], ['wait call-back', 'fail', 'deploy failed'],
  ['deploy hold', 'unhold', 'wait call-back'], ['deploy hold', 'abort', 'deploy failed'],
  ['deploy failed', 'deploy', 'deploying'], ['deploy failed', 'rebuild', 'deploying'], ['deploy failed', 'delete', 'deleting'],
  ['active', 'rebuild', 'deploying'], ['active', 'delete', 'deleting'], ['active', 'rescue', 'rescuing'],
  ['active', 'service', 'servicing'], ['deleting', 'clean', 'cleaning'], ['deleting', 'fail', 'error'],
  ['error', 'rebuild', 'deploying'], ['error', 'delete', 'deleting'], ['cleaning', 'manage', 'manageable'],
  ['cleaning', 'done', 'available'], ['cleaning', 'wait', 'clean wait'], ['cleaning', 'hold', 'clean hold'],
  ['cleaning', 'fail', 'clean failed'], ['clean wait', 'abort', 'clean failed'], ['clean wait', 'resume', 'cleaning'],
  ['clean wait', 'hold', 'clean hold'], ['clean wait', 'fail', 'clean failed'], ['clean hold', 'unhold', 'clean wait'],
  ['clean hold', 'abort', 'clean failed'], ['clean failed', 'manage', 'manageable'], ['inspecting', 'done', 'manageable'],
  ['inspecting', 'wait', 'inspect wait'], ['inspecting', 'fail', 'inspect failed'], ['inspect wait', 'abort', 'inspect failed'],
  ['inspect wait', 'done', 'manageable'], ['inspect wait', 'resume', 'inspecting'], ['inspect wait', 'fail', 'inspect failed'],
  ['inspect failed', 'manage', 'manageable'], ['inspect failed', 'inspect', 'inspecting'], ['adopting', 'done', 'active'],
  ['adopting', 'fail', 'adopt failed'], ['adopt failed', 'adopt', 'adopting'], ['adopt failed', 'manage', 'manageable'],
  ['rescuing', 'done', 'rescue'], ['rescuing', 'wait', 'rescue wait'], ['rescuing', 'fail', 'rescue failed'],
  ['rescue wait', 'abort', 'rescue failed'], ['rescue wait', 'delete', 'deleting'], ['rescue wait', 'resume', 'rescuing'],
  ['rescue wait', 'fail', 'rescue failed'], ['rescue', 'rescue', 'rescuing'], ['rescue', 'unrescue', 'unrescuing'],
  ['rescue', 'delete', 'deleting'], ['rescue failed', 'rescue', 'rescuing'], ['rescue failed', 'unrescue', 'unrescuing'],
  ['rescue failed', 'delete', 'deleting'], ['unrescuing', 'done', 'active'], ['unrescuing', 'fail', 'unrescue failed'],
  ['unrescue failed', 'rescue', 'rescuing'], ['unrescue failed', 'unrescue', 'unrescuing'], ['unrescue failed', 'delete', 'deleting'],
  ['servicing', 'done', 'active'], ['servicing', 'wait', 'service wait'], ['servicing', 'hold', 'service hold'],
  ['servicing', 'fail', 'service failed'], ['service wait', 'abort', 'service failed'], ['service wait', 'delete', 'deleting'],
  ['service wait', 'resume', 'servicing'], ['service wait', 'hold', 'service hold'], ['service wait', 'fail', 'service failed'],
  ['service hold', 'service', 'servicing'], ['service hold', 'unhold', 'service wait'], ['service hold', 'abort', 'service failed'],
  ['service hold', 'fail', 'service failed'], ['service failed', 'service', 'servicing'], ['service failed', 'rescue', 'rescuing'],
  ['service failed', 'delete', 'deleting'], ['service failed', 'abort', 'active'], ['service failed', 'wait', 'service wait'],
  ['service failed', 'hold', 'service hold'],
];

const EVENTS = ['manage', 'provide', 'clean', 'inspect', 'adopt', 'deploy', 'rebuild', 'delete', 'rescue', 'unrescue',
  'service', 'done', 'wait', 'hold', 'unhold', 'fail', 'abort', 'resume'];

test('every transition of the reference table exists and nothing else does', () => {
  const expected = new Map(TABLE.map(([from, ev, to]) => [`${from}|${ev}`, to]));
  for (const state of ALL_STATES) {
    for (const ev of EVENTS) {
      const want = expected.get(`${state}|${ev}`);
      assert.equal(isActionable(state, ev), want !== undefined, `${state} on ${ev}`);
      if (want) assert.equal(nextState(state, ev), want);
      else assert.throws(() => nextState(state, ev), InvalidState);
    }
  }
  assert.equal(TABLE.length, transitions().length);
});

test('invalid events raise InvalidState with automaton wording', () => {
  assert.throws(() => nextState('available', 'inspect'), {
    message: "Can not transition from state 'available' on event 'inspect' (no defined transition)",
  });
  assert.equal(isActionable(null, 'manage'), false);
});

test('targets follow the state and reset when reached', () => {
  const m = new ProvisionMachine(s.AVAILABLE);
  m.processEvent('deploy');
  assert.deepEqual([m.current, m.target], [s.DEPLOYING, s.ACTIVE]);
  m.processEvent('wait');
  assert.deepEqual([m.current, m.target], [s.DEPLOYWAIT, s.ACTIVE]);
  m.processEvent('resume');
  m.processEvent('done');
  assert.deepEqual([m.current, m.target], [s.ACTIVE, null]);
  const clean = new ProvisionMachine(s.MANAGEABLE);
  clean.processEvent('clean', s.MANAGEABLE);
  assert.deepEqual([clean.current, clean.target], [s.CLEANING, s.MANAGEABLE]);
  assert.equal(TARGETS[s.DELETING], s.AVAILABLE);
  assert.throws(() => clean.processEvent('fail', s.CLEANWAIT), InvalidState);
});

// What later Ironic releases added to 21.4.4's machine (git history of ironic/common/states.py).
const AFTER_21_4_4: Array<[string, string, number]> = [
  ['inspect wait', 'resume', 84],
  ['deploying', 'hold', 85], ['wait call-back', 'hold', 85], ['deploy hold', 'unhold', 85], ['deploy hold', 'abort', 85],
  ['cleaning', 'hold', 85], ['clean wait', 'hold', 85], ['clean hold', 'unhold', 85], ['clean hold', 'abort', 85],
  ['active', 'service', 87], ['servicing', 'done', 87], ['servicing', 'wait', 87], ['servicing', 'hold', 87],
  ['servicing', 'fail', 87], ['service wait', 'resume', 87], ['service wait', 'hold', 87], ['service wait', 'fail', 87],
  ['service wait', 'abort', 87], ['service hold', 'service', 87], ['service hold', 'unhold', 87],
  ['service hold', 'abort', 87], ['service failed', 'service', 87], ['service failed', 'rescue', 87],
  ['service failed', 'delete', 96], ['service wait', 'delete', 96],
  ['service hold', 'fail', 101], ['service failed', 'abort', 101], ['service failed', 'wait', 101],
  ['service failed', 'hold', 101],
  ['wait call-back', 'abort', 110],
];

test('the machine up to 1.82 is Ironic 21.4.4\'s: every later transition carries its microversion', () => {
  const later = transitions().filter((t) => t.since > 82).map((t) => [t.from, t.event, t.since]);
  assert.deepEqual(new Set(later.map((t) => JSON.stringify(t))), new Set(AFTER_21_4_4.map((t) => JSON.stringify(t))));
  assert.equal(transitions(82).length, TABLE.length - AFTER_21_4_4.length);
  assert.equal(isActionable('wait call-back', 'abort', 82), false);
  assert.equal(isActionable('wait call-back', 'abort'), true);
});

test('only abort from inspect wait (1.41) and from wait call-back (1.110) are gated by microversion', () => {
  const gated = transitions().filter((t) => t.gated).map((t) => [t.from, t.event, t.since]);
  assert.deepEqual(gated, [['wait call-back', 'abort', 110], ['inspect wait', 'abort', 41]]);
  assert.equal(transition('inspect wait', 'abort', 40), undefined);
  assert.equal(transition('inspect wait', 'abort', 41)?.to, 'inspect failed');
  assert.equal(transition('__proto__', 'abort'), undefined);
  assert.equal(transition('active', 'constructor'), undefined);
});
