import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonString, pyJsonDumps, pyJsonFragment } from '../../src/api/pyjson';
import { maskDriverInfoColumn, maskDriverInternalInfoColumn, maskInstanceInfoColumn } from '../../src/api/views/node-masking';
import { StoredJson } from '../../src/db/stored-json';

test('stored JSON is copied as stored, keeping Python float forms, with separators added only around it', () => {
  const stored = new StoredJson('{"cpus": 8, "ratio": 1.0, "note": "a, b: c"}');
  assert.equal(pyJsonDumps({ nodes: [{ properties: stored, name: 'x,y' }], n: 1 }),
    '{"nodes": [{"properties": {"cpus": 8, "ratio": 1.0, "note": "a, b: c"}, "name": "x,y"}], "n": 1}');
});

test('stored JSON holding non-ASCII text is escaped as json.dumps would', () => {
  assert.equal(pyJsonDumps([new StoredJson('{"k": "é"}')]), '[{"k": "\\u00e9"}]');
});

test('outside a response body a StoredJson serialises as its parsed value', () => {
  assert.equal(JSON.stringify({ v: new StoredJson('{"a": [1, 2]}') }), '{"v":{"a":[1,2]}}');
});

test('a user string that looks like a marker is left alone', () => {
  const value = { s: '\u0000stored-json-deadbeef:0', t: new StoredJson('{}') };
  assert.equal(pyJsonDumps(value), '{"s": "\\u0000stored-json-deadbeef:0", "t": {}}');
});

test('stored dict columns naming no secret pass unparsed; ones that may hold one are masked', () => {
  const plain = new StoredJson('{"ipmi_address": "10.0.0.1"}');
  assert.equal(maskDriverInfoColumn(plain), plain);
  assert.deepEqual(maskDriverInfoColumn(new StoredJson('{"ipmi_password": "s3cret", "a": 1}')),
    { ipmi_password: '******', a: 1 });
  assert.deepEqual(maskInstanceInfoColumn(new StoredJson('{"image_url": "http://x/y", "configdrive": "H4sI"}')),
    { image_url: '******', configdrive: '******' });
  assert.deepEqual(maskDriverInternalInfoColumn(new StoredJson('{"agent_secret_token": "t", "x": 1}')),
    { agent_secret_token: '******', x: 1 });
  const internal = new StoredJson('{"clean_steps": null}');
  assert.equal(maskDriverInternalInfoColumn(internal), internal);
});

test('pyJsonFragment and jsonString write what pyJsonDumps writes', () => {
  const values: unknown[] = [
    { a: 'x"y\\z\n\u0001\u007f\u00e9\u2603\ud83d\ude00', b: [1, -2.5, 1e21, 1e-7, 0, null, true, false], c: {} },
    { nested: { deep: [[], [{}], { k: undefined, f: () => 1 }] }, n: Number.NaN, inf: Number.POSITIVE_INFINITY },
    [undefined, 'plain', { d: new Date(Date.UTC(2026, 0, 1)) }],
    'only a string', 42, null,
  ];
  for (const value of values) assert.equal(pyJsonFragment(value), pyJsonDumps(value), JSON.stringify(value));
  for (const text of ['', 'plain', 'q"', 'b\\', '\t', '\u00ff', '\ud800']) assert.equal(jsonString(text), pyJsonDumps(text));
});
