import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knexConfigFor, parseDatabaseUrl } from '../../src/db/url';
import { UnsupportedDatabaseError } from '../../src/db/errors';

test('sqlite URLs: memory, relative, absolute', () => {
  assert.deepEqual(parseDatabaseUrl('sqlite://'), { dialect: 'sqlite', filename: ':memory:' });
  assert.deepEqual(parseDatabaseUrl('sqlite:///:memory:'), { dialect: 'sqlite', filename: ':memory:' });
  assert.deepEqual(parseDatabaseUrl('sqlite:///ironic.sqlite'), { dialect: 'sqlite', filename: 'ironic.sqlite' });
  assert.deepEqual(parseDatabaseUrl('sqlite:////var/lib/ironic/ironic.sqlite'),
    { dialect: 'sqlite', filename: '/var/lib/ironic/ironic.sqlite' });
});

test('mysql URLs with drivers, ports, encoded passwords, charset and unix_socket', () => {
  assert.deepEqual(parseDatabaseUrl('mysql+pymysql://ironic:p%40ss%3Aw%2Frd@db.example:3307/ironic?charset=utf8'), {
    dialect: 'mysql', host: 'db.example', port: 3307, user: 'ironic', password: 'p@ss:w/rd', database: 'ironic',
    charset: 'utf8',
  });
  const plain = parseDatabaseUrl('mysql://root@127.0.0.1/ironic');
  assert.equal(plain.dialect, 'mysql');
  if (plain.dialect === 'mysql') {
    assert.equal(plain.port, 3306);
    assert.equal(plain.password, '');
    assert.equal(plain.charset, 'utf8mb4');
  }
  const sock = parseDatabaseUrl('mysql+mysqldb://ironic:x@/ironic?unix_socket=/run/mysqld/mysqld.sock');
  assert.equal(sock.dialect === 'mysql' && sock.socketPath, '/run/mysqld/mysqld.sock');
  const cfg = knexConfigFor(sock);
  assert.equal(cfg.client, 'mysql2');
  assert.equal((cfg.connection as { socketPath?: string }).socketPath, '/run/mysqld/mysqld.sock');
  assert.equal(knexConfigFor(parseDatabaseUrl('sqlite://')).client, 'better-sqlite3');
});

test('unsupported dialects and malformed URLs name [database]connection', () => {
  for (const bad of ['postgresql://u@h/db', 'not a url', 'mysql://root@localhost/', 'sqlite://host/file']) {
    assert.throws(() => parseDatabaseUrl(bad), (err: unknown) =>
      err instanceof UnsupportedDatabaseError && err.option === '[database]connection' &&
      err.message.includes('[database]connection'));
  }
});
