// Smaller node sub-resources and the newer top-level collections, read mostly at their introduction versions.
import type { CaseGroup } from '../types';
import { get, MAX, post, put, raw } from './build';

const node = '/v1/nodes/{R1}';

export const nodeSubresources: CaseGroup = {
  group: 'node-subresources',
  cases: [
    post('node for sub-resources', '/v1/nodes', MAX, { driver: 'fake-hardware', name: 'sub-node', shard: 'sub-shard' }, { capture: { R1: 'uuid' } }),
    get('console state', `${node}/states/console`, MAX),
    put('console enable', `${node}/states/console`, MAX, { enabled: true }),
    put('console enable wrong type', `${node}/states/console`, MAX, { enabled: 'maybe' }),
    get('bios settings', `${node}/bios`, MAX),
    get('bios at 1.39 (too old)', `${node}/bios`, '1.39'),
    get('history', `${node}/history`, MAX),
    get('history at 1.77 (too old)', `${node}/history`, '1.77'),
    get('inventory missing', `${node}/inventory`, MAX),
    get('indicators', `${node}/management/indicators`, MAX),
    get('vendor passthru methods', `${node}/vendor_passthru/methods`, MAX),
    put('set boot device', `${node}/management/boot_device`, MAX, { boot_device: 'pxe', persistent: true }),
    put('set unsupported boot device', `${node}/management/boot_device`, MAX, { boot_device: 'floppy' }),
    put('set target raid config', `${node}/states/raid`, MAX, { logical_disks: [{ size_gb: 100, raid_level: '1', is_root_volume: true }] }),
    put('set invalid raid config', `${node}/states/raid`, MAX, { logical_disks: [{ raid_level: '42' }] }),
    get('node volume root', `${node}/volume`, MAX),
    get('node volume connectors', `${node}/volume/connectors`, MAX),
    get('node volume targets', `${node}/volume/targets`, MAX),
    get('shards', '/v1/shards', MAX),
    get('shards at 1.81 (too old)', '/v1/shards', '1.81'),
    get('allocations', '/v1/allocations', MAX),
    get('deploy templates', '/v1/deploy_templates', MAX),
    get('volume root', '/v1/volume', MAX),
    get('volume connectors', '/v1/volume/connectors', MAX),
    get('events GET (POST only)', '/v1/events', MAX),
    raw('OPTIONS', 'OPTIONS on nodes', '/v1/nodes', MAX, ''),
    get('lookup without args', '/v1/lookup', MAX),
  ],
};
