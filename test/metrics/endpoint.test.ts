/**
 * Who may read the Prometheus endpoint: users of an htpasswd file (bcrypt) under http_basic; noauth
 * on a public address refused unless allowed; off unless enabled.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../src/conf/config';
import { openDatabase, type Database } from '../../src/db/connection';
import { upgrade } from '../../src/db/sync';
import { startMetricsEndpoint } from '../../src/metrics/endpoint';

let dir: string;
let db: Database;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-endpoint-'));
  db = await openDatabase(`sqlite:///${dir}/ironic.sqlite`);
  await upgrade(db);
});

after(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('off unless [prometheus]enabled', async () => {
  assert.equal(await startMetricsEndpoint(new Config([], {}), db, 'test'), null);
});

test('http_basic: 401 without or with wrong credentials, the metrics with a user of the file', async () => {
  const users = path.join(dir, 'htpasswd');
  execFileSync('htpasswd', ['-c', '-B', '-b', users, 'scraper', 'scrape-pw'], { stdio: 'ignore' });
  const endpoint = await startMetricsEndpoint(new Config([], {
    prometheus: { enabled: true, port: 0, auth_strategy: 'http_basic', http_basic_auth_user_file: users },
  }), db, 'test');
  assert.ok(endpoint);
  try {
    const url = `http://127.0.0.1:${endpoint.port}/metrics`;
    const anonymous = await fetch(url);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic /);
    const wrong = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from('scraper:nope').toString('base64')}` } });
    assert.equal(wrong.status, 401);
    const right = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from('scraper:scrape-pw').toString('base64')}` } });
    assert.equal(right.status, 200);
    assert.match(await right.text(), /^# HELP ironic_nodes_in_maintenance /m);
  } finally {
    await endpoint.close();
  }
});

test('noauth on a public address is refused unless allow_insecure_noauth', async () => {
  await assert.rejects(startMetricsEndpoint(new Config([], { prometheus: { enabled: true, host: '0.0.0.0', port: 0 } }), db, 'test'),
    /Refusing to start test metrics endpoint with auth_strategy = noauth on 0\.0\.0\.0.*\[prometheus\]allow_insecure_noauth/);
  const allowed = await startMetricsEndpoint(new Config([], {
    prometheus: { enabled: true, host: '0.0.0.0', port: 0, allow_insecure_noauth: true },
  }), db, 'test');
  assert.ok(allowed);
  await allowed.close();
});
