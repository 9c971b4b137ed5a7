// Drivers and conductors: read-only discovery of what the conductor offers.
import type { CaseGroup } from '../types';
import { get, MAX } from './build';

const drivers = '/v1/drivers';

export const driversGroup: CaseGroup = {
  group: 'drivers',
  cases: [
    get('list at 1.1', drivers),
    get('list at 1.30', drivers, '1.30'),
    get('list at max', drivers, MAX),
    get('list type=dynamic', `${drivers}?type=dynamic`, MAX),
    get('list type=classic', `${drivers}?type=classic`, MAX),
    get('list type=bogus', `${drivers}?type=bogus`, MAX),
    get('list type at 1.29 (too old)', `${drivers}?type=dynamic`, '1.29'),
    get('list detail=True', `${drivers}?detail=True`, MAX),
    get('list detail=True at 1.29', `${drivers}?detail=True`, '1.29'),
    get('list detail=False', `${drivers}?detail=False`, MAX),
    get('list detail=garbage', `${drivers}?detail=garbage`, MAX),
    get('list fields', `${drivers}?fields=name`, MAX),
    get('show at 1.1', `${drivers}/fake-hardware`),
    get('show at 1.30', `${drivers}/fake-hardware`, '1.30'),
    get('show at max', `${drivers}/fake-hardware`, MAX),
    get('show with fields', `${drivers}/fake-hardware?fields=name,hosts`, MAX),
    get('properties', `${drivers}/fake-hardware/properties`, MAX),
    get('properties at 1.1', `${drivers}/fake-hardware/properties`),
    get('properties of unknown driver', `${drivers}/nope/properties`, MAX),
    get('raid logical disk properties', `${drivers}/fake-hardware/raid/logical_disk_properties`, MAX),
    get('vendor_passthru methods', `${drivers}/fake-hardware/vendor_passthru/methods`, MAX),
  ],
};

export const conductorsGroup: CaseGroup = {
  group: 'conductors',
  cases: [
    get('list at 1.48 (too old)', '/v1/conductors', '1.48'),
    get('list', '/v1/conductors', MAX, { capture: { CONDUCTOR: 'conductors.0.hostname' } }),
    get('list detail', '/v1/conductors?detail=True', MAX),
    get('list detail path', '/v1/conductors/detail', MAX),
    get('list fields', '/v1/conductors?fields=hostname,alive', MAX),
    get('list limit=1', '/v1/conductors?limit=1', MAX),
    get('show', '/v1/conductors/{CONDUCTOR}', MAX),
    get('show at 1.48 (too old)', '/v1/conductors/{CONDUCTOR}', '1.48'),
    get('show with fields', '/v1/conductors/{CONDUCTOR}?fields=hostname,drivers', MAX),
    get('show unknown', '/v1/conductors/nope', MAX),
  ],
};
