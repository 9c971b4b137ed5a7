import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  buildConfigDrive,
  buildConfigDriveIso,
  classifyConfigDrive,
  decodeConfigDrive,
  encodeConfigDrive,
  fetchConfigDrive,
  getConfigDriveImage,
  populateDirectory,
  withNodeDefaults,
  type ConfigDriveDict,
} from '../../src/images/configdrive';

const run = promisify(execFile);
const NODE = { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', name: 'node-1' };
const DICT: ConfigDriveDict = {
  meta_data: { hostname: 'box', public_keys: { k: 'ssh-ed25519 AAAA test' } },
  network_data: { links: [{ id: 'eth0', type: 'phy', ethernet_mac_address: 'aa:bb:cc:dd:ee:ff' }], networks: [], services: [] },
  user_data: '#cloud-config\nhostname: box ✓\n',
  vendor_data: { 'static': { answer: 42 } },
};
let dir: string;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'configdrive-test-'));
});
after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function isoFile(text: string, name: string): Promise<string> {
  const p = path.join(dir, name);
  await fsp.writeFile(p, decodeConfigDrive(text));
  return p;
}

test('dict -> gzip+base64 ISO labelled config-2 with the openstack tree', async () => {
  const encoded = await buildConfigDrive(DICT, NODE);
  const iso = await isoFile(encoded, 'cd.iso');
  const info = await run('isoinfo', ['-d', '-i', iso]);
  assert.match(info.stdout, /^Volume id: config-2$/m);
  const listing = (await run('isoinfo', ['-J', '-f', '-i', iso])).stdout.trim().split('\n').sort();
  for (const v of ['2012-08-10', 'latest']) {
    for (const f of ['meta_data.json', 'network_data.json', 'user_data', 'vendor_data2.json']) assert.ok(listing.includes(`/openstack/${v}/${f}`), `${v}/${f} in ${listing}`);
  }
  const xl = await run('xorriso', ['-indev', iso, '-ls', '/openstack/latest/'], { encoding: 'utf8' });
  assert.match(xl.stdout, /meta_data\.json/);
  const meta = JSON.parse((await run('isoinfo', ['-J', '-i', iso, '-x', '/openstack/latest/meta_data.json'])).stdout);
  assert.deepEqual(meta, { ...DICT.meta_data, uuid: NODE.uuid, name: NODE.name });
  const net = JSON.parse((await run('isoinfo', ['-J', '-i', iso, '-x', '/openstack/latest/network_data.json'])).stdout);
  assert.deepEqual(net, DICT.network_data);
  const out = path.join(dir, 'extract');
  await run('xorriso', ['-osirrox', 'on', '-indev', iso, '-extract', '/openstack', out]);
  assert.equal(await fsp.readFile(path.join(out, 'latest', 'user_data'), 'utf8'), DICT.user_data);
  assert.deepEqual(JSON.parse(await fsp.readFile(path.join(out, '2012-08-10', 'vendor_data2.json'), 'utf8')), DICT.vendor_data);
});

test('files match openstacksdk populate_directory byte for byte', async () => {
  const ours = path.join(dir, 'ours');
  const dict = withNodeDefaults(DICT, NODE);
  await populateDirectory(ours, dict);
  const theirs = path.join(dir, 'theirs');
  const py = `
import json, shutil, sys
from openstack.baremetal import configdrive
d = json.loads(sys.argv[1])
with configdrive.populate_directory(d['meta_data'], d['user_data'].encode(), None, d['network_data'], d['vendor_data']) as p:
    shutil.copytree(p, sys.argv[2])
`;
  await run('/usr/bin/python3', ['-c', py, JSON.stringify(dict), theirs], { env: { ...process.env, HOME: dir } });
  for (const v of ['2012-08-10', 'latest']) {
    for (const f of ['meta_data.json', 'network_data.json', 'user_data', 'vendor_data2.json']) {
      assert.deepEqual(await fsp.readFile(path.join(ours, 'openstack', v, f)), await fsp.readFile(path.join(theirs, 'openstack', v, f)), `${v}/${f}`);
    }
  }
});

test('JSON user_data is serialised; empty parts are omitted; explicit uuid kept', async () => {
  const tree = path.join(dir, 'tree2');
  await populateDirectory(tree, withNodeDefaults({ meta_data: { uuid: 'given' }, user_data: { ignition: { version: '3.0.0' } }, network_data: {} }, { uuid: 'x' }));
  assert.deepEqual((await fsp.readdir(path.join(tree, 'openstack', 'latest'))).sort(), ['meta_data.json', 'user_data']);
  assert.equal(await fsp.readFile(path.join(tree, 'openstack', 'latest', 'user_data'), 'utf8'), '{"ignition": {"version": "3.0.0"}}');
  assert.equal(await fsp.readFile(path.join(tree, 'openstack', 'latest', 'meta_data.json'), 'utf8'), '{"uuid": "given"}');
});

test('gzip+base64 round-trips byte for byte', async () => {
  const iso = await buildConfigDriveIso(withNodeDefaults(DICT, NODE));
  const encoded = encodeConfigDrive(iso);
  assert.deepEqual(decodeConfigDrive(encoded), iso);
  // Output readable by standard tools too.
  assert.deepEqual(zlib.gunzipSync(Buffer.from(encoded, 'base64')), iso);
  // A non-gzip base64 ISO is accepted as-is.
  assert.deepEqual(decodeConfigDrive(iso.toString('base64')), iso);
});

test('64 MiB limit: decompression bombs and oversized builds are refused', async () => {
  const bomb = zlib.gzipSync(Buffer.alloc(65 * 1024 * 1024)).toString('base64');
  assert.throws(() => decodeConfigDrive(bomb), { name: 'ConfigDriveTooLargeError' });
  const big = { meta_data: {}, user_data: 'x'.repeat(400_000) };
  await assert.rejects(buildConfigDriveIso(big, { maxSize: 300_000 }), { name: 'ConfigDriveTooLargeError' });
});

test('the three accepted forms are told apart', async () => {
  assert.deepEqual(classifyConfigDrive('https://example.invalid/cd'), { kind: 'url', url: 'https://example.invalid/cd' });
  assert.equal(classifyConfigDrive('H4sIAAAA').kind, 'encoded');
  assert.equal(classifyConfigDrive({ meta_data: {} }).kind, 'dict');
  assert.throws(() => classifyConfigDrive({ bogus: 1 } as unknown as ConfigDriveDict), { name: 'ConfigDriveError' });
  assert.equal(await getConfigDriveImage('http://h/x', NODE), 'http://h/x');
  const built = await getConfigDriveImage({ meta_data: {} }, NODE);
  assert.ok(decodeConfigDrive(built).length > 0);
});

test('URL form is fetched and decoded', async () => {
  const iso = await buildConfigDriveIso(withNodeDefaults({}, NODE));
  const body = encodeConfigDrive(iso);
  const server = http.createServer((req, res) => {
    if (req.url === '/cd') res.end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    assert.deepEqual(await fetchConfigDrive(`http://127.0.0.1:${port}/cd`), iso);
    await assert.rejects(fetchConfigDrive(`http://127.0.0.1:${port}/missing`), { name: 'ConfigDriveError' });
  } finally {
    server.close();
  }
});
