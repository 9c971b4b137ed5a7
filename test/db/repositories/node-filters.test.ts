/**
 * The node list filters the registry declares (node-fields.ts `filters`) are each applied by the
 * repository: a value no node has finds nothing, and the matching node is found.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { NODE_LIST_FILTERS } from '../../../src/db/node-field-lists';
import * as nodeRepo from '../../../src/db/repositories/nodes';
import type { NodeFilters } from '../../../src/db/repositories/nodes';
import { Fixture, migratedDb } from '../harness';

let fx: Fixture;
before(async () => { fx = await migratedDb('sqlite'); });
after(async () => { await fx.close(); });

const INSTANCE = randomUUID();
/** A node with every filtered column set, and values that find it. */
const MATCHING: Readonly<Record<string, unknown>> = {
  instance_uuid: INSTANCE, associated: true, provision_state: 'active', driver: 'fake-hardware', resource_class: 'gold',
  conductor_group: 'rack1', maintenance: true, fault: 'power failure', description_contains: '50%', owner: 'o',
  lessee: 'l', retired: true, shard_in: ['s1', 's2'], sharded: true,
};
/** Values that find no node. */
const MISSING: Readonly<Record<string, unknown>> = {
  instance_uuid: randomUUID(), associated: false, provision_state: 'enroll', driver: 'ipmi', resource_class: 'tin',
  conductor_group: 'rack2', maintenance: false, fault: 'clean failure', description_contains: '60%', owner: 'x',
  lessee: 'x', retired: false, shard_in: ['s3'], sharded: false,
};

test('every column filter of the registry filters, as declared', async () => {
  await nodeRepo.create(fx.db, {
    uuid: randomUUID(), instance_uuid: INSTANCE, provision_state: 'active', driver: 'fake-hardware', resource_class: 'gold',
    conductor_group: 'rack1', maintenance: true, fault: 'power failure', description: 'at 50% load', owner: 'o', lessee: 'l',
    retired: true, shard: 's1',
  });
  const columnFilters = NODE_LIST_FILTERS.filter((f) => !f.computed);
  assert.deepEqual(columnFilters.map((f) => f.key).sort(), Object.keys(MATCHING).sort());
  for (const f of columnFilters) {
    const found = await nodeRepo.list(fx.db, { [f.key]: MATCHING[f.key] } as NodeFilters);
    assert.equal(found.length, 1, `${f.arg} finds the node`);
    const none = await nodeRepo.list(fx.db, { [f.key]: MISSING[f.key] } as NodeFilters);
    assert.equal(none.length, 0, `${f.arg} with another value finds nothing`);
  }
});
