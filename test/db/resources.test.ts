import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { NotEmptyError, NotFoundError } from '../../src/db/errors';
import * as nodes from '../../src/db/repositories/nodes';
import * as ports from '../../src/db/repositories/ports';
import * as portgroups from '../../src/db/repositories/portgroups';
import * as chassis from '../../src/db/repositories/chassis';
import * as connectors from '../../src/db/repositories/volume-connectors';
import * as targets from '../../src/db/repositories/volume-targets';
import * as allocations from '../../src/db/repositories/allocations';
import * as templates from '../../src/db/repositories/deploy-templates';
import * as conductors from '../../src/db/repositories/conductors';
import * as history from '../../src/db/repositories/node-history';
import * as bios from '../../src/db/repositories/bios';
import * as inventory from '../../src/db/repositories/inventory';
import * as firmware from '../../src/db/repositories/firmware';
import * as traits from '../../src/db/repositories/node-traits';
import * as tags from '../../src/db/repositories/node-tags';
import * as runbooks from '../../src/db/repositories/runbooks';
import * as rules from '../../src/db/repositories/inspection-rules';
import { idsByUuid, uuidsById } from '../../src/db/repositories/ref-uuids';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from './harness';

const isKind = (kind: string) => (err: unknown) => (err as { kind?: string }).kind === kind;
let macCounter = 0;
const mac = () => `52:54:00:00:${String(Math.floor(macCounter / 256) % 100).padStart(2, '0')}:${(macCounter++ % 256).toString(16).padStart(2, '0')}`;

for (const kind of BACKENDS) {
  describe(`repositories on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => { if (!skip) fx = await migratedDb(kind); });
    after(async () => { if (!skip) await fx.close(); });

    test('chassis CRUD; destroy refuses while nodes reference it', { skip }, async () => {
      const c = await chassis.create(fx.db, { description: 'rack 1', extra: { row: 3 } });
      assert.deepEqual((await chassis.get(fx.db, c.uuid)).extra, { row: 3 });
      await assert.rejects(chassis.create(fx.db, { uuid: c.uuid }), isKind('ChassisAlreadyExists'));
      const n = await nodes.create(fx.db, { chassis_id: c.id });
      await assert.rejects(chassis.destroy(fx.db, c.uuid), (e: unknown) => e instanceof NotEmptyError && e.kind === 'ChassisNotEmpty');
      assert.equal((await chassis.update(fx.db, c.id, { description: 'rack 2' })).description, 'rack 2');
      await nodes.destroy(fx.db, n.id);
      await chassis.destroy(fx.db, c.uuid);
      await assert.rejects(chassis.get(fx.db, c.uuid), isKind('ChassisNotFound'));
    });

    test('ports and portgroups: duplicates, filters through the node, portgroup emptiness', { skip }, async () => {
      const shard = `shard-${randomUUID().slice(0, 6)}`;
      const n = await nodes.create(fx.db, { owner: 'proj-x', shard, conductor_group: 'cg-x' });
      const other = await nodes.create(fx.db, {});
      const pg = await portgroups.create(fx.db, { node_id: n.id, name: `pg-${n.id}`, address: mac() });
      await assert.rejects(portgroups.create(fx.db, { address: pg.address }), isKind('PortgroupMACAlreadyExists'));
      await assert.rejects(portgroups.create(fx.db, { name: pg.name }), isKind('PortgroupDuplicateName'));
      const p1 = await ports.create(fx.db, { node_id: n.id, address: mac(), portgroup_id: pg.id,
        local_link_connection: { switch_id: 'aa:bb', port_id: 'Gi0/1' } });
      const p2 = await ports.create(fx.db, { node_id: other.id, address: mac(), name: `port-${other.id}` });
      assert.equal(p1.pxe_enabled, true);
      assert.equal(p1.available_for_dynamic_portgroup, true);
      await assert.rejects(ports.create(fx.db, { address: p1.address }), isKind('MACAlreadyExists'));
      await assert.rejects(ports.create(fx.db, { name: p2.name }), isKind('PortDuplicateName'));
      await assert.rejects(ports.create(fx.db, { uuid: p1.uuid }), isKind('PortAlreadyExists'));
      assert.deepEqual((await ports.list(fx.db, { node_id: n.id })).map((p) => p.id), [p1.id]);
      assert.deepEqual((await ports.list(fx.db, { shard_in: [shard] })).map((p) => p.id), [p1.id]);
      assert.deepEqual((await ports.list(fx.db, { project: 'proj-x' })).map((p) => p.id), [p1.id]);
      assert.deepEqual((await ports.list(fx.db, { conductor_group: 'cg-x' })).map((p) => p.id), [p1.id]);
      assert.equal((await ports.getByAddress(fx.db, p2.address as string))?.id, p2.id);
      const listed = await ports.list(fx.db, {}, { sortKey: 'address' });
      const nodeUuids = await uuidsById(fx.db, 'nodes', listed.map((p) => p.node_id));
      assert.equal(nodeUuids.get(n.id), n.uuid);
      assert.equal(nodeUuids.get(other.id), other.uuid);
      assert.deepEqual([...(await idsByUuid(fx.db, 'portgroups', [pg.uuid, 'missing']))], [[pg.uuid, pg.id]]);
      assert.equal((await ports.get(fx.db, p2.name as string)).id, p2.id);
      await assert.rejects(portgroups.destroy(fx.db, pg.uuid), isKind('PortgroupNotEmpty'));
      await ports.update(fx.db, p1.uuid, { portgroup_id: null });
      await portgroups.destroy(fx.db, pg.uuid);
      await ports.destroy(fx.db, p2.uuid);
      await assert.rejects(ports.destroy(fx.db, p2.uuid), isKind('PortNotFound'));
    });

    test('volume connectors and targets', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      const c = await connectors.create(fx.db, { node_id: n.id, type: 'iqn', connector_id: `iqn.${n.id}` });
      await assert.rejects(connectors.create(fx.db, { node_id: n.id, type: 'iqn', connector_id: `iqn.${n.id}` }),
        isKind('VolumeConnectorTypeAndIdAlreadyExists'));
      const t = await targets.create(fx.db, { node_id: n.id, volume_type: 'iscsi', boot_index: 0, volume_id: 'v1',
        properties: { lun: 1 } });
      await assert.rejects(targets.create(fx.db, { node_id: n.id, boot_index: 0, volume_id: 'v2' }),
        isKind('VolumeTargetBootIndexAlreadyExists'));
      assert.deepEqual((await targets.list(fx.db, { node_id: n.id })).map((x) => x.uuid), [t.uuid]);
      assert.deepEqual((await connectors.list(fx.db, { node_id: n.id })).map((x) => x.uuid), [c.uuid]);
    });

    test('allocations link and unlink nodes transactionally', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      const a = await allocations.create(fx.db, { name: `alloc-${n.id}`, state: 'allocating', traits: ['CUSTOM_X'],
        candidate_nodes: [] });
      assert.deepEqual(a.traits, ['CUSTOM_X']);
      await assert.rejects(allocations.create(fx.db, { name: a.name, state: 'allocating' }), isKind('AllocationDuplicateName'));
      await allocations.update(fx.db, a.uuid, { node_id: n.id, state: 'active' });
      const linked = await nodes.get(fx.db, n.id);
      assert.equal(linked.allocation_id, a.id);
      assert.equal(linked.instance_uuid, a.uuid);
      const b = await allocations.create(fx.db, { state: 'allocating' });
      await assert.rejects(allocations.update(fx.db, b.id, { node_id: n.id, state: 'active' }), isKind('NodeAssociated'));
      assert.equal((await allocations.get(fx.db, b.id)).state, 'allocating', 'nothing written');
      assert.deepEqual((await allocations.list(fx.db, { node_id: n.id })).map((x) => x.id), [a.id]);
      await allocations.destroy(fx.db, a.id);
      const unlinked = await nodes.get(fx.db, n.id);
      assert.equal(unlinked.allocation_id, null);
      assert.equal(unlinked.instance_uuid, null);
    });

    test('deploy templates with steps; failed writes leave nothing behind', { skip }, async () => {
      const name = `CUSTOM_TPL_${randomUUID().slice(0, 6).toUpperCase()}`;
      const steps = [{ interface: 'bios', step: 'apply_configuration', args: { settings: [] }, priority: 10 }];
      const t = await templates.create(fx.db, { name, steps, extra: {} });
      assert.equal(t.steps.length, 1);
      assert.deepEqual(t.steps[0].args, { settings: [] });
      await assert.rejects(templates.create(fx.db, { name, steps }), isKind('DeployTemplateDuplicateName'));
      const updated = await templates.update(fx.db, t.uuid, { steps: [...steps, { ...steps[0], step: 'x', priority: 5 }] });
      assert.deepEqual(updated.steps.map((s) => s.step), ['apply_configuration', 'x']);
      const other = `CUSTOM_TPL_${randomUUID().slice(0, 6).toUpperCase()}`;
      const badStep = { interface: 'deploy', step: 'y', args: {}, priority: null as unknown as number };
      await assert.rejects(templates.create(fx.db, { name: other, steps: [...steps, badStep] }));
      assert.equal(await fx.db.knex('deploy_templates').where({ name: other }).first(), undefined, 'template rolled back');
      assert.deepEqual((await templates.getByNames(fx.db, [name])).map((x) => x.id), [t.id]);
      await templates.destroy(fx.db, name);
      assert.equal((await fx.db.knex('deploy_template_steps').where({ deploy_template_id: t.id })).length, 0);
    });

    test('conductors: register, heartbeat, liveness, hardware interfaces', { skip }, async () => {
      const host = `cond-${randomUUID().slice(0, 6)}`;
      const c = await conductors.register(fx.db, { hostname: host, drivers: [], conductor_group: 'g' });
      assert.equal(c.online, true);
      await assert.rejects(conductors.register(fx.db, { hostname: host }), isKind('ConductorAlreadyRegistered'));
      await conductors.register(fx.db, { hostname: host, conductor_group: 'g' }, true);
      await conductors.touch(fx.db, host);
      assert.ok((await conductors.listAlive(fx.db, 60)).some((x) => x.hostname === host));
      await fx.db.knex('conductors').where({ hostname: host }).update({ updated_at: '2000-01-01 00:00:00' });
      // Where conductors heartbeat a silent one is dead; on SQLite (no heartbeats, as 29.0.5) it is alive until offline.
      const heartbeats = kind !== 'sqlite';
      assert.equal((await conductors.listAlive(fx.db, 60)).some((x) => x.hostname === host), !heartbeats);
      assert.equal((await conductors.listOffline(fx.db, 60)).some((x) => x.hostname === host), heartbeats);
      await conductors.touch(fx.db, host, false);
      assert.ok(!(await conductors.listAlive(fx.db, 60)).some((x) => x.hostname === host));
      assert.ok((await conductors.listOffline(fx.db, 60)).some((x) => x.hostname === host));
      await conductors.touch(fx.db, host);
      await conductors.registerHardwareInterfaces(fx.db, c.id, [
        { hardware_type: 'fake-hardware', interface_type: 'power', interface_name: 'fake', default: true },
        { hardware_type: 'fake-hardware', interface_type: 'boot', interface_name: 'fake', default: true }]);
      await assert.rejects(conductors.registerHardwareInterfaces(fx.db, c.id, [
        { hardware_type: 'h', interface_type: 'power', interface_name: 'a', default: true },
        { hardware_type: 'h', interface_type: 'power', interface_name: 'a', default: false }]),
      isKind('ConductorHardwareInterfacesAlreadyRegistered'));
      assert.equal((await conductors.listHardwareInterfaces(fx.db, [c.id])).length, 2, 'failed replace rolled back');
      const active = await conductors.activeHardwareTypes(fx.db, 60);
      assert.ok(active.get('fake-hardware')?.has(host));
      await conductors.unregister(fx.db, host);
      await assert.rejects(conductors.get(fx.db, host), isKind('ConductorNotFound'));
    });

    test('history, bios, inventory, firmware', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      for (let i = 0; i < 3; i++) await history.create(fx.db, { node_id: n.id, event: `e${i}`, severity: 'ERROR', user: 'u' });
      assert.deepEqual((await history.list(fx.db, { node_id: n.id })).map((h) => h.event), ['e0', 'e1', 'e2']);
      assert.equal(await history.prune(fx.db, n.id, 1), 2);
      assert.deepEqual((await history.list(fx.db, { node_id: n.id })).map((h) => h.event), ['e2']);

      await bios.create(fx.db, n.id, [{ name: 'A', value: '1', allowable_values: ['1', '2'], read_only: false },
        { name: 'B', value: 'x', upper_bound: 4294967296 }]);
      await assert.rejects(bios.create(fx.db, n.id, [{ name: 'C' }, { name: 'A' }]), isKind('BIOSSettingAlreadyExists'));
      assert.deepEqual((await bios.list(fx.db, n.id)).map((s) => s.name), ['A', 'B'], 'batch rolled back');
      assert.equal((await bios.get(fx.db, n.id, 'B')).upper_bound, 4294967296);
      await bios.update(fx.db, n.id, [{ name: 'A', value: '2' }]);
      assert.equal((await bios.get(fx.db, n.id, 'A')).value, '2');
      await assert.rejects(bios.update(fx.db, n.id, [{ name: 'A', value: '3' }, { name: 'Z' }]), isKind('BIOSSettingListNotFound'));
      assert.equal((await bios.get(fx.db, n.id, 'A')).value, '2');
      await assert.rejects(bios.destroy(fx.db, n.id, ['A', 'Z']), isKind('BIOSSettingListNotFound'));
      await bios.destroy(fx.db, n.id, ['A']);

      await inventory.create(fx.db, n.id, { cpu: { count: 4 } }, { macs: [] });
      assert.deepEqual((await inventory.getByNodeId(fx.db, n.id)).inventory_data, { cpu: { count: 4 } });
      await firmware.create(fx.db, n.id, { component: 'bios', initial_version: '1.0' });
      await assert.rejects(firmware.create(fx.db, n.id, { component: 'bios', initial_version: '1.0' }),
        isKind('FirmwareComponentAlreadyExists'));
      assert.equal((await firmware.update(fx.db, n.id, 'bios', { current_version: '1.1' })).current_version, '1.1');
    });

    test('runbooks and inspection rules (newer Ironic tables)', { skip }, async () => {
      const name = `CUSTOM_RB_${randomUUID().slice(0, 6).toUpperCase()}`;
      const rb = await runbooks.create(fx.db, { name, owner: 'p1', traits: [name],
        steps: [{ interface: 'bios', step: 'apply_configuration', args: { settings: [] }, order: 1 }] });
      assert.equal(rb.public, false);
      assert.deepEqual(rb.traits.map((t) => t.trait), [name]);
      await assert.rejects(runbooks.create(fx.db, { name }), isKind('RunbookDuplicateName'));
      const upd = await runbooks.update(fx.db, name, { public: true, steps: [] });
      assert.equal(upd.public, true);
      assert.deepEqual(upd.steps, []);
      assert.ok((await runbooks.list(fx.db, { project: 'other' })).some((r) => r.id === rb.id), 'public is visible');
      await runbooks.destroy(fx.db, rb.uuid);
      const rule = await rules.create(fx.db, { actions: [{ op: 'set-attribute', args: ['/x', 1] }], priority: 5 });
      assert.equal(rule.phase, 'main');
      assert.equal(rule.sensitive, false);
      assert.deepEqual(rule.conditions, null);
      assert.deepEqual((await rules.list(fx.db, { phase: 'main' })).map((r) => r.uuid), [rule.uuid]);
    });

    test('destroying a node removes everything hanging off it in one go', { skip }, async () => {
      const n = await nodes.create(fx.db, {});
      const keep = await nodes.create(fx.db, {});
      const pg = await portgroups.create(fx.db, { node_id: n.id, address: mac() });
      await ports.create(fx.db, { node_id: n.id, address: mac(), portgroup_id: pg.id });
      const kept = await ports.create(fx.db, { node_id: keep.id, address: mac() });
      await traits.setTraits(fx.db, n.id, ['CUSTOM_GONE']);
      await tags.setTags(fx.db, n.id, ['gone']);
      await bios.create(fx.db, n.id, [{ name: 'X', value: '1' }]);
      await history.create(fx.db, { node_id: n.id, event: 'x' });
      await inventory.create(fx.db, n.id, {});
      await connectors.create(fx.db, { node_id: n.id, type: 'ip', connector_id: `10.0.0.${n.id % 250}` });
      await targets.create(fx.db, { node_id: n.id, boot_index: 0, volume_id: 'v' });
      await firmware.create(fx.db, n.id, { component: 'bmc', initial_version: '1' });
      const a = await allocations.create(fx.db, { state: 'active' });
      await allocations.update(fx.db, a.id, { node_id: n.id });
      await nodes.destroy(fx.db, n.uuid);
      for (const table of ['ports', 'portgroups', 'node_traits', 'node_tags', 'bios_settings', 'node_history',
        'node_inventory', 'volume_connectors', 'volume_targets', 'firmware_information', 'allocations']) {
        assert.equal((await fx.db.knex(table).where({ node_id: n.id })).length, 0, table);
      }
      assert.equal((await ports.get(fx.db, kept.uuid)).node_id, keep.id);
      await assert.rejects(nodes.get(fx.db, n.id), (e: unknown) => e instanceof NotFoundError);
      await assert.rejects(nodes.destroy(fx.db, n.uuid), isKind('NodeNotFound'));
    });
  });
}
