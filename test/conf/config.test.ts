/**
 * ironic.conf as oslo.config reads it: several files (later wins), Ironic's option names and
 * defaults, deprecated aliases in the group oslo looks them up in, unknown options skipped with
 * one warning each, and invalid values refused with the option named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config, InvalidOptionValue } from '../../src/conf/config';

function confFile(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-conf-'));
  const file = path.join(dir, 'ironic.conf');
  fs.writeFileSync(file, text);
  return file;
}

test('defaults are Ironic\'s when a file says nothing', () => {
  const conf = new Config([confFile('[DEFAULT]\n')]);
  assert.equal(conf.str('DEFAULT', 'rpc_transport'), 'oslo');
  assert.equal(conf.int('api', 'port'), 6385);
  assert.equal(conf.int('api', 'max_limit'), 1000);
  assert.equal(conf.str('pxe', 'kernel_append_params'), 'nofb nomodeset vga=normal');
  assert.equal(conf.int('json_rpc', 'port'), 8089);
  assert.equal(conf.str('json_rpc', 'host_ip'), '::');
  assert.equal(conf.int('json_rpc', 'timeout'), 120);
});

test('later files and later lines win; dashes read as underscores', () => {
  const first = confFile('[api]\nport = 7000\nmax_limit = 50\n');
  const second = confFile('[api]\nport = 7001\nport = 7002\n[conductor]\nheartbeat-interval = 3\n');
  const conf = new Config([first, second]);
  assert.equal(conf.int('api', 'port'), 7002);
  assert.equal(conf.int('api', 'max_limit'), 50);
  assert.equal(conf.int('conductor', 'heartbeat_interval'), 3);
});

test('deprecated names are read in the group oslo.config looks them up in', () => {
  const conf = new Config([confFile([
    '[DEFAULT]', 'sql_connection = sqlite:////tmp/old.sqlite',
    '[pxe]', 'pxe_append_params = console=ttyS0',
    '[neutron]', 'cleaning_network_uuid = 2f8e1f3c-0000-4000-8000-000000000001',
    '[keystone_authtoken]', 'memcache_servers = mc1:11211',
  ].join('\n'))]);
  assert.deepEqual(conf.warnings, []);
  assert.equal(conf.str('database', 'connection'), 'sqlite:////tmp/old.sqlite');
  assert.equal(conf.str('pxe', 'kernel_append_params'), 'console=ttyS0');
  assert.equal(conf.str('neutron', 'cleaning_network'), '2f8e1f3c-0000-4000-8000-000000000001');
  assert.deepEqual(conf.list('keystone_authtoken', 'memcached_servers'), ['mc1:11211']);
});

test('an alias outside its group is not one: [DEFAULT]pxe_append_params is unknown', () => {
  const conf = new Config([confFile('[DEFAULT]\npxe_append_params = x\n')]);
  assert.equal(conf.str('pxe', 'kernel_append_params'), 'nofb nomodeset vga=normal');
  assert.equal(conf.warnings.length, 1);
  assert.match(conf.warnings[0], /^Ignoring unknown option \[DEFAULT\]pxe_append_params \(.*ironic\.conf:2\)$/);
});

test('unknown options and groups are skipped with one warning line each', () => {
  const conf = new Config([confFile('[DEFAULT]\nfrobnicate = 1\n[no_such_group]\na = 1\nb = 2\n[api]\nport = 6400\n')]);
  assert.equal(conf.int('api', 'port'), 6400);
  assert.deepEqual(conf.warnings.map((w) => w.replace(/ \(.*\)$/, '')), [
    'Ignoring unknown option [DEFAULT]frobnicate',
    'Ignoring unknown option [no_such_group]a',
    'Ignoring unknown option [no_such_group]b',
  ]);
});

test('an invalid value is refused with the option named', () => {
  const cases: Array<[string, RegExp]> = [
    ['[api]\nport = 70000\n', /^Invalid value for option \[api\]port: /],
    ['[DEFAULT]\nrpc_transport = carrier-pigeon\n', /^Invalid value for option \[DEFAULT\]rpc_transport: /],
    ['[conductor]\nautomated_clean = maybe\n', /^Invalid value for option \[conductor\]automated_clean: /],
    ['[json_rpc]\nport = -1\n', /^Invalid value for option \[json_rpc\]port: /],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => new Config([confFile(text)]), (err: unknown) => {
      assert.ok(err instanceof InvalidOptionValue);
      assert.match((err as Error).message, message);
      return true;
    });
  }
});

test('$option references interpolate as oslo.config does', () => {
  const conf = new Config([confFile('[DEFAULT]\nstate_path = /srv/ironic\n[pxe]\ntftp_root = $state_path/tftp\n')]);
  assert.equal(conf.str('pxe', 'tftp_root'), '/srv/ironic/tftp');
});

test('options and groups named after prototype members are unknown options, not Object members', () => {
  const conf = new Config([confFile('[DEFAULT]\nconstructor = x\ntoString = y\n__proto__ = z\n[__proto__]\npolluted = 1\n' +
    '[constructor]\nprototype = 2\n[api]\nport = 6401\n')]);
  assert.equal(conf.int('api', 'port'), 6401);
  assert.deepEqual(conf.warnings.map((w) => w.replace(/ \(.*\)$/, '')), [
    'Ignoring unknown option [DEFAULT]constructor',
    'Ignoring unknown option [DEFAULT]toString',
    'Ignoring unknown option [DEFAULT]__proto__',
    'Ignoring unknown option [__proto__]polluted',
    'Ignoring unknown option [constructor]prototype',
  ]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('options a group may lack read as null, integers as numbers', () => {
  const conf = new Config([confFile('[keystone_authtoken]\ntoken_cache_time = 60\nauth_url = http://ks\n')]);
  assert.equal(conf.intIfKnown('keystone_authtoken', 'token_cache_time'), 60);
  assert.equal(conf.intIfKnown('json_rpc', 'token_cache_time'), null);
  assert.equal(conf.optStrIfKnown('keystone_authtoken', 'auth_url'), 'http://ks');
  assert.equal(conf.optStrIfKnown('json_rpc', 'no_such_option'), null);
  assert.equal(new Config([confFile('[DEFAULT]\n')]).intIfKnown('keystone_authtoken', 'token_cache_time'), 300);
});
