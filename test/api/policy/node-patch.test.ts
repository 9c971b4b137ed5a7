/** The rules a node PATCH is checked against, per path, as Ironic 21.4.4 picks them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodePatchPolicies } from '../../../src/api/policy/node-patch';
import { ruleFor } from '../../../src/api/policy/routes';

const ops = (...paths: [string, unknown?][]): unknown[] => paths.map(([path, value]) => ({ op: 'replace', path, value }));

describe('node PATCH policies', () => {
  it('maps each path to its rule, in order', () => {
    assert.deepEqual(nodePatchPolicies(ops(['/extra/a'], ['/instance_info/x'], ['/driver_info/ipmi_address'], ['/owner'])),
      ['baremetal:node:update_extra', 'baremetal:node:update_instance_info', 'baremetal:node:update:driver_info',
        'baremetal:node:update:owner']);
    assert.deepEqual(nodePatchPolicies(ops(['/driver'], ['/deploy_interface'], ['/maintenance_reason'], ['/shard'])),
      ['baremetal:node:update:driver_interfaces', 'baremetal:node:update:driver_interfaces',
        'baremetal:node:set_maintenance', 'baremetal:node:update:shard']);
  });

  it('checks disable_cleaning only when automated_clean turns false', () => {
    assert.deepEqual(nodePatchPolicies(ops(['/automated_clean', 'off'])), ['baremetal:node:disable_cleaning']);
    assert.deepEqual(nodePatchPolicies(ops(['/automated_clean', true])), ['baremetal:node:update']);
  });

  it('matches by prefix as Ironic does, the longer prefix first, and interfaces only by their exact path', () => {
    assert.deepEqual(nodePatchPolicies(ops(['/driver_internal_info'], ['/retired_reason'], ['/extrax'], ['/driver_info'])),
      ['baremetal:node:update:driver_interfaces', 'baremetal:node:update:retired', 'baremetal:node:update_extra',
        'baremetal:node:update:driver_info']);
    assert.deepEqual(nodePatchPolicies(ops(['//boot_interface'], ['boot_interface'])),
      ['baremetal:node:update:driver_interfaces', 'baremetal:node:update:driver_interfaces']);
    assert.deepEqual(nodePatchPolicies(ops(['/boot_interface/x'])), ['baremetal:node:update']);
  });

  it('adds the generic rule for paths without their own, and for empty patches', () => {
    assert.deepEqual(nodePatchPolicies(ops(['/name'], ['/description'])), ['baremetal:node:update:name', 'baremetal:node:update']);
    assert.deepEqual(nodePatchPolicies(ops(['/bogus_interface'])), ['baremetal:node:update']);
    // 29.0.5's ALL_INTERFACES holds firmware (1.86).
    assert.deepEqual(nodePatchPolicies(ops(['/firmware_interface'])), ['baremetal:node:update:driver_interfaces']);
    assert.deepEqual(nodePatchPolicies([]), ['baremetal:node:update']);
    assert.deepEqual(nodePatchPolicies(undefined), ['baremetal:node:update']);
  });
});

describe('route rules', () => {
  it('finds the rule and the ident of a path', () => {
    assert.deepEqual(ruleFor('GET', '/v1/nodes/detail'), { rule: { kind: 'list', object: 'node' }, ident: null });
    assert.deepEqual(ruleFor('PUT', '/v1/nodes/n1/states/power'),
      { rule: { kind: 'node', policy: 'baremetal:node:set_power_state' }, ident: 'n1' });
    assert.deepEqual(ruleFor('HEAD', '/v1/conductors'), { rule: { kind: 'plain', policy: 'baremetal:conductor:get' }, ident: null });
    assert.deepEqual(ruleFor('GET', '/v1/chassis/c1/nodes'), { rule: { kind: 'list', object: 'node' }, ident: null });
    assert.equal(ruleFor('GET', '/v1/unknown'), null);
  });
});
