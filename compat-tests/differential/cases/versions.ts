// Microversion negotiation through both version headers.
import type { CaseGroup } from '../types';
import { get, MAX } from './build';

const nodes = '/v1/nodes';
const osHeader = (value: string): Record<string, string> => ({ 'OpenStack-API-Version': value });

export const versions: CaseGroup = {
  group: 'versions',
  cases: [
    get('no header means 1.1', nodes),
    get('1.1', nodes, '1.1'),
    get('1.5', nodes, '1.5'),
    get('1.31', nodes, '1.31'),
    get('max', nodes, MAX),
    get('latest', nodes, 'latest', { maxVersionNormalized: true }),
    get('LATEST upper case', nodes, 'LATEST', { maxVersionNormalized: true }),
    get("1.83 (above 21.4.4's max)", nodes, '1.83'),
    get('1.97 above max', nodes, '1.97'),
    get('1.0 below min', nodes, '1.0'),
    get('2.1 wrong major', nodes, '2.1'),
    get('0.9 wrong major', nodes, '0.9'),
    get('garbage', nodes, 'garbage'),
    get('trailing dot', nodes, '1.'),
    get('leading zero minor', nodes, '1.05'),
    get('three components', nodes, '1.5.1'),
    get('empty value', nodes, ''),
    get('OpenStack-API-Version baremetal 1.50', nodes, undefined, { headers: osHeader('baremetal 1.50') }),
    get('OpenStack-API-Version baremetal latest', nodes, undefined, { headers: osHeader('baremetal latest'), maxVersionNormalized: true }),
    get('OpenStack-API-Version other service only', nodes, undefined, { headers: osHeader('compute 2.1') }),
    get('OpenStack-API-Version baremetal 1.83', nodes, undefined, { headers: osHeader('baremetal 1.83') }),
    get('OpenStack-API-Version baremetal 1.97', nodes, undefined, { headers: osHeader('baremetal 1.97') }),
    get('OpenStack-API-Version baremetal garbage', nodes, undefined, { headers: osHeader('baremetal garbage') }),
    get('both headers, different versions', nodes, '1.5', { headers: osHeader('baremetal 1.60') }),
    get('both headers, same version', nodes, '1.60', { headers: osHeader('baremetal 1.60') }),
    get('version on /v1 document 1.83', '/v1', '1.83'),
    get('version on /v1 document 1.97', '/v1', '1.97'),
    get('version on /v1 document garbage', '/v1', 'garbage'),
  ],
};
