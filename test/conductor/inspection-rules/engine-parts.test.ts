/** The pieces of the inspection rules engine: Python-format interpolation, the operators, the rules file reader. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpolate } from '../../../src/conductor/inspection-rules/interpolate';
import { OPERATOR_CHECKS } from '../../../src/conductor/inspection-rules/operators';
import { parseYaml } from '../../../src/common/yaml-block';

const context = {
  inventory: { cpu: { count: 4, flags: ['vmx', 'aes'] }, interfaces: [{ name: 'eth0' }], bmc_address: '192.0.2.1' },
  plugin_data: { x: { y: true } },
  node: { uuid: 'u-1', properties: { cpu_arch: 'x86_64' } },
};

describe('rule argument interpolation (str.format)', () => {
  it('resolves items, attributes and list indexes, printing values as Python str() does', () => {
    assert.equal(interpolate('{inventory[cpu][count]}', context), '4');
    assert.equal(interpolate('{inventory[cpu][flags]}', context), "['vmx', 'aes']");
    assert.equal(interpolate('{inventory[interfaces][0][name]}', context), 'eth0');
    assert.equal(interpolate('{node.properties[cpu_arch]} on {node.uuid}', context), 'x86_64 on u-1');
    assert.equal(interpolate('{plugin_data[x][y]}', context), 'True');
    assert.equal(interpolate('{{literal}}', context), '{literal}');
  });

  it('leaves a string alone when a field does not resolve', () => {
    assert.equal(interpolate('{inventory[nope]}', context), '{inventory[nope]}');
    assert.equal(interpolate('{inventory[cpu][count]:>5}', context), '{inventory[cpu][count]:>5}');
    assert.equal(interpolate('{unclosed', context), '{unclosed');
  });

  it('walks dicts and lists, formatting loop strings twice but list items once', () => {
    assert.deepEqual(interpolate({ '{node.uuid}': ['{inventory[bmc_address]}', 3] }, context), { 'u-1': ['192.0.2.1', 3] });
    const loop = { ...context, item: { v: '{inventory[bmc_address]}' } };
    assert.equal(interpolate('{item[v]}', loop, true), '192.0.2.1');
    assert.equal(interpolate('{item[v]}', loop), '{inventory[bmc_address]}');
    assert.deepEqual(interpolate(['{item[v]}'], loop, true), ['{inventory[bmc_address]}']);
  });
});

describe('rule condition operators', () => {
  const check = (op: string, args: Record<string, unknown>): boolean => OPERATOR_CHECKS.get(op)!(args);

  it('compares neighbouring values with Python semantics', () => {
    assert.equal(check('eq', { values: [1, 1.0, true] }), true);
    assert.equal(check('eq', { values: [{ a: [1] }, { a: [1] }] }), true);
    assert.equal(check('eq', { values: ['1', 1] }), false);
    assert.equal(check('eq', { values: ['1', 1], force_strings: true }), true);
    assert.equal(check('lt', { values: [1, 2, 3] }), true);
    assert.equal(check('gt', { values: ['b', 'a'] }), true);
    assert.equal(check('eq', { values: [5] }), true);
    assert.throws(() => check('gt', { values: ['4096', 1000] }), /'>' not supported between instances of 'str' and 'int'/);
    assert.throws(() => check('eq', { values: 'x' }), /Expected list for 'values', got: str/);
  });

  it('checks emptiness, truth, membership, networks and patterns', () => {
    assert.equal(check('is-empty', { value: '[]' }), true);
    assert.equal(check('is-empty', { value: null }), true);
    assert.equal(check('is-empty', { value: 0 }), false);
    assert.equal(check('is-true', { value: 'Yes' }), true);
    assert.equal(check('is-true', { value: 'on' }), false);
    assert.equal(check('is-false', { value: null }), true);
    assert.equal(check('is-none', { value: null }), true);
    assert.equal(check('one-of', { value: 2, values: [1, 2] }), true);
    assert.equal(check('one-of', { value: 'b', values: 'abc' }), true);
    assert.equal(check('in-net', { address: '192.0.2.7', subnet: '192.0.2.0/24' }), true);
    assert.equal(check('in-net', { address: '198.51.100.7', subnet: '192.0.2.0/24' }), false);
    assert.equal(check('in-net', { address: '2001:db8::5', subnet: '2001:db8::/64' }), true);
    assert.throws(() => check('in-net', { address: '192.0.2.7', subnet: 'nope' }), /invalid value/);
    assert.equal(check('matches', { value: 'x86_64', regex: 'x86' }), false);
    assert.equal(check('matches', { value: 'x86_64', regex: 'x86.*' }), true);
    assert.equal(check('contains', { value: "['vmx', 'aes']", regex: 'aes' }), true);
    assert.throws(() => check('contains', { value: 'x', regex: '(' }), /invalid regular expression/);
  });
});

describe('the built-in rules file', () => {
  it('reads the YAML rules are written in', () => {
    const text = [
      '# built-in rules',
      '- uuid: 7a0c4e5e-0000-4000-8000-000000000001',
      '  priority: -5',
      "  description: 'set the arch: always'",
      '  conditions:',
      '    - op: is-true',
      '      args: {"value": "{inventory[cpu][count]}"}',
      '      multiple: any',
      '  actions:',
      '    - op: add-trait',
      '      args: ["CUSTOM_BUILTIN"]',
      '    - op: set-attribute',
      '      args:',
      '        path: properties/x',
      '        value: 12',
      '  sensitive: false',
      '- actions:',
      '  - op: log',
      "    args: [hello, 'it''s', {level: debug}]",
      '  description: ~',
    ].join('\n');
    assert.deepEqual(parseYaml(text), [
      {
        uuid: '7a0c4e5e-0000-4000-8000-000000000001', priority: -5, description: 'set the arch: always',
        conditions: [{ op: 'is-true', args: { value: '{inventory[cpu][count]}' }, multiple: 'any' }],
        actions: [{ op: 'add-trait', args: ['CUSTOM_BUILTIN'] }, { op: 'set-attribute', args: { path: 'properties/x', value: 12 } }],
        sensitive: false,
      },
      { actions: [{ op: 'log', args: ['hello', "it's", { level: 'debug' }] }], description: null },
    ]);
  });

  it('refuses what it does not read rather than guessing', () => {
    assert.throws(() => parseYaml('- a: &anchor 1'), /unsupported YAML construct/);
    assert.throws(() => parseYaml('- a: [unclosed, flow'), /unsupported flow value/);
    assert.throws(() => parseYaml('- a: |'), /unsupported YAML construct/);
  });
});
