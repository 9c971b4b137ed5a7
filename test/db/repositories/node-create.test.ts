/**
 * The node repository's create: a node alone is one statement, a node with traits one transaction;
 * a duplicate, or a trait that cannot be stored, leaves neither the node nor its traits behind. On SQLite and MariaDB.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DuplicateError } from '../../../src/db/errors';
import * as nodeRepo from '../../../src/db/repositories/nodes';
import { traitNames } from '../../../src/db/repositories/node-traits';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from '../harness';

for (const kind of BACKENDS) {
  describe(`nodes.create on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => { if (!skip) fx = await migratedDb(kind); });
    after(async () => { if (!skip) await fx.close(); });

    const duplicate = (kind: string) => (err: unknown): boolean => err instanceof DuplicateError && err.kind === kind;
    const count = async (table: string): Promise<number> =>
      Number(((await fx.db.knex(table).count({ n: '*' }))[0] as { n: number | string }).n);

    test('a node without traits is stored and read back', { skip }, async () => {
      const node = await nodeRepo.create(fx.db, { uuid: randomUUID(), driver: 'fake-hardware', name: 'plain' });
      assert.equal(node.name, 'plain');
      assert.deepEqual(await traitNames(fx.db, node.id), []);
    });

    test('a node with traits is stored with them', { skip }, async () => {
      const node = await nodeRepo.create(fx.db, { uuid: randomUUID(), driver: 'fake-hardware', name: 'traited' },
        ['CUSTOM_A', 'CUSTOM_B']);
      assert.deepEqual((await traitNames(fx.db, node.id)).sort(), ['CUSTOM_A', 'CUSTOM_B']);
    });

    test('a duplicate name or uuid writes nothing, with or without traits', { skip }, async () => {
      const [nodes, traits] = [await count('nodes'), await count('node_traits')];
      await assert.rejects(nodeRepo.create(fx.db, { uuid: randomUUID(), driver: 'fake-hardware', name: 'traited' }, ['CUSTOM_C']),
        duplicate('DuplicateName'));
      await assert.rejects(nodeRepo.create(fx.db, { uuid: randomUUID(), driver: 'fake-hardware', name: 'plain' }), duplicate('DuplicateName'));
      const existing = (await fx.db.knex('nodes').first('uuid').where({ name: 'plain' }) as { uuid: string }).uuid;
      await assert.rejects(nodeRepo.create(fx.db, { uuid: existing, driver: 'fake-hardware' }, ['CUSTOM_D']), duplicate('NodeAlreadyExists'));
      assert.equal(await count('nodes'), nodes);
      assert.equal(await count('node_traits'), traits);
    });

    test('a trait that fails takes its node back with it', { skip }, async () => {
      const nodes = await count('nodes');
      // node_traits' key is (node_id, trait): the second copy fails after the node row went in.
      await assert.rejects(nodeRepo.create(fx.db, { uuid: randomUUID(), driver: 'fake-hardware', name: 'twice' },
        ['CUSTOM_E', 'CUSTOM_E']));
      assert.equal(await count('nodes'), nodes);
      assert.equal(await fx.db.knex('nodes').first('id').where({ name: 'twice' }), undefined);
    });
  });
}
