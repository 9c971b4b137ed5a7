// The version sweep carried on from 1.83 to 29.0.5's 1.96 (2025.1 only): every resource of
// version-sweep.ts plus what 2025.1 added (children, firmware, runbooks, inspection rules,
// virtual media), at each version, so each gated field and route appears exactly where Ironic shows it.
import type { Case, CaseGroup } from '../types';
import { del, get, post, put, settle } from './build';

const LATEST = '1.96';
const VERSIONS = Array.from({ length: 96 - 82 }, (_, i) => `1.${i + 83}`);

function viewsAt(version: string): Case[] {
  return [
    get(`node at ${version}`, '/v1/nodes/{W1}', version),
    get(`node detail list at ${version}`, '/v1/nodes/detail?limit=1', version),
    get(`node states at ${version}`, '/v1/nodes/{W1}/states', version),
    get(`node validate at ${version}`, '/v1/nodes/{W1}/validate', version),
    get(`children at ${version}`, '/v1/nodes/{W1}/children', version),
    get(`firmware at ${version}`, '/v1/nodes/{W1}/firmware', version),
    get(`vmedia at ${version}`, '/v1/nodes/{W1}/vmedia', version),
    get(`port at ${version}`, '/v1/ports/{WP}', version),
    get(`node's port list at ${version}`, '/v1/nodes/{W1}/ports?fields=uuid,address,name', version),
    get(`portgroup at ${version}`, '/v1/portgroups/{WG}', version),
    get(`chassis at ${version}`, '/v1/chassis/{WC}', version),
    get(`driver at ${version}`, '/v1/drivers/fake-hardware', version),
    get(`runbooks at ${version}`, '/v1/runbooks', version),
    get(`inspection rules at ${version}`, '/v1/inspection_rules', version),
    get(`deploy templates at ${version}`, '/v1/deploy_templates', version),
    get(`v1 root at ${version}`, '/v1', version),
  ];
}

export const v2025VersionSweep: CaseGroup = {
  group: 'v2025-version-sweep',
  onlyRelease: '2025.1',
  cases: [
    post('create a chassis', '/v1/chassis', LATEST, { description: 'sweep 2025' }, { capture: { WC: 'uuid' } }),
    post('create a node in it', '/v1/nodes', LATEST, { driver: 'fake-hardware', name: 'sweep-2025', chassis_uuid: '{WC}' },
      { capture: { W1: 'uuid' } }),
    post('create a child node', '/v1/nodes', LATEST, { driver: 'fake-hardware', name: 'sweep-2025-child', parent_node: '{W1}' }),
    post('create a named port', '/v1/ports', LATEST, { node_uuid: '{W1}', address: '52:54:00:00:0a:01', name: 'sweep-port' },
      { capture: { WP: 'uuid' } }),
    post('create a portgroup', '/v1/portgroups', LATEST, { node_uuid: '{W1}', address: '52:54:00:00:0a:02' }, { capture: { WG: 'uuid' } }),
    post('create a runbook', '/v1/runbooks', LATEST, { name: 'CUSTOM_SWEEP', steps: [{ interface: 'deploy', step: 'erase_devices_metadata', args: {}, order: 1 }] },
      { capture: { WR: 'uuid' } }),
    post('create an inspection rule', '/v1/inspection_rules', LATEST, {
      description: 'sweep', conditions: [{ op: 'eq', args: [1, 1] }], actions: [{ op: 'add-trait', args: ['CUSTOM_SWEPT'] }],
    }, { capture: { WI: 'uuid' } }),
    put('manage the node', '/v1/nodes/{W1}/states/provision', LATEST, { target: 'manage' }),
    settle('node is manageable', '{W1}', ['manageable']),
    ...VERSIONS.flatMap(viewsAt),
    // Later groups list every runbook and rule: leave none behind.
    del('delete the runbook', '/v1/runbooks/{WR}', LATEST),
    del('delete the inspection rule', '/v1/inspection_rules/{WI}', LATEST),
  ],
};
