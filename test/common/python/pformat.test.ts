/** pprint.pformat(width=72) as Ironic's jsonschema messages print schemas and instances (expected texts from CPython 3). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pformat } from '../../../src/common/python/pformat';

test('long strings are cut after whitespace into adjacent literals, as pprint does', () => {
  assert.equal(pformat({ a: { description: 'Boolean if the step should be executed on child nodes.', type: 'boolean' },
    b: 'x'.repeat(100), c: 'hello world '.repeat(12) }),
  "{'a': {'description': 'Boolean if the step should be executed on child '\n" +
  "                      'nodes.',\n" +
  "       'type': 'boolean'},\n" +
  " 'b': '" + 'x'.repeat(100) + "',\n" +
  " 'c': 'hello world hello world hello world hello world hello world '\n" +
  "      'hello world hello world hello world hello world hello world '\n" +
  "      'hello world hello world '}");
});

test('a top-level string is parenthesised and lines break after their newlines', () => {
  assert.equal(pformat('hello world '.repeat(12)),
    "('hello world hello world hello world hello world hello world hello '\n" +
    " 'world hello world hello world hello world hello world hello world '\n" +
    " 'hello world ')");
  assert.equal(pformat(['line one\nline two is long '.repeat(2)]), "['line one\\nline two is long line one\\nline two is long ']");
  assert.equal(pformat(['line one\nline two is long '.repeat(5)]),
    "['line one\\n'\n 'line two is long line one\\n'\n 'line two is long line one\\n'\n 'line two is long line one\\n'\n" +
    " 'line two is long line one\\n'\n 'line two is long ']");
  assert.equal(pformat('short'), "'short'");
});

const CASES: [unknown, string][] = [
  ["word word word word word word word word word word word word word word word word word word word word ", "('word word word word word word word word word word word word word '\n 'word word word word word word word ')"],
  [{"description": "name of the firmware component to be updated and some more words to wrap", "x": 1}, "{'description': 'name of the firmware component to be updated and some '\n                'more words to wrap',\n 'x': 1}"],
  [["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "short"], "['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',\n 'short']"],
  ["line one\nline two is a much longer line that will need to be wrapped somewhere around here ok", "('line one\\n'\n 'line two is a much longer line that will need to be wrapped '\n 'somewhere around here ok')"],
  ["short", "'short'"],
];

test('the firmware schema texts wrap as pprint does', () => {
  for (const [value, expected] of CASES) assert.equal(pformat(value), expected);
});
