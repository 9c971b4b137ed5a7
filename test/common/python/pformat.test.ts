/** pformat against CPython's pprint.pformat(value, width=72), jsonschema's width (outputs recorded from CPython). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pformat } from '../../../src/common/python/pformat';

const CASES: [unknown, string][] = [
  ["word word word word word word word word word word word word word word word word word word word word ", "('word word word word word word word word word word word word word '\n 'word word word word word word word ')"],
  [{"description": "name of the firmware component to be updated and some more words to wrap", "x": 1}, "{'description': 'name of the firmware component to be updated and some '\n                'more words to wrap',\n 'x': 1}"],
  [["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "short"], "['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',\n 'short']"],
  ["line one\nline two is a much longer line that will need to be wrapped somewhere around here ok", "('line one\\n'\n 'line two is a much longer line that will need to be wrapped '\n 'somewhere around here ok')"],
  ["short", "'short'"],
];

test('pformat wraps as pprint does, long strings split at word ends', () => {
  for (const [value, expected] of CASES) assert.equal(pformat(value), expected);
});
