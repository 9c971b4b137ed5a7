/**
 * The masking module against oslo.utils' own test cases (transcribed in oslo-mask-cases.ts), the
 * patterns issue 19 found missing, Python `re` corner cases, URL userinfo and the JSON prefilters.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  jsonMayHoldUrlCredentials, jsonNamePrefilter, maskDictPassword, maskForEcho, maskMessage, maskPassword,
  maskUrlCredentials, SANITIZE_KEYS,
} from '../../src/common/mask';
import { OSLO_CASES } from './oslo-mask-cases';

describe("oslo.utils' MaskPasswordTestCase and MaskDictionaryPasswordTestCase", () => {
  for (const [i, c] of OSLO_CASES.entries()) {
    test(`${c.test} #${i}: ${JSON.stringify(c.payload).slice(0, 60)}`, () => {
      const got = c.kind === 'string'
        ? maskPassword(c.payload as string, c.secret)
        : maskDictPassword(c.payload as Record<string, unknown>, c.secret);
      assert.deepEqual(got, c.expected);
    });
  }

  test('test_sanitize_keys: the keys are all lower case', () => {
    assert.deepEqual(SANITIZE_KEYS, SANITIZE_KEYS.map((k) => k.toLowerCase()));
  });

  test('a stored __proto__ key stays an own key of the masked dict', () => {
    const masked = maskDictPassword(JSON.parse('{"__proto__": {"password": "x"}, "a": "http://u:p@h"}') as Record<string, unknown>);
    assert.deepEqual(Object.keys(masked), ['__proto__', 'a']);
    assert.equal(Object.getPrototypeOf(masked), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value, { password: '******' });
    assert.deepEqual(Object.keys(maskForEcho(masked) as object), ['__proto__', 'a']);
  });

  test('test_argument_untouched: the dict passed in is not modified', () => {
    const payload = { password: 'DK0PK1AK3', dict: { cat: 'meow', password: '*aa38skdjf' }, list: ['--password x'] };
    const pristine = structuredClone(payload);
    maskDictPassword(payload);
    assert.deepEqual(payload, pristine);
  });
});

describe('mask_password patterns maskString used to miss (issue 19 finding 3)', () => {
  const cases: Array<[string, string]> = [
    ['password "x"', 'password "******"'],
    ['<password>x</password>', '<password>******</password>'],
    ['password -p x', 'password -p ******'],
    ["'adminPass', '--foo', 'x'", "'adminPass', '--foo', '******'"],
    ['<admin_password>x</admin_password>', '<admin_password>******</admin_password>'],
    ['chapsecret=x', 'chapsecret=******'],
  ];
  for (const [input, expected] of cases) test(input, () => assert.equal(maskPassword(input), expected));
});

describe("Python re semantics kept", () => {
  test('\\s is str.isspace(): \\x1c and \\x85 count as space, \\ufeff does not', () => {
    assert.equal(maskPassword('password\x1c"x"'), 'password\x1c"******"');
    assert.equal(maskPassword('--password\x85x'), '--password\x85******');
    assert.equal(maskPassword('--password\ufeffx'), '--password\ufeffx');
  });

  test('IGNORECASE matches dotless and dotted i and the Kelvin sign as Python does', () => {
    assert.equal(maskPassword('admin_pass=a adm\u0131n_pass=b'), 'admin_pass=****** adm\u0131n_pass=******');
    assert.equal(maskPassword('to\u212aen=x'), 'to\u212aen=******');
    // The fast check lower-cases the message: U+0130 lower-cases to two characters, so no key is found.
    assert.equal(maskPassword('adm\u0130n_pass=b'), 'adm\u0130n_pass=b');
  });

  test("the wildcard pattern drops a quoted value's tail, as oslo does", () => {
    assert.equal(maskPassword("{'password': 'x', 'user': 'bob'}"), "{'password': '******', 'user': '}");
  });
});

describe('URL userinfo', () => {
  const cases: Array<[string, string]> = [
    ['https://admin:pw@bmc', 'https://******@bmc'],
    ['http://user:pw@host/img', 'http://******@host/img'],
    ['redfish+https://u@h:8000/x?y=1#z', 'redfish+https://******@h:8000/x?y=1#z'],
    ['http://u:p@ss@host/', 'http://******@host/'],
    ["http://u:p w'\"@host", 'http://******@host'],
    ['a http://x:y@h b ftp://c:d@e/f', 'a http://******@h b ftp://******@e/f'],
    ['http://host/path@not-userinfo', 'http://host/path@not-userinfo'],
    ['http://@host', 'http://@host'],
    ['mail me@example.com', 'mail me@example.com'],
    ['http://a http://u:p@h', 'http://a http://******@h'],
  ];
  for (const [input, expected] of cases) test(input, () => assert.equal(maskUrlCredentials(input), expected));

  test('maskMessage applies both; maskForEcho masks dicts by key, lists and URLs', () => {
    assert.equal(maskMessage('token=abc at http://u:p@h/'), 'token=****** at http://******@h/');
    assert.deepEqual(maskForEcho({ ipmi_password: 'x', a: ['http://u:p@h'], n: { token: 1 } }),
      { ipmi_password: '******', a: ['http://******@h'], n: { token: '******' } });
    assert.equal(maskForEcho('plain'), 'plain');
  });
});

describe('JSON text prefilters', () => {
  test('pass text that cannot change, catch names, escapes and the Kelvin sign', () => {
    const secretKeys = jsonNamePrefilter(SANITIZE_KEYS);
    assert.equal(secretKeys('{"ipmi_address": "10.0.0.1", "note": "caf\\u00e9"}'), false);
    assert.equal(secretKeys('{"IPMI_Password": "x"}'), true);
    assert.equal(secretKeys('{"to\\u212aen": "x"}'), true);
    assert.equal(secretKeys('{"to\u212aen": "x"}'), true);
    assert.equal(secretKeys('{"p\\u0061ssword": "x"}'), true);
    assert.equal(jsonNamePrefilter(['image_url'])('{"image_url": "x"}'), true);
    assert.equal(jsonNamePrefilter([])('{"a": "http:\\u002f/u:p@h"}'), true);
    assert.equal(jsonMayHoldUrlCredentials('{"a": "http://h/x", "b": "me@x"}'), true);
    assert.equal(jsonMayHoldUrlCredentials('{"a": "http://h/x"}'), false);
    assert.equal(jsonMayHoldUrlCredentials('{"a": "me@x"}'), false);
  });
});
