/**
 * The row writer behind node lists against nodeView: for awkward nodes (secrets, unicode, control
 * characters, dates with and without a fraction, traits, nulls) and several versions and field
 * sets, on SQLite and MariaDB, both must give the same bytes for every node.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JsonSink } from '../../../src/api/json-sink';
import { pyJsonDumps } from '../../../src/api/pyjson';
import { nodeView } from '../../../src/api/views/node';
import { nodeColumnsFor } from '../../../src/api/views/node-columns';
import { NodeRow, nodeRefs, nodeRowWriter } from '../../../src/api/views/node-json';
import * as nodes from '../../../src/db/repositories/nodes';
import * as traits from '../../../src/db/repositories/node-traits';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from '../../db/harness';

const BASE = 'http://ironic.example:6385';

const CASES: Array<{ version: number; fields: string[] | null }> = [
  { version: 82, fields: null },
  { version: 1, fields: null },
  { version: 38, fields: null },
  { version: 82, fields: ['uuid', 'power_state', 'target_power_state', 'provision_state', 'target_provision_state',
    'last_error', 'maintenance', 'properties', 'instance_uuid', 'traits', 'resource_class'] },
  { version: 82, fields: ['name', 'driver_info', 'instance_info', 'driver_internal_info', 'conductor', 'chassis_uuid',
    'allocation_uuid', 'provision_state', 'provision_updated_at'] },
];

async function seed(db: Fixture['db']): Promise<void> {
  await nodes.create(db, { driver: 'fake-hardware', name: 'plain' });
  const awkward = await nodes.create(db, {
    driver: 'fake-hardware', name: 'caf\u00e9-\u2603', description: 'tab\there "quoted" \\ back\u0001\u007f',
    driver_info: { ipmi_password: 'p', ipmi_address: '10.0.0.1', nested: { token: 'x' }, float: 1.5 },
    instance_info: { configdrive: 'data', image_url: 'http://x', image_source: 'glance://\u00e9' },
    driver_internal_info: { agent_secret_token: 'tok', agent_url: 'http://agent' },
    properties: { cpus: 8, memory_mb: 16384, capabilities: 'boot_mode:uefi' },
    extra: { '\u00fc': ['\ud83d\ude00'] }, maintenance: true, maintenance_reason: 'why', protected: true,
    automated_clean: false, secure_boot: true, provision_state: 'available', last_error: 'line1\nline2',
  });
  await nodes.update(db, awkward.uuid, {
    provision_updated_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
    inspection_started_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 0)),
  });
  await traits.setTraits(db, awkward.id, ['CUSTOM_B', 'CUSTOM_A', 'HW_CPU_X86_VMX']);
  await nodes.create(db, { driver: 'fake-hardware', provision_state: 'inspect wait', driver_info: {} });
  await nodes.create(db, {
    driver: 'fake-hardware', name: 'urls',
    driver_info: { redfish_address: 'https://admin:pw1@bmc', note: 'password "pw2"', kelvin: 'to\u212aen=pw3' },
    instance_info: { image_source: 'http://user:pw4@host/img', kernel: '<admin_password>pw5</admin_password>' },
    driver_internal_info: { agent_url: 'http://t:pw6@agent:9999' },
    extra: { links: ['ftp://a:pw7@c/d'], 'http://k:pw8@h': 1 }, properties: { note: 'nothing to hide' },
    description: 'see https://u:pw9@example.com/x', last_error: 'ssh://root:pw10@10.0.0.1 failed',
  });
}

/** Each node's text both ways, in list order. */
async function bothWays(db: Fixture['db'], version: number, fields: string[] | null): Promise<[string[], string[]]> {
  const opts = { base: BASE, version, fields };
  const columns = nodeColumnsFor(fields);
  const withoutRelations = fields !== null && !fields.includes('traits');
  const records = await nodes.list(db, {}, { columns, withoutRelations, storedJson: true });
  const extras = { conductor: 'host-\u00e9', allocationUuid: null, chassisUuid: 'c-1' };
  const expected = records.map((n) => pyJsonDumps(nodeView(n, opts, extras)));
  const page = await nodes.listPage(db, {}, { columns, withoutRelations });
  const write = nodeRowWriter(opts, page.columns);
  const refs = nodeRefs(page.columns, page.rows);
  const actual = page.rows.map((row: NodeRow, i) => {
    const sink = new JsonSink(16);
    const nodeTraits = page.traits ? page.traits.get(refs[i].id) ?? [] : null;
    sink.add(write(row, { extras, traits: nodeTraits }));
    return sink.bytes().toString('latin1');
  });
  return [actual, expected];
}

for (const kind of BACKENDS) {
  describe(`node rows written as JSON on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => {
      if (skip) return;
      fx = await migratedDb(kind);
      await seed(fx.db);
    });
    after(async () => { if (!skip) await fx.close(); });

    for (const { version, fields } of CASES) {
      test(`1.${version} fields=${fields ? fields.join(',') : '*'} match nodeView byte for byte`, { skip }, async () => {
        const [actual, expected] = await bothWays(fx.db, version, fields);
        assert.equal(actual.length, 4);
        assert.deepEqual(actual, expected);
        for (const text of actual) assert.doesNotThrow(() => JSON.parse(text));
      });
    }

    test('a second list of the same rows (masks memoised) gives the same bytes', { skip }, async () => {
      const [first, expected] = await bothWays(fx.db, 82, null);
      const [second] = await bothWays(fx.db, 82, null);
      assert.deepEqual(second, first);
      assert.deepEqual(second, expected);
    });

    test('secrets are masked and non-ASCII escaped in the written rows', { skip }, async () => {
      const [actual] = await bothWays(fx.db, 82, null);
      const awkward = actual[1];
      assert.match(awkward, /"ipmi_password": "\*\*\*\*\*\*"/);
      assert.match(awkward, /"configdrive": "\*\*\*\*\*\*"/);
      assert.match(awkward, /"agent_secret_token": "\*\*\*\*\*\*"/);
      assert.doesNotMatch(awkward, /"tok"|"data"/);
      assert.match(awkward, /"name": "caf\\u00e9-\\u2603"/);
      // MySQL's DATETIME (as in Ironic's schema) keeps no fraction.
      const fraction = kind === 'sqlite' ? '.678000' : '';
      assert.ok(awkward.includes(`"provision_updated_at": "2026-01-02T03:04:05${fraction}+00:00"`), awkward);
      assert.match(awkward, /"inspection_started_at": "2026-01-02T03:04:05\+00:00"/);
      assert.match(awkward, /"traits": \["CUSTOM_A", "CUSTOM_B", "HW_CPU_X86_VMX"\]/);
      assert.equal(Buffer.byteLength(awkward, 'latin1'), Buffer.byteLength(awkward, 'utf8'), 'pure ASCII');
    });

    test('URL userinfo in dict and string fields and oslo patterns are masked in the written rows', { skip }, async () => {
      const [actual] = await bothWays(fx.db, 82, null);
      const urls = actual[3];
      assert.doesNotMatch(urls, /pw\d/);
      for (const shown of ['"https://******@bmc"', '"password \\"******\\""', '"http://******@host/img"',
        '"<admin_password>******</admin_password>"', '"http://******@agent:9999"', '["ftp://******@c/d"]',
        '"http://******@h": 1', '"see https://******@example.com/x"', '"ssh://******@10.0.0.1 failed"']) {
        assert.ok(urls.includes(shown), `${shown} in ${urls}`);
      }
    });
  });
}
