// Every resource's views at every microversion from 1.1 to the reference's maximum: the fields each
// version adds, hides or renames (provision states, interfaces, owner, lessee, shard, ...) must
// appear exactly where Ironic shows them, on single objects and in lists alike.
import type { Case, CaseGroup } from '../types';
import { get, MAX, post, put, settle } from './build';

const MAX_MINOR = Number(MAX.split('.')[1]);
const VERSIONS = Array.from({ length: MAX_MINOR }, (_, i) => `1.${i + 1}`);

function viewsAt(version: string): Case[] {
  return [
    get(`node at ${version}`, '/v1/nodes/{S1}', version),
    get(`node detail list at ${version}`, '/v1/nodes/detail?limit=1', version),
    get(`node states at ${version}`, '/v1/nodes/{S1}/states', version),
    get(`port at ${version}`, '/v1/ports/{SP}', version),
    get(`portgroup at ${version}`, '/v1/portgroups/{SG}', version),
    get(`chassis at ${version}`, '/v1/chassis/{SC}', version),
    get(`drivers at ${version}`, '/v1/drivers', version),
    get(`driver at ${version}`, '/v1/drivers/fake-hardware', version),
    get(`conductors at ${version}`, '/v1/conductors', version),
    get(`allocations at ${version}`, '/v1/allocations', version),
    get(`deploy templates at ${version}`, '/v1/deploy_templates', version),
    get(`v1 root at ${version}`, '/v1', version),
  ];
}

export const versionSweepGroup: CaseGroup = {
  group: 'version-sweep',
  cases: [
    post('create a chassis', '/v1/chassis', MAX, { description: 'sweep' }, { capture: { SC: 'uuid' } }),
    post('create a node in it', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'sweep-1', chassis_uuid: '{SC}', extra: { a: 1 } },
      { capture: { S1: 'uuid' } }),
    post('create a port', '/v1/ports', MAX, { node_uuid: '{S1}', address: '52:54:00:00:09:01' }, { capture: { SP: 'uuid' } }),
    post('create a portgroup', '/v1/portgroups', MAX, { node_uuid: '{S1}', address: '52:54:00:00:09:02' }, { capture: { SG: 'uuid' } }),
    put('manage the node', '/v1/nodes/{S1}/states/provision', MAX, { target: 'manage' }),
    settle('node is manageable', '{S1}', ['manageable']),
    ...VERSIONS.flatMap(viewsAt),
  ],
};
