/**
 * str(jsonschema.ValidationError), the text of Ironic's "Invalid clean_steps: %s" and "Invalid
 * configdrive format: %s", against python-jsonschema raising for the same documents and schemas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { validationErrorText } from '../../src/common/jsonschema';
import { CLEAN_STEPS_SCHEMA, CONFIGDRIVE_SCHEMA, DEPLOY_STEPS_SCHEMA } from '../../src/api/schemas/node';
import type { Schema } from '../../src/common/jsonschema';

const step = { interface: 'deploy', step: 'do_it', args: {}, priority: 10 };
const CASES: Array<[Schema, unknown]> = [
  [CLEAN_STEPS_SCHEMA, [{ interface: 'deploy', step: 'erase_devices' }]],
  [CLEAN_STEPS_SCHEMA, [5]],
  [CLEAN_STEPS_SCHEMA, [{ interface: 'deploy' }]],
  [CLEAN_STEPS_SCHEMA, [{ interface: 'bogus', step: 'x' }]],
  [CLEAN_STEPS_SCHEMA, [{ interface: 'raid', step: '', args: { a: 1 } }]],
  [CLEAN_STEPS_SCHEMA, [{ interface: 'bios', step: 'apply', args: [], extra: 1, more: 2 }]],
  [DEPLOY_STEPS_SCHEMA, [step]],
  [DEPLOY_STEPS_SCHEMA, [{ ...step, priority: -1 }]],
  [DEPLOY_STEPS_SCHEMA, [{ ...step, priority: 'x' }]],
  [DEPLOY_STEPS_SCHEMA, [step, { ...step, priority: [1, 2] }]],
  [DEPLOY_STEPS_SCHEMA, [{ ...step, args: { long: 'a value long enough to make pprint break the line in two '.repeat(2) } }, 7]],
  [CONFIGDRIVE_SCHEMA, { meta_data: {}, user_data: 'x' }],
  [CONFIGDRIVE_SCHEMA, { meta_data: [] }],
  [CONFIGDRIVE_SCHEMA, { network_data: {}, colour: 'red' }],
  [CONFIGDRIVE_SCHEMA, 5],
];

function pythonTexts(): Array<string | null> {
  const script = `
import json, sys, jsonschema
out = []
for schema, doc in json.load(sys.stdin):
    try:
        jsonschema.validate(doc, schema)
        out.append(None)
    except jsonschema.ValidationError as e:
        out.append(str(e).rstrip())
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(CASES), encoding: 'utf8' })) as Array<string | null>;
}

test('validationErrorText is str() of the error python-jsonschema raises', () => {
  const expected = pythonTexts();
  CASES.forEach(([schema, doc], i) => assert.equal(validationErrorText(doc, schema), expected[i], `case ${i}`));
});
