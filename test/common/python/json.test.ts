import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pythonJsonDumps } from '../../../src/common/python/json-dumps';
import { pythonJsonLoads } from '../../../src/common/python/json-loads';

const SAMPLES: unknown[] = [
  {}, [], { a: 1, b: [1, 2.5, -3], c: null, d: true, e: 'x"y\\z\n\t' },
  { unicode: 'caf\u00e9 \u2603 \ud83d\ude00', ctrl: '\u0001\u007f' },
  { floats: [0.1, 1e-5, 1.5e-7, 123456.789, -0.0001, 1e21, 2.5e-10] },
  { nested: { deep: { list: [{ k: 'v' }] } } },
];

test('pythonJsonDumps matches Python json.dumps byte for byte', () => {
  const script = 'import json,sys\nfor line in sys.stdin:\n    print(json.dumps(json.loads(line)))';
  const input = SAMPLES.map((s) => JSON.stringify(s)).join('\n') + '\n';
  const out = execFileSync('/usr/bin/python3', ['-c', script], { input, encoding: 'utf8' }).trimEnd().split('\n');
  SAMPLES.forEach((sample, i) => assert.equal(pythonJsonDumps(sample), out[i], `sample ${i}`));
});

test('pythonJsonLoads reads what Python writes, including NaN/Infinity', () => {
  assert.deepEqual(pythonJsonLoads('{"a": [1, 2]}'), { a: [1, 2] });
  assert.deepEqual(pythonJsonLoads('{"x": NaN, "y": [Infinity, -Infinity]}'), { x: NaN, y: [Infinity, -Infinity] });
});

test('floats at the exponent boundaries are spelled as Python json.dumps spells them', () => {
  // Python: json.dumps([1e16, 1.5e16, 1e-4, 9.99e-5, 1e-5, 0.5])
  assert.equal(pythonJsonDumps([1e16, 1.5e16, 1e-4, 9.99e-5, 1e-5, 0.5]), '[1e+16, 1.5e+16, 0.0001, 9.99e-05, 1e-05, 0.5]');
  // Below 2**53 an integral number is a Python int.
  assert.equal(pythonJsonDumps({ n: 9007199254740991, z: 0 }), '{"n": 9007199254740991, "z": 0}');
});
