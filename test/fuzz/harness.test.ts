/** The fuzz suite's own checks catch what they are meant to catch (so a clean run means something). */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { messageClass } from './failures';
import { isPeerFailure } from './checks';
import { percentEncode } from './encode';
import { num, obj, toJsonText } from './json-text';
import { prototypeChanges, restorePrototypes, snapshotPrototypes } from './prototypes';
import { carriesMark, findSecrets, SECRET } from './secrets';

test('a polluted prototype is reported, then restored', () => {
  const before = snapshotPrototypes();
  (Object.prototype as Record<string, unknown>).polluted = 'yes';
  const saved = Array.prototype.map;
  Array.prototype.map = function map() { return []; } as typeof Array.prototype.map;
  try {
    const changes = prototypeChanges(before);
    assert.ok(changes.some((c) => c.startsWith('Object.prototype.polluted added')), changes.join('; '));
    assert.ok(changes.some((c) => c.startsWith('Array.prototype.map replaced')), changes.join('; '));
    assert.ok(changes.some((c) => c.includes('enumerable key polluted inherited')), changes.join('; '));
  } finally {
    restorePrototypes(before);
  }
  assert.equal(Array.prototype.map, saved);
  assert.deepEqual(prototypeChanges(before), []);
});

test('every distinct secret is found, JSON-escaped or in a URL', () => {
  const text = JSON.stringify({ a: `https://admin:${SECRET.bmcUrlPassword}@h`, b: SECRET.ipmiPassword, c: SECRET.ipmiPassword });
  const leaks = findSecrets(Buffer.from(text));
  assert.deepEqual(leaks.map((l) => l.split('\n')[0]), ['secret bmcurl', 'secret ipmi']);
  assert.deepEqual(findSecrets('******'), []);
  assert.ok(carriesMark(['x', Buffer.from(SECRET.configdrive)]));
  assert.ok(!carriesMark(['Zq9SECRET', Buffer.from('xk7')]));
});

test('failure classes ignore ids, numbers and quoted values', () => {
  assert.equal(messageClass("Node 0f022000-0000-4000-8000-000000000001 has no 'abc' at 12\nmore"),
    messageClass("Node 11111111-2222-4333-8444-555555555555 has no 'xyz' at 7"));
});

test('generated JSON keeps own __proto__ keys and literal numbers', () => {
  assert.equal(toJsonText(obj([['__proto__', obj([['polluted', num('1e400')]])], ['a', [null, true]]])),
    '{"__proto__": {"polluted": 1e400}, "a": [null, true]}');
  assert.equal(percentEncode('a\ud800/é'), 'a%EF%BF%BD%2F%C3%A9');
});

test('only a BMC\'s own failures may answer 500', () => {
  assert.ok(isPeerFailure('IPMI call failed: chassis bootparam get 5.'));
  assert.ok(isPeerFailure('Redfish exception occurred. Error: HTTP POST ... returned code 409.'));
  assert.ok(!isPeerFailure("Cannot read properties of null (reading 'events')"));
  assert.ok(!isPeerFailure('An unknown exception occurred. IPMI call failed: x'));
});
