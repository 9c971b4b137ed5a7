import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaErrorMessage, Schema } from '../../../src/api/schemas/jsonschema';
import * as args from '../../../src/api/schemas/args';
import { LOCAL_LINK_CONN_SCHEMA } from '../../../src/api/schemas/local-link';

const OBJ: Schema = {
  type: 'object',
  properties: { a: { type: 'string' }, b: { type: ['integer', 'null'], minimum: 0 }, p: { type: 'string', pattern: '^(/[\\w-]+)+$' } },
  required: ['a'],
  additionalProperties: false,
};

describe('jsonschema messages (python-jsonschema best_match)', () => {
  it('prefers errors higher in the document, keyword order breaking ties', () => {
    assert.equal(schemaErrorMessage('x', { b: 'no', z: 1 }, OBJ), "Schema error for x: 'a' is a required property");
    assert.equal(schemaErrorMessage('x', { a: 'ok', z: 1, y: 2 }, OBJ),
      "Schema error for x: Additional properties are not allowed ('y', 'z' were unexpected)");
    assert.equal(schemaErrorMessage('x', { a: 5 }, OBJ), "Schema error for x: 5 is not of type 'string'");
    assert.equal(schemaErrorMessage('x', { a: 'ok', b: true }, OBJ), "Schema error for x: True is not of type 'integer', 'null'");
    assert.equal(schemaErrorMessage('x', { a: 'ok', b: -1 }, OBJ), 'Schema error for x: -1 is less than the minimum of 0');
    assert.equal(schemaErrorMessage('x', { a: 'ok', p: 'rel' }, OBJ), "Schema error for x: 'rel' does not match '^(/[\\\\w-]+)+$'");
    assert.equal(schemaErrorMessage('x', { a: 'ok', p: '/ünï-code' }, OBJ), null);
    assert.equal(schemaErrorMessage('x', [1], OBJ), "Schema error for x: [1] is not of type 'object'");
  });

  it('reports anyOf with the most relevant root cause', () => {
    assert.equal(schemaErrorMessage('llc', { port_id: 'x' }, LOCAL_LINK_CONN_SCHEMA),
      "Schema error for llc: {'port_id': 'x'} is not valid under any of the given schemas. Possible root cause: 'switch_id' is a required property");
    assert.equal(schemaErrorMessage('llc', {}, LOCAL_LINK_CONN_SCHEMA), null);
  });
});

describe('Ironic argument validators', () => {
  it('converts and refuses like ironic.common.args', () => {
    assert.equal(args.macAddress('address', 'AA:BB:CC:DD:EE:FF'), 'aa:bb:cc:dd:ee:ff');
    assert.throws(() => args.macAddress('address', 'AA:BB'), { message: 'Expected valid MAC address for address: AA:BB' });
    assert.equal(args.boolean('detail', 'Yes'), true);
    assert.throws(() => args.boolean('detail', 'x'), /Invalid detail: Unrecognized value 'x', acceptable values are: '0', '1'/);
    assert.equal(args.integer('limit', ' +7 '), 7);
    assert.throws(() => args.integer('limit', '7.0'), { message: 'Expected an integer for limit: 7.0' });
    assert.deepEqual(args.stringList('fields', 'A, b,,a'), ['a', 'b']);
    assert.ok(args.isUuidLike('{11111111-2222-3333-4444-555555555555}'));
    assert.ok(args.isUuidLike('urn:uuid:11111111222233334444555555555555'));
    assert.ok(!args.isUuidLike('11111111-2222-3333-4444-55555555555'));
    assert.throws(() => args.uuidOrName('node', 'bad name'), { message: 'Expected UUID or name for node: bad name' });
  });
});
