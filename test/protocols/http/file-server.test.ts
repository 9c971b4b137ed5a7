import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startHttpFileServer, type HttpFileServer } from '../../../src/protocols/http';
import { parseRange } from '../../../src/protocols/http/range';

const run = promisify(execFile);
let dir: string;
let root: string;
let server: HttpFileServer;
let big: Buffer;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'http-files-'));
  root = path.join(dir, 'root');
  await fsp.mkdir(path.join(root, 'pxelinux.cfg'), { recursive: true });
  await fsp.mkdir(path.join(root, 'node'), { recursive: true });
  await fsp.writeFile(path.join(root, 'node', 'config'), '#!ipxe\ngoto deploy\n');
  await fsp.symlink('../node/config', path.join(root, 'pxelinux.cfg', 'aa-bb-cc-dd-ee-ff'));
  await fsp.writeFile(path.join(dir, 'secret'), 'outside the root');
  await fsp.symlink(path.join(dir, 'secret'), path.join(root, 'escape-link'));
  big = randomBytes(24 * 1024 * 1024 + 123);
  await fsp.writeFile(path.join(root, 'image.raw'), big);
  await fsp.writeFile(path.join(root, 'empty'), '');
  server = await startHttpFileServer({ root, port: 0 });
});

after(async () => {
  await server.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Sends a raw request line, so `..` reaches the server unnormalized (fetch/curl would squash it). */
function rawGet(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(server.port, '127.0.0.1', () => sock.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let data = '';
    sock.on('data', (d) => (data += d.toString('latin1')));
    sock.on('end', () => resolve(data));
    sock.on('error', reject);
  });
}

test('GET serves the file with Content-Length, Accept-Ranges and Last-Modified', async () => {
  const res = await fetch(`${server.url}/node/config`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-length'), '19');
  assert.equal(res.headers.get('accept-ranges'), 'bytes');
  assert.ok(res.headers.get('last-modified'));
  assert.equal(await res.text(), '#!ipxe\ngoto deploy\n');
});

test('a per-MAC symlink inside the root is followed', async () => {
  const res = await fetch(`${server.url}/pxelinux.cfg/aa-bb-cc-dd-ee-ff`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), '#!ipxe\ngoto deploy\n');
});

test('HEAD answers the headers of GET without a body', async () => {
  const res = await fetch(`${server.url}/image.raw`, { method: 'HEAD' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-length'), String(big.length));
  assert.equal((await res.arrayBuffer()).byteLength, 0);
});

test('byte ranges: closed, open-ended, suffix; unsatisfiable is 416', async () => {
  const a = await fetch(`${server.url}/image.raw`, { headers: { Range: 'bytes=10-19' } });
  assert.equal(a.status, 206);
  assert.equal(a.headers.get('content-range'), `bytes 10-19/${big.length}`);
  assert.deepEqual(Buffer.from(await a.arrayBuffer()), big.subarray(10, 20));
  const b = await fetch(`${server.url}/image.raw`, { headers: { Range: `bytes=${big.length - 5}-` } });
  assert.equal(b.status, 206);
  assert.deepEqual(Buffer.from(await b.arrayBuffer()), big.subarray(big.length - 5));
  const c = await fetch(`${server.url}/image.raw`, { headers: { Range: 'bytes=-7' } });
  assert.deepEqual(Buffer.from(await c.arrayBuffer()), big.subarray(big.length - 7));
  const d = await fetch(`${server.url}/image.raw`, { headers: { Range: `bytes=${big.length}-` } });
  assert.equal(d.status, 416);
  assert.equal(d.headers.get('content-range'), `bytes */${big.length}`);
  await d.arrayBuffer();
  const e = await fetch(`${server.url}/empty`);
  assert.equal(e.status, 200);
  assert.equal(e.headers.get('content-length'), '0');
});

test('parseRange edge cases', () => {
  assert.equal(parseRange(undefined, 10), undefined);
  assert.equal(parseRange('bytes=0-0,5-6', 10), undefined);
  assert.deepEqual(parseRange('bytes=5-100', 10), { start: 5, end: 9 });
  assert.deepEqual(parseRange('bytes=-100', 10), { start: 0, end: 9 });
  assert.equal(parseRange('bytes=-0', 10), 'unsatisfiable');
  assert.equal(parseRange('bytes=7-3', 10), undefined);
});

test('curl downloads the whole image intact, and a range with -r', async () => {
  const out = path.join(dir, 'curl.out');
  await run('curl', ['-sS', '--fail', '-o', out, `${server.url}/image.raw`]);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  assert.equal(sha(await fsp.readFile(out)), sha(big));
  const { stdout } = await run('curl', ['-sS', '--fail', '-r', '100-103', `${server.url}/image.raw`], { encoding: 'buffer' });
  assert.deepEqual(stdout, big.subarray(100, 104));
});

test('path traversal is refused: .., encoded .., symlink out of the root, NUL', async () => {
  for (const target of ['/../secret', '/node/../../secret', '/%2e%2e/secret', '/node/%2E%2E/%2e%2e/secret', '/..%2fsecret']) {
    const reply = await rawGet(target);
    assert.match(reply, /^HTTP\/1\.1 403 /, target);
    assert.doesNotMatch(reply, /outside the root/);
  }
  const link = await fetch(`${server.url}/escape-link`);
  assert.equal(link.status, 403);
  assert.doesNotMatch(await link.text(), /outside the root/);
  assert.match(await rawGet('/node%00/config'), /^HTTP\/1\.1 403 /);
  assert.match(await rawGet('/%zz'), /^HTTP\/1\.1 400 /);
});

test('missing files and directories are 404; other methods 405', async () => {
  assert.equal((await fetch(`${server.url}/nope`)).status, 404);
  assert.equal((await fetch(`${server.url}/node`)).status, 404);
  assert.equal((await fetch(`${server.url}/`)).status, 404);
  const post = await fetch(`${server.url}/node/config`, { method: 'POST', body: 'x' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});

test('a client that stops reading holds the transfer back (backpressure), then completes', async () => {
  // The client reads the first chunk and stops: with backpressure the server stalls after a few
  // MiB; without it the whole 24 MiB file would sit in this process's buffers.
  const baseline = process.memoryUsage().arrayBuffers;
  const sock = net.connect(server.port, '127.0.0.1');
  sock.write('GET /image.raw HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  let total = 0;
  await new Promise<void>((resolve) => sock.once('data', (d: Buffer) => {
    total += d.length;
    resolve();
  }));
  sock.pause();
  await new Promise((r) => setTimeout(r, 600));
  const held = process.memoryUsage().arrayBuffers - baseline;
  assert.ok(held < 12 * 1024 * 1024, `server buffered ${held} bytes for a stalled client`);
  sock.on('data', (d) => (total += d.length));
  sock.resume();
  await new Promise<void>((resolve) => sock.on('end', () => resolve()));
  assert.ok(total >= big.length, `got ${total} bytes`);
});
