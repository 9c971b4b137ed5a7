// Ironic 2025.1's runbooks (1.92), servicing (1.87) and unhold (1.85) on fake-hardware: runbook CRUD
// with its owner/public rules, clean and service with a runbook, service_steps and their errors,
// service wait and its abort, and the late version gates of unhold and service.
import type { CaseGroup, WaitForCase } from '../types';
import { del, get, op, patch, post, put } from './build';

const V = '1.96';
const node = '/v1/nodes/{SR}';
const prov = `${node}/states/provision`;
const RB = '/v1/runbooks';
const step = (iface: string, name: string, order: number | string, args: Record<string, unknown> = {}) =>
  ({ interface: iface, step: name, args, order });
const fields = `${node}?fields=provision_state,target_provision_state,service_step,clean_step,last_error,maintenance,fault,driver_internal_info`;

/**
 * Wait for a settled state (a failed or waiting servicing keeps its target, so only the state and the
 * lock are awaited), comparing only fields of this group's features.
 */
const settled = (name: string, states: string[]): WaitForCase => ({
  kind: 'waitFor', name, path: `${node}?fields=provision_state,target_provision_state,reservation,service_step,last_error`,
  version: V, until: { provision_state: states, reservation: [null] },
});

const runbookCrud = [
  post('create a runbook', RB, V, { uuid: 'c0ffee00-0000-4000-8000-0000000000b1', name: 'CUSTOM_SR_CLEAN', description: 'ignored',
    steps: [step('vendor', 'log_passthrough', '1', { password: 'secret', a: 1 }), { interface: 'bios', step: 'factory_reset', order: 0 }] }),
  get('show a runbook by name', `${RB}/CUSTOM_SR_CLEAN`, V),
  get('show a runbook by uuid with fields', `${RB}/c0ffee00-0000-4000-8000-0000000000b1?fields=name,steps`, V),
  get('list runbooks', RB, V),
  get('list runbooks in detail, one per page', `${RB}?detail=True&limit=1`, V),
  get('list runbooks sorted by steps', `${RB}?sort_key=steps`, V),
  get('list runbooks with an unknown field', `${RB}?fields=colour`, V),
  get('list runbooks at 1.91', RB, '1.91'),
  get('show a runbook at 1.91', `${RB}/CUSTOM_SR_CLEAN`, '1.91'),
  post('create a runbook at 1.91', RB, '1.91', { name: 'CUSTOM_OLD', steps: [step('bios', 'factory_reset', 0)] }),
  post('create a runbook with a taken name', RB, V, { name: 'CUSTOM_SR_CLEAN', steps: [step('bios', 'factory_reset', 0)] }),
  post('create a runbook with a name that is no trait', RB, V, { name: 'not-a-trait', steps: [step('bios', 'factory_reset', 0)] }),
  post('create a runbook without steps', RB, V, { name: 'CUSTOM_EMPTY', steps: [] }),
  post('create a runbook step without order', RB, V, { name: 'CUSTOM_X', steps: [{ interface: 'bios', step: 'x' }] }),
  post('create a runbook step on the boot interface', RB, V, { name: 'CUSTOM_X', steps: [step('boot', 'x', 0)] }),
  post('create a runbook naming a step twice', RB, V, { name: 'CUSTOM_X', steps: [step('bios', 'x', 0), step('bios', 'x', 1)] }),
  post('create a runbook with an unknown field', RB, V, { name: 'CUSTOM_X', colour: 'red', steps: [step('bios', 'x', 0)] }),
  // Without a system-scoped caller (noauth included), a runbook may not name an owner.
  post('create a runbook with an owner', RB, V, { name: 'CUSTOM_OWNED', owner: 'p9', steps: [step('raid', 'delete_configuration', 0)] }),
  post('create a public runbook', RB, V, { name: 'CUSTOM_PUB', public: true, disable_ramdisk: true,
    extra: { k: 'v' }, steps: [step('raid', 'delete_configuration', 0)] }),
  get('show the public runbook', `${RB}/CUSTOM_PUB`, V),
  get('show a runbook with a bad ident', `${RB}/not%20a%20name`, V),
  get('show a missing runbook', `${RB}/CUSTOM_MISSING`, V),
  patch('patch disable_ramdisk (not patchable)', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/disable_ramdisk', true)]),
  patch('patch uuid (not patchable)', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/uuid', 'c0ffee00-0000-4000-8000-0000000000b2')]),
  patch('give a private runbook an owner', `${RB}/CUSTOM_SR_CLEAN`, V, [op('add', '/owner', 'p1')]),
  patch('make public and give an owner at once', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/public', true), op('add', '/owner', 'p2')]),
  patch('make public (the owner goes)', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/public', true)]),
  patch('give a public runbook an owner', `${RB}/CUSTOM_SR_CLEAN`, V, [op('add', '/owner', 'p3')]),
  patch('make private and give an owner at once', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/public', false), op('add', '/owner', 'p4')]),
  patch('add a description (not in the resource)', `${RB}/CUSTOM_SR_CLEAN`, V, [op('add', '/description', 'x')]),
  patch('remove a step order', `${RB}/CUSTOM_SR_CLEAN`, V, [op('remove', '/steps/0/order')]),
  patch('change a step interface to boot', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/steps/0/interface', 'boot')]),
  patch('remove the name', `${RB}/CUSTOM_SR_CLEAN`, V, [op('remove', '/name')]),
  patch('reorder, add a step, rename and set extra', `${RB}/CUSTOM_SR_CLEAN`, V, [op('replace', '/steps/1/order', 5),
    op('add', '/steps/-', step('raid', 'delete_configuration', 2)), op('replace', '/name', 'CUSTOM_SR'), op('replace', '/extra', { a: 'b' })]),
  get('runbook after the patches', `${RB}/CUSTOM_SR`, V),
  patch('add a step without args', `${RB}/CUSTOM_PUB`, V, [op('add', '/steps/-', { interface: 'bios', step: 'factory_reset', order: 1 })]),
  del('delete the public runbook', `${RB}/CUSTOM_PUB`, V),
  get('deleted runbook is gone', `${RB}/CUSTOM_PUB`, V),
  del('delete a missing runbook', `${RB}/CUSTOM_PUB`, V),
  del('delete a runbook at 1.91', `${RB}/CUSTOM_SR`, '1.91'),
];

const cleanWithRunbook = [
  // Created at 1.82 so that the answer holds no field of another 2025.1 feature.
  post('node for servicing', '/v1/nodes', '1.82', { driver: 'fake-hardware', name: 'svc-node' }, { capture: { SR: 'uuid' } }),
  put('unhold at 1.84 from enroll', prov, '1.84', { target: 'unhold' }),
  put('unhold from enroll', prov, V, { target: 'unhold' }),
  put('service at 1.86 from enroll', prov, '1.86', { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }),
  put('manage', prov, V, { target: 'manage' }),
  settled('manageable', ['manageable']),
  post('runbook with a hold step', RB, V, { name: 'CUSTOM_SR_HOLD', steps: [step('vendor', 'log_passthrough', 0), step('deploy', 'hold', 1)] }),
  put('clean with a runbook at 1.91', prov, '1.91', { target: 'clean', runbook: 'CUSTOM_SR_HOLD' }),
  put('clean with a missing runbook', prov, V, { target: 'clean', runbook: 'CUSTOM_NOPE' }),
  put('clean with a runbook ident that is no name', prov, V, { target: 'clean', runbook: 'bad name!' }),
  put('clean with a runbook that is not a string', prov, V, { target: 'clean', runbook: 5 }),
  put('clean with a runbook the node lacks the trait of', prov, V, { target: 'clean', runbook: 'CUSTOM_SR_HOLD' }),
  put('add the runbook trait', `${node}/traits/CUSTOM_SR_HOLD`, V, undefined),
  put('clean with a runbook and clean_steps', prov, V, { target: 'clean', runbook: 'CUSTOM_SR_HOLD',
    clean_steps: [{ interface: 'deploy', step: 'x' }] }),
  put('provide with a runbook', prov, V, { target: 'provide', runbook: 'CUSTOM_SR_HOLD' }),
  put('clean with a disallowed step', prov, V, { target: 'clean', clean_steps: [{ interface: 'vendor', step: 'send_raw' }] }),
  put('clean with a hold step directly', prov, V, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'hold' }] }),
  settled('cleaned past the hold step', ['manageable']),
  put('clean with the runbook', prov, V, { target: 'clean', runbook: 'CUSTOM_SR_HOLD' }),
  settled('cleaned with the runbook', ['manageable']),
  get('node after the runbook clean', fields, V),
];

const servicing = [
  put('provide', prov, V, { target: 'provide' }),
  settled('available', ['available']),
  put('deploy', prov, V, { target: 'active' }),
  settled('active', ['active']),
  put('service without steps', prov, V, { target: 'service' }),
  put('service with empty steps', prov, V, { target: 'service', service_steps: [] }),
  put('service steps not a list', prov, V, { target: 'service', service_steps: { interface: 'vendor' } }),
  put('service step on the boot interface', prov, V, { target: 'service', service_steps: [{ interface: 'boot', step: 'x' }] }),
  put('service step with a priority', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'x', priority: 1 }] }),
  put('service at 1.86', prov, '1.86', { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }),
  put('service with a runbook', prov, V, { target: 'service', runbook: 'CUSTOM_SR_HOLD' }),
  put('rebuild with service_steps', prov, V, { target: 'rebuild', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }),
  put('service with a disallowed step', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'send_raw' }] }),
  put('service with unexpected args', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough', args: { a: 1 } }] }),
  settled('service failed on args', ['service failed']),
  get('node after the failed service', fields, V),
  // At 1.82 the answer holds no field of another 2025.1 feature.
  patch('patch a node in service failed', node, '1.82', [op('add', '/extra/serviced', 'no')]),
  put('service an unknown step', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'nope' }] }),
  settled('service failed on the unknown step', ['service failed']),
  get('node after the unknown step', fields, V),
  put('abort from service failed', prov, V, { target: 'abort' }),
  put('service from service failed', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }),
  settled('active after servicing', ['active']),
  get('node after servicing', fields, V),
  get('service_step at 1.86', `${node}?fields=service_step`, '1.86'),
  get('service_step at 1.87', `${node}?fields=service_step`, '1.87'),
  get('nodes listed by service_step', `/v1/nodes?fields=uuid,service_step&sort_key=service_step`, V),
  put('service into service wait', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' },
    { interface: 'vendor', step: 'trigger_servicewait' }, { interface: 'vendor', step: 'log_passthrough' }] }),
  settled('service wait', ['service wait']),
  get('node in service wait', fields, V),
  patch('patch a node in service wait', node, '1.82', [op('add', '/extra/waiting', 'yes')]),
  put('unhold from service wait', prov, V, { target: 'unhold' }),
  put('service from service wait', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }),
  put('abort service wait', prov, V, { target: 'abort' }),
  settled('service failed by abort', ['service failed']),
  get('node after the abort', fields, V),
  put('service wait again', prov, V, { target: 'service', service_steps: [{ interface: 'vendor', step: 'trigger_servicewait' }] }),
  settled('service wait again settled', ['service wait']),
  put('undeploy from service wait', prov, V, { target: 'deleted' }),
  settled('available after undeploying from service wait', ['available']),
  get('node after undeploying from service wait', fields, V),
  del('delete the hold runbook', `${RB}/CUSTOM_SR_HOLD`, V),
];

export const serviceRunbooksGroup: CaseGroup = {
  group: 'v2025-service-runbooks',
  onlyRelease: '2025.1',
  cases: [...runbookCrud, ...cleanWithRunbook, ...servicing],
};
