/**
 * Schema-compatibility scenario shared by the per-dialect test files: a database created and
 * filled by real Python Ironic 21.4.4 is adopted by `upgrade` without losing a row, ends with the
 * same schema as one we create, and stays readable by Python Ironic (rollback).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLES, TableName } from '../../src/db/columns';
import { openDatabase } from '../../src/db/connection';
import { pythonJsonDumps } from '../../src/common/python/json-dumps';
import * as nodes from '../../src/db/repositories/nodes';
import * as ports from '../../src/db/repositories/ports';
import { upgrade, version } from '../../src/db/sync';
import { BackendKind, ScratchDb, withScratchDb } from './harness';
import { ironicRows } from './ironic-python';
import { inspectSchema, SchemaInfo } from './schema-inspect';

const NODE_UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

type RawRows = Map<string, Array<Record<string, unknown>>>;

async function snapshot(url: string): Promise<RawRows> {
  const db = await openDatabase(url);
  try {
    const out: RawRows = new Map();
    for (const table of Object.keys(TABLES)) {
      if (!(await db.knex.schema.hasTable(table))) continue;
      const rows = await db.knex(table).select('*') as Array<Record<string, unknown>>;
      rows.sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
      out.set(table, rows);
    }
    return out;
  } finally {
    await db.close();
  }
}

function pick(row: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}

function assertRowsKept(before: RawRows, after: RawRows): void {
  let total = 0;
  for (const [table, rows] of before) {
    const later = after.get(table) ?? [];
    assert.equal(later.length, rows.length, `${table} row count`);
    rows.forEach((row, i) => {
      const keys = Object.keys(row);
      assert.deepEqual(pick(later[i], keys), row, `${table} row ${i} unchanged`);
    });
    total += rows.length;
  }
  assert.ok(total >= 12, `Python Ironic wrote rows (${total})`);
}

/** Every JSON text Python Ironic stored is byte-identical to what our encoder writes. */
function assertJsonBytesMatch(rows: RawRows): void {
  for (const [table, list] of rows) {
    const spec: Readonly<Record<string, string>> = TABLES[table as TableName];
    for (const row of list) {
      for (const [col, kind] of Object.entries(spec)) {
        if ((kind !== 'dict' && kind !== 'list') || row[col] === null || row[col] === undefined) continue;
        const text = String(row[col]);
        assert.equal(pythonJsonDumps(JSON.parse(text)), text, `${table}.${col}`);
      }
    }
  }
}

function assertSameSchema(ours: SchemaInfo, theirs: SchemaInfo): void {
  assert.deepEqual([...theirs.columns.keys()].sort(), [...ours.columns.keys()].sort(), 'tables');
  for (const [table, cols] of theirs.columns) {
    const mine = ours.columns.get(table);
    assert.ok(mine, table);
    for (const [name, col] of cols) assert.deepEqual(mine.get(name), col, `${table}.${name}`);
    assert.deepEqual([...mine.keys()].sort(), [...cols.keys()].sort(), `${table} columns`);
    assert.deepEqual([...(ours.indexes.get(table) ?? [])].sort(), [...(theirs.indexes.get(table) ?? [])].sort(),
      `${table} indexes`);
  }
}

/**
 * Python Ironic creates and fills a database; `upgrade` adopts it without changing a row; Python
 * Ironic still reads it; and its schema equals the one we create from scratch.
 */
export async function adoptionScenario(kind: BackendKind): Promise<void> {
  await withScratchDb(kind, (theirs) => withScratchDb(kind, (ours) => withTempDir((dir) =>
    adoptionSteps(kind, dir, theirs, ours))));
}

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'ironicts-compat-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function adoptionSteps(kind: BackendKind, dir: string, theirs: ScratchDb, ours: ScratchDb): Promise<void> {
  await ironicRows(dir, theirs.url, kind === 'sqlite' ? 'create_schema' : 'upgrade', 'write');
  const before = await snapshot(theirs.url);
  assertJsonBytesMatch(before);

  const adopted = await openDatabase(theirs.url);
  try {
    assert.deepEqual(await upgrade(adopted), ['0002_ironic_later_additions.js', '0003_mysql_utf8mb4.js']);
    assert.equal((await version(adopted)).alembic, '4dbec778866e');
    const node = await nodes.get(adopted, NODE_UUID);
    assert.deepEqual(node.driver_info, { ipmi_address: '10.0.0.1', 'caf\u00e9': 1.5 });
    assert.deepEqual(node.traits.map((t) => t.trait), ['CUSTOM_A', 'CUSTOM_B']);
    assert.equal(node.maintenance, true);
    assert.equal(node.disable_power_off, false);
    assert.ok(node.created_at instanceof Date);
    const portRows = await ports.list(adopted, { node_id: node.id });
    assert.deepEqual(portRows.map((p) => [p.address, p.pxe_enabled, p.available_for_dynamic_portgroup]),
      [['52:54:00:aa:bb:01', true, true], ['52:54:00:aa:bb:02', false, true]]);
    // A write of ours must stay readable by Python Ironic.
    await nodes.update(adopted, NODE_UUID, { extra: { written_by: 'ironic-ts', n: [1, 2.5] } });
  } finally {
    await adopted.close();
  }
  const after = await snapshot(theirs.url);
  const nodesBefore = before.get('nodes') ?? [];
  before.set('nodes', nodesBefore.map((r) => r.uuid === NODE_UUID ? { ...r, extra: '{"written_by": "ironic-ts", "n": [1, 2.5]}', updated_at: (after.get('nodes') ?? []).find((x) => x.uuid === NODE_UUID)?.updated_at } : r));
  assertRowsKept(before, after);

  const readBack = JSON.parse(await ironicRows(dir, theirs.url, 'read')) as Record<string, unknown>;
  assert.deepEqual((readBack.node as Record<string, unknown>).traits, ['CUSTOM_A', 'CUSTOM_B']);
  assert.equal((readBack.nodes as string[]).length, 2);
  assert.deepEqual(readBack.templates, ['CUSTOM_TPL']);

  // A database we create has the same schema, and Python Ironic can work on it too.
  const fresh = await openDatabase(ours.url);
  try {
    await upgrade(fresh);
    const reopened = await openDatabase(theirs.url);
    try {
      assertSameSchema(await inspectSchema(fresh), await inspectSchema(reopened));
    } finally {
      await reopened.close();
    }
  } finally {
    await fresh.close();
  }
}

/** Python Ironic 21.4.4 writes and reads a database created by us (the rollback path). */
export async function ironicOnOurDatabaseScenario(kind: BackendKind): Promise<void> {
  await withScratchDb(kind, (ours) => withTempDir((dir) => ironicOnOursSteps(dir, ours)));
}

async function ironicOnOursSteps(dir: string, ours: ScratchDb): Promise<void> {
  const db = await openDatabase(ours.url);
  try {
    await upgrade(db);
  } finally {
    await db.close();
  }
  const onOurs = JSON.parse(await ironicRows(dir, ours.url, 'write', 'read')) as Record<string, unknown>;
  assert.deepEqual((onOurs.node as Record<string, unknown>).traits, ['CUSTOM_A', 'CUSTOM_B']);
  assert.deepEqual(onOurs.ports, [['52:54:00:aa:bb:01', true, { switch_id: '0a:1b:2c:3d:4e:5f', port_id: 'Gi0/1' }],
    ['52:54:00:aa:bb:02', false, {}]]);
  const mine = await openDatabase(ours.url);
  try {
    const node = await nodes.get(mine, NODE_UUID);
    assert.deepEqual(node.extra, { nested: { list: [1, 'two', null, true] } });
    assert.deepEqual(node.tags.map((t) => t.tag), ['tag1']);
  } finally {
    await mine.close();
  }
}
