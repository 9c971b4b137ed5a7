import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ConcurrentUpdateError, DuplicateError, InvalidSortKeyError, NodeLockedError, NodeNotLockedError, NotFoundError }
  from '../../src/db/errors';
import { openDatabase } from '../../src/db/connection';
import * as nodes from '../../src/db/repositories/nodes';
import * as traits from '../../src/db/repositories/node-traits';
import * as tags from '../../src/db/repositories/node-tags';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from './harness';

const isKind = (kind: string) => (err: unknown) => (err as { kind?: string }).kind === kind;

for (const kind of BACKENDS) {
  describe(`nodes repository on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => { if (!skip) fx = await migratedDb(kind); });
    after(async () => { if (!skip) await fx.close(); });

    test('create applies Ironic defaults and round-trips every kind of column', { skip }, async () => {
      const n = await nodes.create(fx.db, {
        name: 'node-a', driver: 'fake-hardware', driver_info: { ipmi_address: '10.0.0.1', port: 623 },
        properties: { cpus: 4, memory_mb: 1024.5 }, extra: { 'caf\u00e9': ['\u2603'] }, secure_boot: true,
      });
      assert.match(n.uuid, /^[0-9a-f-]{36}$/);
      assert.equal(n.provision_state, 'enroll');
      assert.equal(n.power_state, null);
      assert.equal(n.maintenance, false);
      assert.equal(n.protected, false);
      assert.equal(n.conductor_group, '');
      assert.equal(n.secure_boot, true);
      assert.deepEqual(n.driver_info, { ipmi_address: '10.0.0.1', port: 623 });
      assert.deepEqual(n.extra, { 'caf\u00e9': ['\u2603'] });
      assert.ok(n.created_at instanceof Date && Math.abs(n.created_at.getTime() - Date.now()) < 60000);
      assert.equal(n.updated_at, null);
      assert.deepEqual(n.traits, []);
      const raw = await fx.db.knex('nodes').where({ id: n.id }).first('driver_info', 'extra', 'clean_step');
      assert.equal(raw.driver_info, '{"ipmi_address": "10.0.0.1", "port": 623}', 'stored as Python json.dumps');
      assert.equal(raw.extra, '{"caf\\u00e9": ["\\u2603"]}');
      assert.equal(raw.clean_step, '{}', 'JSON columns not given are stored as Ironic stores them');
      for (const ident of [n.id, n.uuid, 'node-a']) assert.equal((await nodes.get(fx.db, ident)).id, n.id);
      await assert.rejects(nodes.get(fx.db, 'nope'), (e: unknown) => e instanceof NotFoundError && e.kind === 'NodeNotFound');
    });

    test('duplicate uuid, name and instance_uuid become typed errors', { skip }, async () => {
      const uuid = randomUUID();
      const instance = randomUUID();
      await nodes.create(fx.db, { uuid, name: 'dup', instance_uuid: instance });
      await assert.rejects(nodes.create(fx.db, { uuid }), isKind('NodeAlreadyExists'));
      await assert.rejects(nodes.create(fx.db, { name: 'dup' }), isKind('DuplicateName'));
      await assert.rejects(nodes.create(fx.db, { instance_uuid: instance }), isKind('InstanceAssociated'));
      const other = await nodes.create(fx.db, {});
      await assert.rejects(nodes.update(fx.db, other.id, { name: 'dup' }),
        (e: unknown) => e instanceof DuplicateError && e.kind === 'DuplicateName');
    });

    test('update stamps updated_at, applies provision side effects, and honours expectations', { skip }, async () => {
      const n = await nodes.create(fx.db, { provision_state: 'manageable' });
      const inspecting = await nodes.update(fx.db, n.uuid, { provision_state: 'inspecting' });
      assert.ok(inspecting.updated_at && inspecting.provision_updated_at && inspecting.inspection_started_at);
      const done = await nodes.update(fx.db, n.uuid, { provision_state: 'manageable' });
      assert.equal(done.inspection_started_at, null);
      assert.ok(done.inspection_finished_at);
      await assert.rejects(nodes.update(fx.db, n.id, { maintenance: true }, { reservation: 'someone' }), ConcurrentUpdateError);
      assert.equal((await nodes.get(fx.db, n.id)).maintenance, false, 'nothing written on a failed expectation');
      const ok = await nodes.update(fx.db, n.id, { maintenance: true }, { updated_at: done.updated_at });
      assert.equal(ok.maintenance, true);
      await assert.rejects(nodes.update(fx.db, n.id, { uuid: randomUUID() }), isKind('InvalidParameterValue'));
    });

    test('list filters', { skip }, async () => {
      const tag = randomUUID().slice(0, 8);
      const mk = (v: nodes.NodeValues) => nodes.create(fx.db, { driver: `drv-${tag}`, ...v });
      const a = await mk({ owner: 'p1', maintenance: true, provision_state: 'available', shard: 's1',
        description: `has 50% off ${tag}`, resource_class: 'gold', conductor_group: 'g1' });
      const b = await mk({ lessee: 'p1', instance_uuid: randomUUID(), provision_state: 'active', shard: 's2',
        fault: 'power failure', instance_name: 'vm-1' });
      const c = await mk({ owner: 'p2', retired: true, parent_node: a.uuid, reservation: 'cond-1' });
      const ids = async (f: nodes.NodeFilters) =>
        (await nodes.list(fx.db, { driver: `drv-${tag}`, ...f })).map((n) => n.id);
      assert.deepEqual(await ids({}), [a.id, b.id, c.id]);
      assert.deepEqual(await ids({ project: 'p1' }), [a.id, b.id]);
      assert.deepEqual(await ids({ owner: 'p1' }), [a.id]);
      assert.deepEqual(await ids({ maintenance: true }), [a.id]);
      assert.deepEqual(await ids({ maintenance: false }), [b.id, c.id]);
      assert.deepEqual(await ids({ retired: true }), [c.id]);
      assert.deepEqual(await ids({ associated: true }), [b.id]);
      assert.deepEqual(await ids({ provision_state_in: ['available', 'active'] }), [a.id, b.id]);
      assert.deepEqual(await ids({ shard_in: ['s2'] }), [b.id]);
      assert.deepEqual(await ids({ sharded: false }), [c.id]);
      assert.deepEqual(await ids({ description_contains: '50% off' }), [a.id]);
      assert.deepEqual(await ids({ description_contains: '5_%' }), [], 'wildcards are literal');
      assert.deepEqual(await ids({ fault: 'power failure' }), [b.id]);
      assert.deepEqual(await ids({ resource_class: 'gold', conductor_group: 'g1' }), [a.id]);
      assert.deepEqual(await ids({ parent_node: a.uuid }), [c.id]);
      assert.deepEqual(await ids({ include_children: false }), [a.id, b.id]);
      assert.deepEqual(await ids({ instance_name: 'vm-1' }), [b.id]);
      assert.deepEqual(await ids({ reserved_by_any_of: ['cond-1', 'cond-2'] }), [c.id]);
      assert.deepEqual(await ids({ reserved: false }), [a.id, b.id]);
      assert.deepEqual(await ids({ uuid_in: [a.uuid, c.uuid] }), [a.id, c.id]);
      assert.equal(await nodes.count(fx.db, { driver: `drv-${tag}`, project: 'p1' }), 2);
    });

    test('pagination: marker continues after the row in sort order, ties broken by id', { skip }, async () => {
      const tag = `page-${randomUUID().slice(0, 8)}`;
      const classes = ['b', 'a', 'b', null, 'a', 'c'];
      const made = [];
      for (const rc of classes) made.push(await nodes.create(fx.db, { driver: tag, resource_class: rc }));
      const walk = async (sortKey: string | undefined, sortDir: 'asc' | 'desc', limit: number) => {
        const seen: number[] = [];
        let marker: string | undefined;
        for (;;) {
          const page = await nodes.list(fx.db, { driver: tag }, { limit, marker, sortKey, sortDir });
          seen.push(...page.map((n) => n.id));
          if (page.length < limit) return seen;
          marker = page[page.length - 1].uuid;
        }
      };
      const all = (await nodes.list(fx.db, { driver: tag }, { sortKey: 'resource_class' })).map((n) => n.id);
      const [b1, a1, b2, nul, a2, c1] = made.map((n) => n.id);
      assert.deepEqual(all, [nul, a1, a2, b1, b2, c1], 'NULL sorts first ascending, ties by id');
      assert.deepEqual(await walk(undefined, 'asc', 2), made.map((n) => n.id));
      assert.deepEqual(await walk(undefined, 'desc', 4), made.map((n) => n.id).reverse());
      // oslo.db semantics: with a NULL-valued marker the key drops out of the criteria.
      assert.deepEqual(await walk('resource_class', 'asc', 2), [nul, a1, a2, b1, b2, c1]);
      // ...and descending, NULL rows (sorted last) are unreachable through a non-NULL marker, as in Ironic.
      assert.deepEqual(await walk('resource_class', 'desc', 2), [c1, b2, b1, a2, a1]);
      assert.deepEqual((await nodes.list(fx.db, { driver: tag }, { limit: 1, marker: made[5].uuid })), []);
      await assert.rejects(nodes.list(fx.db, {}, { marker: randomUUID() }), isKind('NodeNotFound'));
      await assert.rejects(nodes.list(fx.db, {}, { sortKey: 'driver_info' }), InvalidSortKeyError);
    });

    test('reserve is atomic between racing callers; release checks the holder', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      const results = await Promise.allSettled(
        ['host-1', 'host-2', 'host-3', 'host-4'].map((h) => nodes.reserve(fx.db, n.uuid, h)));
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof NodeLockedError);
      const holder = (await nodes.get(fx.db, n.id)).reservation as string;
      await assert.rejects(nodes.release(fx.db, n.id, 'intruder'), NodeLockedError);
      await nodes.release(fx.db, n.id, holder);
      await assert.rejects(nodes.release(fx.db, n.id, holder), NodeNotLockedError);
      const m = await nodes.create(fx.db, {});
      await nodes.reserve(fx.db, n.id, 'dying-host');
      await nodes.reserve(fx.db, m.id, 'dying-host');
      assert.equal(await nodes.releaseAllFor(fx.db, 'dying-host'), 2);
      assert.equal((await nodes.get(fx.db, m.id)).reservation, null);
    });

    test('reserve through two separate connections (two conductors) has one winner', { skip }, async () => {
      const other = await openDatabase(fx.scratch.url);
      try {
        for (let round = 0; round < 5; round++) {
          const n = await nodes.create(fx.db, {});
          const results = await Promise.allSettled([
            nodes.reserve(fx.db, n.uuid, 'conductor-a'), nodes.reserve(other, n.uuid, 'conductor-b')]);
          assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}`);
          const holder = (await nodes.get(other, n.id)).reservation;
          assert.ok(holder === 'conductor-a' || holder === 'conductor-b');
        }
      } finally {
        await other.close();
      }
    });

    test('traits and tags', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      await traits.setTraits(fx.db, n.id, ['CUSTOM_B', 'CUSTOM_A'], '1.0');
      await traits.addTrait(fx.db, n.id, 'CUSTOM_C', '1.0');
      await traits.addTrait(fx.db, n.id, 'CUSTOM_C', '1.0');
      assert.deepEqual((await traits.listTraits(fx.db, n.id)).map((t) => t.trait), ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C']);
      await traits.removeTrait(fx.db, n.id, 'CUSTOM_B');
      await assert.rejects(traits.removeTrait(fx.db, n.id, 'CUSTOM_B'), isKind('NodeTraitNotFound'));
      const many = Array.from({ length: 51 }, (_, i) => `CUSTOM_${i}`);
      await assert.rejects(traits.setTraits(fx.db, n.id, many), isKind('InvalidParameterValue'));
      assert.equal((await traits.listTraits(fx.db, n.id)).length, 2, 'rejected set leaves the old traits');
      await tags.setTags(fx.db, n.id, ['x', 'y']);
      await tags.addTag(fx.db, n.id, 'z');
      assert.equal(await tags.tagExists(fx.db, n.id, 'y'), true);
      const got = await nodes.get(fx.db, n.id);
      assert.deepEqual(got.traits.map((t) => t.trait), ['CUSTOM_A', 'CUSTOM_C']);
      assert.deepEqual(got.tags.map((t) => t.tag), ['x', 'y', 'z']);
      await assert.rejects(traits.setTraits(fx.db, 999999, ['X']), isKind('NodeNotFound'));
    });

    test('listing many nodes loads relations without per-node queries', { skip }, async () => {
      const driver = `bulk-${randomUUID().slice(0, 8)}`;
      const rows = Array.from({ length: 1500 }, () => ({ uuid: randomUUID(), driver, conductor_group: '', protected: 0 }));
      await fx.db.knex.batchInsert('nodes', rows, 500);
      const first = (await nodes.list(fx.db, { driver }, { limit: 1 }))[0];
      await traits.setTraits(fx.db, first.id, ['CUSTOM_BULK']);
      let queries = 0;
      const count = () => { queries++; };
      fx.db.knex.on('query', count);
      try {
        const listed = await nodes.list(fx.db, { driver });
        assert.equal(listed.length, 1500);
        assert.deepEqual(listed[0].traits.map((t) => t.trait), ['CUSTOM_BULK']);
      } finally {
        fx.db.knex.removeListener('query', count);
      }
      assert.ok(queries <= 6, `${queries} queries`);
    });
  });
}
