// Root and /v1 documents, unknown paths and wrong methods.
import type { CaseGroup } from '../types';
import { del, get, MAX, post, put, raw } from './build';

export const discovery: CaseGroup = {
  group: 'discovery',
  cases: [
    get('root without version header', '/'),
    get('root asking latest', '/', 'latest', { maxVersionNormalized: true }),
    get('root asking 1.83 (root ignores the version)', '/', '1.83'),
    get('root asking 1.97 (root ignores the version)', '/', '1.97'),
    get('root asking garbage version', '/', 'garbage'),
    get('v1 without trailing slash', '/v1'),
    get('v1 with trailing slash', '/v1/'),
    get('v1 at 1.31', '/v1', '1.31'),
    get('v1 at max', '/v1', MAX),
    get('v1 at latest', '/v1', 'latest', { maxVersionNormalized: true }),
    get('v1 at 1.1 explicit', '/v1/', '1.1'),
    get('unknown top-level path', '/foo'),
    get('unknown v1 resource', '/v1/foo', MAX),
    get('v2 does not exist', '/v2', MAX),
    get('nodes collection with trailing slash', '/v1/nodes/', MAX),
    put('PUT on root', '/', undefined, {}),
    post('POST on /v1', '/v1', MAX, {}),
    put('PUT on nodes collection', '/v1/nodes', MAX, {}),
    del('DELETE on nodes collection', '/v1/nodes', MAX),
    put('PUT on ports collection', '/v1/ports', MAX, {}),
    put('PUT on chassis collection', '/v1/chassis', MAX, {}),
    del('DELETE on drivers', '/v1/drivers', MAX),
    post('POST on conductors', '/v1/conductors', MAX, {}),
    raw('PATCH', 'PATCH on /v1', '/v1', MAX, '[]'),
  ],
};
