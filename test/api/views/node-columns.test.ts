import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pyJsonDumps } from '../../../src/api/pyjson';
import { nodeColumnsFor } from '../../../src/api/views/node-columns';
import { NODE_FIELDS } from '../../../src/db/node-field-lists';
import { TABLES } from '../../../src/db/columns';

test('Nova-style fields read only their columns plus what links, extras and the hash ring need', () => {
  const columns = nodeColumnsFor(['uuid', 'power_state', 'properties', 'traits', 'conductor']);
  assert.deepEqual([...columns].sort(), ['allocation_id', 'chassis_id', 'conductor_group', 'created_at', 'driver', 'id',
    'power_state', 'properties', 'updated_at', 'uuid']);
});

test('the full view reads every shown field that is a column and skips columns no view reads', () => {
  const columns = new Set(nodeColumnsFor(null));
  for (const field of NODE_FIELDS) assert.equal(columns.has(field), field in TABLES.nodes, field);
  assert.equal(columns.has('conductor_affinity'), false);
  for (const column of columns) assert.ok(column in TABLES.nodes, column);
});

test('pyJsonDumps writes Python json.dumps layout', () => {
  const value = { a: [], b: {}, c: [{}, [[]]], d: 'x,\n  y: z', e: 'é☃', f: [1, 2.5, null, true], g: new Date(0), u: undefined };
  assert.equal(pyJsonDumps(value),
    '{"a": [], "b": {}, "c": [{}, [[]]], "d": "x,\\n  y: z", "e": "\\u00e9\\u2603", "f": [1, 2.5, null, true], ' +
    '"g": "1970-01-01T00:00:00.000Z"}');
  assert.equal(pyJsonDumps(undefined), 'null');
  assert.equal(pyJsonDumps([undefined, 1]), '[null, 1]');
});
