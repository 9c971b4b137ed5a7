// Manual and automated cleaning on fake-hardware: the fake BIOS and RAID steps, argument checks,
// step validation errors, disable_ramdisk gating, and inspection from manageable.
import type { CaseGroup, WaitForCase } from '../types';
import { get, MAX, post, put, settle } from './build';

const node = '/v1/nodes/{CL}';
const prov = `${node}/states/provision`;
const clean = (steps: unknown, version = MAX, extra: Record<string, unknown> = {}) =>
  [prov, version, { target: 'clean', clean_steps: steps, ...extra }] as const;

/** A failed clean keeps its target (manageable), so settle's "no target" never comes: wait for the state alone. */
const cleanFailed = (name: string): WaitForCase => ({
  kind: 'waitFor', name, path: node, version: MAX, until: { provision_state: ['clean failed'], reservation: [null] },
});

export const cleaningGroup: CaseGroup = {
  group: 'cleaning',
  cases: [
    post('node for cleaning', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'clean-node', bios_interface: 'fake', raid_interface: 'fake' },
      { capture: { CL: 'uuid' } }),
    put('manage', prov, MAX, { target: 'manage' }),
    settle('manageable', '{CL}', ['manageable']),
    put('clean at 1.14 (too old)', ...clean([{ interface: 'bios', step: 'factory_reset' }], '1.14')),
    put('clean steps not a list', ...clean({ interface: 'bios', step: 'factory_reset' })),
    put('clean step without interface', ...clean([{ step: 'factory_reset' }])),
    put('clean step with an unknown interface', ...clean([{ interface: 'colour', step: 'factory_reset' }])),
    put('clean step with args not a dict', ...clean([{ interface: 'bios', step: 'factory_reset', args: [1] }])),
    put('clean step with an unknown key', ...clean([{ interface: 'bios', step: 'factory_reset', colour: 'red' }])),
    put('clean with disable_ramdisk at 1.69 (too old)', ...clean([{ interface: 'bios', step: 'factory_reset' }], '1.69', { disable_ramdisk: true })),
    put('clean with disable_ramdisk a string', ...clean([{ interface: 'bios', step: 'factory_reset' }], MAX, { disable_ramdisk: 'yes' })),
    cleanFailed('clean without a ramdisk failed'),
    get('node after a clean without ramdisk', `${node}?fields=provision_state,target_provision_state,last_error,driver_internal_info`, MAX),
    put('manage after the ramdisk failure', prov, MAX, { target: 'manage' }),
    settle('manageable after the ramdisk failure', '{CL}', ['manageable']),
    put('bios factory reset', ...clean([{ interface: 'bios', step: 'factory_reset' }])),
    settle('after factory reset', '{CL}', ['manageable', 'clean failed']),
    get('node after factory reset', `${node}?fields=provision_state,last_error,clean_step,driver_internal_info`, MAX),
    put('bios apply without settings', ...clean([{ interface: 'bios', step: 'apply_configuration' }])),
    cleanFailed('after apply without settings'),
    get('node after apply without settings', `${node}?fields=provision_state,last_error`, MAX),
    put('manage after failed clean', prov, MAX, { target: 'manage' }),
    settle('manageable again', '{CL}', ['manageable']),
    put('bios apply with settings', ...clean([{ interface: 'bios', step: 'apply_configuration',
      args: { settings: [{ name: 'ProcVirtualization', value: 'Enabled' }] } }])),
    settle('after apply with settings', '{CL}', ['manageable', 'clean failed']),
    get('bios settings after apply', `${node}/bios`, MAX),
    get('one bios setting', `${node}/bios/ProcVirtualization`, MAX),
    get('an unknown bios setting', `${node}/bios/Nope`, MAX),
    get('bios settings with fields at 1.74', `${node}/bios?fields=name,value,read_only`, MAX),
    get('bios detail', `${node}/bios?detail=True`, MAX),
    put('raid create without a target config', ...clean([{ interface: 'raid', step: 'create_configuration' }])),
    cleanFailed('after raid without target'),
    get('node after raid without target', `${node}?fields=provision_state,last_error,raid_config`, MAX),
    put('manage after raid failure', prov, MAX, { target: 'manage' }),
    settle('manageable after raid failure', '{CL}', ['manageable']),
    put('set a target raid config', `${node}/states/raid`, MAX, { logical_disks: [{ size_gb: 10, raid_level: '1', is_root_volume: true }] }),
    put('raid create', ...clean([{ interface: 'raid', step: 'create_configuration' }])),
    cleanFailed('after raid create (fake RAID has no clean steps)'),
    get('node after raid create', `${node}?fields=provision_state,last_error,raid_config,target_raid_config`, MAX),
    put('manage before inspection', prov, MAX, { target: 'manage' }),
    settle('manageable before inspection', '{CL}', ['manageable']),
    put('inspect', prov, MAX, { target: 'inspect' }),
    settle('after inspect', '{CL}', ['manageable', 'inspect failed']),
    get('node after inspect', `${node}?fields=provision_state,last_error,inspection_started_at,inspection_finished_at`, MAX),
    put('abort with nothing running', prov, MAX, { target: 'abort' }),
    post('node with automated clean', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'auto-clean', automated_clean: true },
      { capture: { AC: 'uuid' } }),
    put('manage the auto-clean node', '/v1/nodes/{AC}/states/provision', MAX, { target: 'manage' }),
    settle('auto-clean node manageable', '{AC}', ['manageable']),
    put('provide the auto-clean node', '/v1/nodes/{AC}/states/provision', MAX, { target: 'provide' }),
    settle('auto-clean node available', '{AC}', ['available', 'clean failed']),
    get('auto-clean node', '/v1/nodes/{AC}?fields=provision_state,last_error,clean_step,automated_clean', MAX),
    get('auto-clean node history', '/v1/nodes/{AC}/history', MAX),
  ],
};
