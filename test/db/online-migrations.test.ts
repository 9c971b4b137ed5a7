/**
 * `ironic-dbsync online_data_migrations` (update_to_latest_versions): rows stamped with an older
 * object version are brought to Ironic 21.4.4's, at most --max-count at a time, with Ironic's
 * messages and exit codes; on SQLite and MariaDB.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { objectVersionsCompatible, updateToLatestVersions } from '../../src/db/online-migrations';
import * as nodes from '../../src/db/repositories/nodes';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from './harness';

const DBSYNC = path.resolve(__dirname, '..', '..', 'src', 'cmd', 'ironic-dbsync.js');

/** Rows an older Ironic left: three nodes at object version 1.30 and two ports at 1.9 on the first. */
async function seedOldRows(fx: Fixture): Promise<void> {
  const made: Array<{ id: number }> = [];
  for (const name of ['old-a', 'old-b', 'old-c', 'current']) made.push(await nodes.create(fx.db, { driver: 'fake-hardware', name }));
  await fx.db.knex('nodes').whereIn('name', ['old-a', 'old-b', 'old-c']).update({ version: '1.30' });
  for (const mac of ['52:54:00:00:00:01', '52:54:00:00:00:02']) {
    await fx.db.knex('ports').insert({ uuid: randomUUID(), address: mac, node_id: made[0].id, version: '1.9', extra: '{}' });
  }
}

async function versions(fx: Fixture): Promise<string[]> {
  const rows = await fx.db.knex('nodes').select('name', 'version').orderBy('name') as Array<{ name: string; version: string | null }>;
  return rows.map((r) => `${r.name}:${r.version}`);
}

for (const kind of BACKENDS) {
  describe(`update_to_latest_versions on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => {
      if (skip) return;
      fx = await migratedDb(kind);
      await seedOldRows(fx);
    });
    after(async () => { if (!skip) await fx.close(); });

    test('migrates at most max_count rows, table by table (ports before nodes), then the rest', { skip }, async () => {
      assert.equal(await objectVersionsCompatible(fx.db), true);
      assert.deepEqual(await updateToLatestVersions(fx.db, 3), { total: 5, migrated: 3 });
      assert.deepEqual(await versions(fx), ['current:1.37', 'old-a:1.37', 'old-b:1.30', 'old-c:1.30']);
      const ports = await fx.db.knex('ports').select('version') as Array<{ version: string }>;
      assert.deepEqual(ports.map((p) => p.version), ['1.11', '1.11']);
      assert.deepEqual(await updateToLatestVersions(fx.db, 0), { total: 2, migrated: 2 });
      assert.deepEqual(await versions(fx), ['current:1.37', 'old-a:1.37', 'old-b:1.37', 'old-c:1.37']);
      assert.deepEqual(await updateToLatestVersions(fx.db, 0), { total: 0, migrated: 0 });
    });

    test('a row with no version, or one no supported release knows, makes the database incompatible', { skip }, async () => {
      await fx.db.knex('nodes').where({ name: 'old-c' }).update({ version: '1.20' });
      assert.equal(await objectVersionsCompatible(fx.db), false);
      await fx.db.knex('nodes').where({ name: 'old-c' }).update({ version: null });
      assert.equal(await objectVersionsCompatible(fx.db), false);
      await fx.db.knex('nodes').where({ name: 'old-c' }).update({ version: '1.37' });
      assert.equal(await objectVersionsCompatible(fx.db), true);
    });
  });
}

describe('ironic-dbsync online_data_migrations', () => {
  let fx: Fixture;
  let conf: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dbsync-odm-'));
  before(async () => {
    fx = await migratedDb('sqlite');
    await seedOldRows(fx);
    conf = path.join(dir, 'ironic.conf');
    fs.writeFileSync(conf, `[DEFAULT]\nauth_strategy = noauth\n[database]\nconnection = ${fx.scratch.url}\n`);
  });
  after(async () => {
    await fx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const dbsync = (...args: string[]) => spawnSync(process.execPath, [DBSYNC, '--config-file', conf, 'online_data_migrations', ...args], { encoding: 'utf8' });

  test('refuses a max-count below 1 and malformed options with 127', () => {
    let run = dbsync('--max-count', '0');
    assert.equal(run.status, 127);
    assert.equal(run.stderr.trim(), '"max-count" must be a positive value.');
    run = dbsync('--option', 'nodot');
    assert.equal(run.status, 127);
    assert.equal(run.stdout.trim(), 'Malformed option nodot');
  });

  test('exits 1 while rows remain after --max-count, 0 once done', async () => {
    let run = dbsync('--max-count', '1');
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, 'update_to_latest_versions() migrated 1 of 5 objects.\nData migrations have not completed. Please re-run.\n');
    run = dbsync();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'Running batches of 50 until migrations have been completed.\n' +
      'update_to_latest_versions() migrated 4 of 4 objects.\nData migrations have completed.\n');
    assert.deepEqual(await versions(fx), ['current:1.37', 'old-a:1.37', 'old-b:1.37', 'old-c:1.37']);
  });

  test('refuses an incompatible database with exit code 2 and Ironic\'s message', async () => {
    await fx.db.knex('nodes').where({ name: 'old-a' }).update({ version: '1.5' });
    const run = dbsync();
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^The database is not compatible with this release of ironic \(21\.4\.4\)\. Please run "ironic-dbsync online_data_migrations" using the previous release\.\n$/);
  });
});
