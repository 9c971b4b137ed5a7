// Steps meant for child nodes (execute_on_child_nodes, limit_child_node_execution) in manual cleaning and
// servicing on fake-hardware: the API's checks of the named children, and what the conductor runs (the BIOS
// settings a fake apply_configuration writes show where a step ran).
import type { CaseGroup, WaitForCase } from '../types';
import { get, patch, post, put } from './build';

const V = '1.96';
const parent = '/v1/nodes/{CSP}';
const child = '/v1/nodes/{CSC}';
const prov = `${parent}/states/provision`;
const FIELDS = 'fields=provision_state,target_provision_state,clean_step,service_step,last_error,power_state';

const settled = (name: string, node: string, states: string[]): WaitForCase => ({
  kind: 'waitFor', name, path: `${node}?${FIELDS},reservation`, version: V, until: { provision_state: states, reservation: [null] },
});
const biosStep = (value: string, extra: Record<string, unknown> = {}) => ({
  interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'child_marker', value }] }, ...extra,
});

export const v2025ChildSteps: CaseGroup = {
  group: 'v2025-child-steps',
  onlyRelease: '2025.1',
  cases: [
    post('parent node', '/v1/nodes', V, { driver: 'fake-hardware', name: 'cs-parent' }, { capture: { CSP: 'uuid' } }),
    post('child node', '/v1/nodes', V, { driver: 'fake-hardware', name: 'cs-child', parent_node: '{CSP}' }, { capture: { CSC: 'uuid' } }),
    post('second child node', '/v1/nodes', V, { driver: 'fake-hardware', name: 'cs-child-2', parent_node: '{CSP}' },
      { capture: { CSC2: 'uuid' } }),
    put('manage parent', prov, V, { target: 'manage' }),
    settled('parent manageable', parent, ['manageable']),
    put('clean naming a child that is no uuid', prov, V,
      { target: 'clean', clean_steps: [biosStep('a', { execute_on_child_nodes: true, limit_child_node_execution: ['cs-child'] })] }),
    put('clean naming a missing child', prov, V, { target: 'clean', clean_steps: [biosStep('a',
      { execute_on_child_nodes: true, limit_child_node_execution: ['1be26c0b-03f2-4d2e-ae87-c02d7f33c123'] })] }),
    put('clean with execute_on_child_nodes not a boolean', prov, V,
      { target: 'clean', clean_steps: [biosStep('a', { execute_on_child_nodes: 'yes' })] }),
    put('clean with limit_child_node_execution not a list', prov, V,
      { target: 'clean', clean_steps: [biosStep('a', { execute_on_child_nodes: true, limit_child_node_execution: '{CSC}' })] }),
    put('clean with a step for all children', prov, V,
      { target: 'clean', clean_steps: [biosStep('all', { execute_on_child_nodes: true })] }),
    settled('parent back to manageable', parent, ['manageable', 'clean failed']),
    get('parent bios after the child step', `${parent}/bios`, V),
    get('child bios after the child step', `${child}/bios`, V),
    get('second child bios after the child step', '/v1/nodes/{CSC2}/bios', V),
    put('clean with a step for one child', prov, V, { target: 'clean',
      clean_steps: [biosStep('one', { execute_on_child_nodes: true, limit_child_node_execution: ['{CSC2}'] }), biosStep('own')] }),
    settled('parent manageable after one child', parent, ['manageable', 'clean failed']),
    get('parent bios after one-child step', `${parent}/bios`, V),
    get('child bios after one-child step', `${child}/bios`, V),
    get('second child bios after one-child step', '/v1/nodes/{CSC2}/bios', V),
    get('parent after cleaning', `${parent}?${FIELDS}`, V),
    put('provide parent', prov, V, { target: 'provide' }),
    settled('parent available', parent, ['available']),
    patch('instance info for deploy', parent, V, [{ op: 'add', path: '/instance_info/image_source', value: 'http://127.0.0.1:9/img' }]),
    put('deploy parent', prov, V, { target: 'active' }),
    settled('parent active', parent, ['active']),
    put('service with a step for the children', prov, V,
      { target: 'service', service_steps: [biosStep('svc', { execute_on_child_nodes: true })] }),
    settled('parent active after service', parent, ['active', 'service failed']),
    get('child bios after service', `${child}/bios`, V),
    get('parent after service', `${parent}?${FIELDS}`, V),
    post('runbook with a step for child nodes', '/v1/runbooks', V,
      { name: 'CUSTOM_CHILD_STEPS', steps: [{ ...biosStep('rb', { execute_on_child_nodes: true }), order: 0 }] }),
  ],
};
