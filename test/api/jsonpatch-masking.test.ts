/**
 * apply_jsonpatch's reasons echo parts of the patched document, which holds stored secrets: they
 * are echoed masked (the API's patch schema refuses `test`, so that path is checked here directly).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PatchError } from '../../src/common/errors';
import { applyJsonPatch, PatchOp } from '../../src/api/jsonpatch';

const DOC = { driver_info: { ipmi_password: 'SECRETPW', ipmi_address: '10.0.0.1', url: 'https://a:URLPW@bmc' } };

function reason(patch: PatchOp[]): string {
  try {
    applyJsonPatch(DOC, patch);
  } catch (err) {
    assert.ok(err instanceof PatchError);
    return err.message;
  }
  throw new Error('the patch applied');
}

test('a missing member echoes its container masked by key and URL', () => {
  const message = reason([{ op: 'replace', path: '/driver_info/nope/ipmi_password', value: 'x' }]);
  assert.match(message, /member 'nope' not found in \{'ipmi_password': '\*\*\*\*\*\*', 'ipmi_address': '10\.0\.0\.1', 'url': 'https:\/\/\*\*\*\*\*\*@bmc'\}/);
});

test('a failed test echoes the stored value masked, by its key when it is a secret', () => {
  assert.doesNotMatch(reason([{ op: 'test', path: '/driver_info', value: {} }]), /SECRETPW|URLPW/);
  assert.match(reason([{ op: 'test', path: '/driver_info/ipmi_password', value: 'guess' }]),
    /^Couldn't apply patch .*Reason: '\*\*\*\*\*\*' \(<class 'str'>\) is not equal to tested value 'guess'/);
});
