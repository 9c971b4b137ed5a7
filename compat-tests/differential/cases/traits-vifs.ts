// Node traits and VIF attachments (noop network interface).
import type { CaseGroup } from '../types';
import { del, get, MAX, post, put } from './build';

const node = '/v1/nodes/{T1}';

export const traitsGroup: CaseGroup = {
  group: 'traits',
  cases: [
    post('node for traits', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'trait-node' }, { capture: { T1: 'uuid' } }),
    get('list empty', `${node}/traits`, MAX),
    get('list at 1.36 (too old)', `${node}/traits`, '1.36'),
    put('set traits', `${node}/traits`, MAX, { traits: ['CUSTOM_A', 'HW_CPU_X86_AVX2'] }),
    get('list after set', `${node}/traits`, MAX),
    put('add one trait', `${node}/traits/CUSTOM_B`, MAX, undefined),
    put('add existing trait', `${node}/traits/CUSTOM_B`, MAX, undefined),
    put('add invalid trait (lower case)', `${node}/traits/custom_lower`, MAX, undefined),
    put('add invalid trait (no prefix)', `${node}/traits/FOO_BAR`, MAX, undefined),
    put('set invalid traits', `${node}/traits`, MAX, { traits: ['CUSTOM_OK', 'bad'] }),
    put('set traits not a list', `${node}/traits`, MAX, { traits: 'CUSTOM_A' }),
    put('set traits missing key', `${node}/traits`, MAX, {}),
    put('set too long trait', `${node}/traits`, MAX, { traits: [`CUSTOM_${'X'.repeat(250)}`] }),
    get('node shows traits', `${node}?fields=uuid,traits`, MAX),
    del('remove trait', `${node}/traits/CUSTOM_A`, MAX),
    del('remove missing trait', `${node}/traits/CUSTOM_MISSING`, MAX),
    get('list after remove', `${node}/traits`, MAX),
    del('remove all traits', `${node}/traits`, MAX),
    get('list after remove all', `${node}/traits`, MAX),
    put('traits of unknown node', '/v1/nodes/1be26c0b-03f2-4d2e-ae87-c02d7f33c123/traits', MAX, { traits: [] }),
  ],
};

const vnode = '/v1/nodes/{V1}';

export const vifsGroup: CaseGroup = {
  group: 'vifs',
  cases: [
    post('node for vifs', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'vif-node' }, { capture: { V1: 'uuid' } }),
    post('port for vifs', '/v1/ports', MAX, { node_uuid: '{V1}', address: '52:54:00:ee:ff:01' }, { capture: { VP1: 'uuid' } }),
    get('list empty', `${vnode}/vifs`, MAX),
    get('list at 1.27 (too old)', `${vnode}/vifs`, '1.27'),
    post('attach', `${vnode}/vifs`, MAX, { id: 'a1b2c3d4-0000-4000-8000-000000000001' }),
    get('list after attach', `${vnode}/vifs`, MAX),
    get('port shows vif in internal_info', '/v1/ports/{VP1}?fields=uuid,internal_info', MAX),
    post('attach again (no free port)', `${vnode}/vifs`, MAX, { id: 'a1b2c3d4-0000-4000-8000-000000000002' }),
    post('attach same vif again', `${vnode}/vifs`, MAX, { id: 'a1b2c3d4-0000-4000-8000-000000000001' }),
    post('attach missing id', `${vnode}/vifs`, MAX, {}),
    post('attach id wrong type', `${vnode}/vifs`, MAX, { id: 5 }),
    del('detach', `${vnode}/vifs/a1b2c3d4-0000-4000-8000-000000000001`, MAX),
    del('detach unknown vif', `${vnode}/vifs/a1b2c3d4-0000-4000-8000-000000000009`, MAX),
    get('list after detach', `${vnode}/vifs`, MAX),
  ],
};
