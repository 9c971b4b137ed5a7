import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ImageCache } from '../../src/images/cache';
import { detectImageFormat } from '../../src/images/convert';

const run = promisify(execFile);
let dir: string;
let server: http.Server;
let base: string;
const hits = new Map<string, number>();
const files = new Map<string, Buffer>();

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const sha512 = (b: Buffer) => crypto.createHash('sha512').update(b).digest('hex');

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'image-cache-'));
  for (const name of ['a.img', 'b.img', 'c.img', 'd.img']) files.set(name, crypto.randomBytes(100_000));
  files.set('big.img', crypto.randomBytes(2_000_000));
  // Served slowly in chunks so concurrent requests really overlap.
  server = http.createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    hits.set(name, (hits.get(name) ?? 0) + 1);
    if (name === 'SHA256SUMS') {
      res.end([...files].map(([n, b]) => `${sha256(b)}  ${n}`).join('\n') + '\n');
      return;
    }
    const body = files.get(name);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length });
    let off = 0;
    const step = () => {
      if (off >= body.length) return void res.end();
      res.write(body.subarray(off, off + 65536));
      off += 65536;
      setTimeout(step, 5);
    };
    step();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await fsp.rm(dir, { recursive: true, force: true });
});

async function freshDir(name: string): Promise<string> {
  const d = path.join(dir, name);
  await fsp.mkdir(d, { recursive: true });
  return d;
}

test('ten concurrent requests share one download; progress reported; md5 verified', async () => {
  const cache = new ImageCache({ master_dir: await freshDir('m1') });
  const body = files.get('big.img')!;
  const progress: number[] = [];
  const leases = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      cache.acquire({ image_source: `${base}/big.img`, image_checksum: md5(body), ...(i === 0 ? { onProgress: (p) => progress.push(p.bytes) } : {}) }),
    ),
  );
  assert.equal(hits.get('big.img'), 1);
  assert.equal(new Set(leases.map((l) => l.path)).size, 1);
  assert.deepEqual(await fsp.readFile(leases[0]!.path), body);
  assert.equal(progress.at(-1), body.length);
  leases.forEach((l) => l.release());
  // A later request is a cache hit.
  const again = await cache.acquire({ image_source: `${base}/big.img`, image_checksum: md5(body) });
  again.release();
  assert.equal(hits.get('big.img'), 1);
});

test('checksum mismatch: typed error, nothing left in the cache', async () => {
  const master = await freshDir('m2');
  const cache = new ImageCache({ master_dir: master });
  await assert.rejects(cache.acquire({ image_source: `${base}/a.img`, image_os_hash_algo: 'sha256', image_os_hash_value: '0'.repeat(64) }), {
    name: 'ChecksumMismatchError',
  });
  assert.deepEqual(await fsp.readdir(master), []);
  // The same image with the right checksum then works.
  const ok = await cache.acquire({ image_source: `${base}/a.img`, image_os_hash_algo: 'sha512', image_os_hash_value: sha512(files.get('a.img')!) });
  ok.release();
  assert.equal((await fsp.readdir(master)).length, 1);
});

test('checksum from a checksum-file URL and file:// sources', async () => {
  const cache = new ImageCache({ master_dir: await freshDir('m3') });
  const l = await cache.acquire({ image_source: `${base}/b.img`, image_checksum: `${base}/SHA256SUMS` });
  assert.deepEqual(await fsp.readFile(l.path), files.get('b.img'));
  l.release();
  const local = path.join(dir, 'local.img');
  await fsp.writeFile(local, files.get('c.img')!);
  const f = await cache.acquire({ image_source: pathToFileURL(local).href, image_checksum: sha256(files.get('c.img')!) });
  assert.deepEqual(await fsp.readFile(f.path), files.get('c.img'));
  f.release();
  await assert.rejects(cache.acquire({ image_source: `${base}/nope.img` }), { name: 'ImageDownloadError' });
});

test('resolver callback handles non-URL sources (e.g. Glance ids)', async () => {
  const cache = new ImageCache({
    master_dir: await freshDir('m4'),
    resolver: async (id) => ({ url: `${base}/${id}.img`, image_checksum: md5(files.get(`${id}.img`)!) }),
  });
  const l = await cache.acquire({ image_source: 'd' });
  assert.deepEqual(await fsp.readFile(l.path), files.get('d.img'));
  l.release();
  await assert.rejects(new ImageCache({ master_dir: await freshDir('m4b') }).acquire({ image_source: 'glance-id' }), { name: 'ImageCacheError' });
});

test('LRU eviction respects the limit and skips leased and hard-linked entries', async () => {
  const master = await freshDir('m5');
  const cache = new ImageCache({ master_dir: master, max_bytes: 250_000 });
  const a = await cache.acquire({ image_source: `${base}/a.img` }); // stays leased
  const b = await cache.acquire({ image_source: `${base}/b.img` });
  b.release();
  const nodeCopy = path.join(dir, 'node1', 'disk');
  await cache.fetchTo({ image_source: `${base}/c.img` }, nodeCopy); // hard-linked: in use
  assert.equal((await fsp.stat(nodeCopy)).nlink, 2);
  const d = await cache.acquire({ image_source: `${base}/d.img` });
  d.release();
  // 4 x 100 kB > 250 kB: b is the only evictable oldest entry.
  const keys = new Set(await cache.keys());
  assert.ok(!keys.has(cache.keyFor({ image_source: `${base}/b.img` })), 'b evicted');
  assert.ok(keys.has(cache.keyFor({ image_source: `${base}/a.img` })), 'leased a kept');
  assert.ok(keys.has(cache.keyFor({ image_source: `${base}/c.img` })), 'linked c kept');
  a.release();
  await fsp.rm(nodeCopy);
  await cache.enforceSizeLimit();
  let total = 0;
  for (const f of await fsp.readdir(master)) total += (await fsp.stat(path.join(master, f))).size;
  assert.ok(total <= 250_000, `total ${total}`);
  assert.ok((await cache.keys()).includes(cache.keyFor({ image_source: `${base}/d.img` })), 'most recent kept');
});

test('qcow2 is converted to raw when asked', async () => {
  const raw = Buffer.alloc(1024 * 1024);
  crypto.randomBytes(4096).copy(raw, 8192);
  const rawFile = path.join(dir, 'src.raw');
  const qcow = path.join(dir, 'src.qcow2');
  await fsp.writeFile(rawFile, raw);
  await run('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', rawFile, qcow]);
  const blank = path.join(dir, 'blank.qcow2');
  await run('qemu-img', ['create', '-f', 'qcow2', blank, '2M']);
  assert.equal(await detectImageFormat(qcow), 'qcow2');
  const master = await freshDir('m6');
  const cache = new ImageCache({ master_dir: master });
  const qbytes = await fsp.readFile(qcow);
  const l = await cache.acquire({ image_source: pathToFileURL(qcow).href, image_checksum: md5(qbytes), force_raw: true });
  assert.equal(l.format, 'raw');
  assert.deepEqual(await fsp.readFile(l.path), raw);
  l.release();
  const kept = await cache.acquire({ image_source: pathToFileURL(qcow).href });
  assert.equal(kept.format, 'qcow2');
  kept.release();
  const b = await cache.acquire({ image_source: pathToFileURL(blank).href, force_raw: true });
  assert.equal(b.size, 2 * 1024 * 1024);
  b.release();
  assert.deepEqual((await fsp.readdir(master)).filter((f) => f.startsWith('.')), []);
});
