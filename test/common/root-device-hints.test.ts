/**
 * Root device hints with specs_matcher operators, on the hint and disk examples of Ironic
 * 29.0.5's own unit tests (common/test_utils.py).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findDevicesByHints, matchRootDeviceHints, parseRootDeviceHints } from '../../src/common/root-device-hints';
import { matchSpec, parseSpec } from '../../src/common/specs-matcher';

const GIB = 1024 ** 3;
const DEVICES = [
  { name: '/dev/sda', size: 60 * GIB, model: 'ok model', serial: 'fakeserial' },
  { name: '/dev/sdb', size: 120 * GIB, model: 'big model', serial: 'veryfakeserial', rotational: 'yes' },
  { name: '/dev/sdc', size: 10 * GIB, model: 'small model', serial: 'veryveryfakeserial', rotational: false },
];

function parsed(hints: Record<string, unknown>): Record<string, unknown> | null {
  const result = parseRootDeviceHints(hints);
  return result && Object.fromEntries(result);
}

function matched(hints: Record<string, unknown>): unknown {
  return matchRootDeviceHints(DEVICES, hints)?.name ?? null;
}

describe('specs matcher grammar', () => {
  it('tokenizes as pyparsing does: prefix operators, leading match only', () => {
    assert.deepEqual(parseSpec('>= 70'), ['>=', '70']);
    assert.deepEqual(parseSpec('>=100'), ['>=', '100']);
    assert.deepEqual(parseSpec('s==big model'), ['s==', 'big']);
    assert.deepEqual(parseSpec('<or> a <or> b c <or> d'), ['<or>', 'a', 'b']);
    assert.deepEqual(parseSpec('<range-in> [ 10 20 ]'), ['<range-in>', '[', '10', '20', ']']);
    assert.deepEqual(parseSpec('<all-in> aes mmx'), ['<all-in>', 'aes', 'mmx']);
    assert.deepEqual(parseSpec('/dev/sda'), ['/dev/sda']);
    assert.throws(() => parseSpec('<in>'), { name: 'ParseException', message: "Expected Re:('\\S+'), found end of text  (at char 4), (line:1, col:5)" });
  });

  it('applies the numeric, string and set operators', () => {
    assert.equal(matchSpec(120, '>= 70'), true);
    assert.equal(matchSpec(60, '>= 70'), false);
    assert.equal(matchSpec('15', '== 15.0'), true);
    assert.equal(matchSpec('abc', 's< abd'), true);
    assert.equal(matchSpec('small%20model', '<in> small'), true);
    assert.equal(matchSpec('b', '<or> a <or> b'), true);
    assert.equal(matchSpec('15', '<range-in> ( 10 15 ]'), true);
    assert.equal(matchSpec('15', '<range-in> ( 10 15 )'), false);
    assert.throws(() => matchSpec('abc', '>= 1'), { name: 'ValueError', message: "could not convert string to float: 'abc'" });
  });
});

describe('parse_root_device_hints', () => {
  it('adds the equality operator and normalizes strings', () => {
    assert.deepEqual(parsed({
      wwn: '123456', model: 'FOO model', size: 12345, serial: 'foo-serial', vendor: 'foo VENDOR with space',
      name: '/dev/sda', wwn_with_extension: '123456111', wwn_vendor_extension: '111', rotational: true,
      hctl: '1:0:0:0', by_path: '/dev/disk/by-path/1:0:0:0',
    }), {
      wwn: 's== 123456', model: 's== foo%20model', size: '== 12345', serial: 's== foo-serial',
      vendor: 's== foo%20vendor%20with%20space', name: 's== /dev/sda', wwn_with_extension: 's== 123456111',
      wwn_vendor_extension: 's== 111', rotational: true, hctl: 's== 1%3A0%3A0%3A0',
      by_path: 's== /dev/disk/by-path/1%3A0%3A0%3A0',
    });
  });

  it('keeps the operators it is given', () => {
    assert.deepEqual(parsed({ size: '>= 12345', serial: 's!= foo-serial', name: '<or> /dev/sda <or> /dev/sdb', model: 's== foo MODEL' }),
      { size: '>= 12345', serial: 's!= foo-serial', name: '<or> /dev/sda <or> /dev/sdb', model: 's== foo%20model' });
    assert.deepEqual(parsed({ model: '<or> foo <or> foo bar <or> bar' }), { model: '<or> foo <or> foo%20bar <or> bar' });
    assert.deepEqual(parsed({ size: '12345' }), { size: '== 12345' });
    assert.deepEqual(parsed({ rotational: 'no' }), { rotational: false });
    assert.equal(parsed({}), null);
  });

  it('rejects invalid hints with Ironic\'s messages', () => {
    const bad = (hints: Record<string, unknown>, message: string): void => {
      assert.throws(() => parseRootDeviceHints(hints), { name: 'ValueError', message });
    };
    bad({ size: 'not-int' }, 'Root device hint "size" is not an integer value. Current value: not-int');
    bad({ size: -123 }, 'Root device hint "size" should be a positive integer. Current value: -123');
    bad({ size: '<or> 123 <or> non-int <or> 789' },
      'Root device hint "size" is not an integer value. Current value: <or> 123 <or> non-int <or> 789');
    bad({ rotational: 'not-bool' }, 'Root device hint "rotational" is not a Boolean value. Current value: not-bool');
    bad({ wwn: 123 }, 'Root device hint "wwn" is not a string value. Hint expression: 123');
    bad({ model: '  ' }, 'Root device hint "model" expression is empty');
    bad({ foo: 'bar' }, 'The hints "foo" are invalid. Valid hints are: "size, model, wwn, serial, vendor, ' +
      'wwn_with_extension, wwn_vendor_extension, name, rotational, hctl, by_path"');
  });
});

describe('match_root_device_hints', () => {
  it('picks the first disk satisfying every hint', () => {
    assert.equal(matched({ size: '>= 70' }), '/dev/sdb');
    assert.equal(matched({ rotational: false }), '/dev/sdc');
    assert.equal(matched({ size: '>=100', rotational: true }), '/dev/sdb');
    assert.equal(matched({ size: '>= 50', model: 's==big model', serial: 's==veryfakeserial' }), '/dev/sdb');
    assert.equal(matched({ size: '<= 20', model: '<or> model 5 <or> foomodel <or> small model <or>', serial: 's== veryveryfakeserial' }), '/dev/sdc');
    assert.equal(matched({ rotational: false, model: '<in> small' }), '/dev/sdc');
    assert.equal(matched({ size: '120', model: 'big model', serial: 'veryfakeserial' }), '/dev/sdb');
    assert.equal(matched({ model: 'OK Model' }), '/dev/sda');
    assert.equal(matched({ size: '>=50', model: 's==foo' }), null);
  });

  it('skips disks with an empty value and lists every match', () => {
    assert.equal(matchRootDeviceHints([{ name: '/dev/sda', model: ' ' }], { model: 'foo' }), null);
    assert.deepEqual([...findDevicesByHints(DEVICES, { size: '>= 10' })].map((d) => d.name), ['/dev/sda', '/dev/sdb', '/dev/sdc']);
    assert.deepEqual([...findDevicesByHints(DEVICES, { name: 's== /dev/sda' })].map((d) => d.name), ['/dev/sda']);
  });

  it('fails as Python does on values it cannot compare', () => {
    assert.throws(() => matchRootDeviceHints([{ name: '/dev/sda' }], { size: 10 }),
      { name: 'TypeError', message: "unsupported operand type(s) for /: 'NoneType' and 'int'" });
    assert.throws(() => matchRootDeviceHints(DEVICES, { model: '>= 10' }),
      { name: 'ValueError', message: "could not convert string to float: 'ok%20model'" });
  });
});
