/**
 * Re-creates seeded objects the fuzzer deleted, from the same bodies, so real identifiers keep
 * resolving through a long run. Best effort: a re-creation the fuzzer's changes make impossible
 * (a name taken, a node gone) is simply skipped; the answers are checked like any other.
 */
import type { FuzzFixtures } from './fixtures';
import type { FuzzRequest, FuzzResponse } from './http';

const HEADERS: Array<[string, string]> = [['X-OpenStack-Ironic-API-Version', '1.82'], ['Content-Type', 'application/json']];

export async function replenish(fx: FuzzFixtures, exchange: (req: FuzzRequest) => Promise<FuzzResponse | null>): Promise<void> {
  for (const seed of fx.seeds) {
    const route = `replenish ${seed.collection}`;
    const shown = await exchange({ route, method: 'GET', url: `${seed.collection}/${seed.uuid}`, headers: HEADERS, body: null });
    if (shown?.status !== 404) continue;
    await exchange({ route, method: 'POST', url: seed.collection, headers: HEADERS, body: Buffer.from(JSON.stringify(seed.body)) });
  }
}
