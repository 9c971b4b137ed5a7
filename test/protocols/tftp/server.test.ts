import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { start, type TftpServer } from '../../../src/protocols/tftp/server';
import { tftpGet } from './mini-client';

const run = promisify(execFile);
// Debian's tftp-hpa client, when this machine has it.
const noHpaClient = fs.existsSync('/usr/bin/tftp') ? false : 'tftp-hpa client (/usr/bin/tftp) not installed';
let dir: string;
let root: string;
let server: TftpServer;
const small = crypto.randomBytes(1300);
const medium = crypto.randomBytes(300_000);

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tftp-test-'));
  root = path.join(dir, 'root');
  await fsp.mkdir(path.join(root, 'pxelinux.cfg'), { recursive: true });
  await fsp.writeFile(path.join(root, 'small.bin'), small);
  await fsp.writeFile(path.join(root, 'medium.bin'), medium);
  await fsp.writeFile(path.join(root, 'exact.bin'), crypto.randomBytes(1024)); // multiple of 512: empty last block
  await fsp.writeFile(path.join(root, 'pxelinux.cfg', '01-aa-bb-cc-dd-ee-ff'), 'default deploy\n');
  await fsp.writeFile(path.join(dir, 'secret'), 'outside');
  await fsp.symlink(path.join(dir, 'secret'), path.join(root, 'escape-link'));
  await fsp.symlink('small.bin', path.join(root, 'inside-link'));
  server = await start({ root, host: '127.0.0.1', port: 0, timeoutMs: 300 });
});

after(async () => {
  await server.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function curlGet(name: string, extra: string[] = []): Promise<{ code: number; out: string }> {
  const out = path.join(dir, `curl-${crypto.randomUUID()}`);
  try {
    await run('curl', ['-sS', '--max-time', '30', ...extra, '-o', out, `tftp://127.0.0.1:${server.port}/${name}`]);
    return { code: 0, out };
  } catch (err) {
    return { code: (err as { code: number }).code, out };
  }
}

test('curl downloads a file with default block size', async () => {
  const r = await curlGet('small.bin');
  assert.equal(r.code, 0);
  assert.deepEqual(await fsp.readFile(r.out), small);
});

test('curl downloads with negotiated blksize', async () => {
  const r = await curlGet('medium.bin', ['--tftp-blksize', '1468']);
  assert.equal(r.code, 0);
  assert.deepEqual(await fsp.readFile(r.out), medium);
});

test('file of exact block multiple ends with an empty block', async () => {
  const r = await curlGet('exact.bin');
  assert.equal(r.code, 0);
  assert.deepEqual(await fsp.readFile(r.out), await fsp.readFile(path.join(root, 'exact.bin')));
});

test('missing file: curl reports TFTP file not found (exit 68), error code 1 on the wire', async () => {
  const r = await curlGet('nope.bin');
  assert.equal(r.code, 68);
  const g = await tftpGet(server.port, 'nope.bin');
  assert.equal(g.error?.code, 1);
});

test('tftp-hpa client gets files in octet and netascii mode, verbose', { skip: noHpaClient }, async () => {
  const out = path.join(dir, 'hpa-small');
  const { stdout } = await run('tftp', ['-v', '-m', 'octet', '127.0.0.1', String(server.port), '-c', 'get', 'medium.bin', out]);
  assert.match(stdout, /Received \d+ bytes/);
  assert.deepEqual(await fsp.readFile(out), medium);
  const txt = path.join(dir, 'hpa-cfg');
  await run('tftp', ['-m', 'netascii', '127.0.0.1', String(server.port), '-c', 'get', '/pxelinux.cfg/01-aa-bb-cc-dd-ee-ff', txt]);
  assert.equal(await fsp.readFile(txt, 'utf8'), 'default deploy\n');
});

test('tftp-hpa client: missing file and put are refused with error packets', { skip: noHpaClient }, async () => {
  const miss = await run('tftp', ['127.0.0.1', String(server.port), '-c', 'get', 'absent', path.join(dir, 'x')]).catch((e: { stdout: string; stderr: string }) => e);
  assert.match(miss.stdout + miss.stderr, /Error code 1/);
  const src = path.join(root, 'small.bin');
  const put = await run('tftp', ['127.0.0.1', String(server.port), '-c', 'put', src, 'uploaded']).catch((e: { stdout: string; stderr: string }) => e);
  assert.match(put.stdout + put.stderr, /Error code 2/);
  await assert.rejects(fsp.stat(path.join(root, 'uploaded')));
});

test('WRQ refused with access violation', async () => {
  const g = await tftpGet(server.port, 'new.bin', { op: 2 });
  assert.equal(g.error?.code, 2);
});

test('path traversal is refused', async () => {
  for (const name of ['../secret', 'pxelinux.cfg/../../secret', '/../secret', '..\\secret']) {
    const g = await tftpGet(server.port, name);
    assert.equal(g.error?.code, 2, name);
  }
  const link = await tftpGet(server.port, 'escape-link');
  assert.equal(link.error?.code, 2);
  // An absolute name is rooted at the TFTP root, so /etc/passwd is simply absent.
  const abs = await tftpGet(server.port, '/etc/passwd');
  assert.equal(abs.error?.code, 1);
  const curl = await curlGet('..%2Fsecret');
  assert.notEqual(curl.code, 0);
});

test('leading slash, root-prefixed names and in-root symlinks are served', async () => {
  const a = await tftpGet(server.port, '/pxelinux.cfg/01-aa-bb-cc-dd-ee-ff');
  assert.equal(a.data.toString(), 'default deploy\n');
  const b = await tftpGet(server.port, path.join(root, 'small.bin'));
  assert.deepEqual(b.data, small);
  const c = await tftpGet(server.port, 'inside-link');
  assert.deepEqual(c.data, small);
});

test('options: blksize, tsize, timeout, windowsize are acknowledged in OACK', async () => {
  const opts = new Map([['blksize', '1024'], ['tsize', '0'], ['timeout', '2'], ['windowsize', '8']]);
  const g = await tftpGet(server.port, 'medium.bin', { options: opts });
  assert.equal(g.oack?.get('blksize'), '1024');
  assert.equal(g.oack?.get('tsize'), String(medium.length));
  assert.equal(g.oack?.get('timeout'), '2');
  assert.equal(g.oack?.get('windowsize'), '8');
  assert.deepEqual(g.data, medium);
});

test('out-of-range options are left out of the OACK', async () => {
  const opts = new Map([['blksize', '4'], ['timeout', '999'], ['tsize', '0']]);
  const g = await tftpGet(server.port, 'small.bin', { options: opts });
  assert.deepEqual([...(g.oack?.keys() ?? [])], ['tsize']);
  assert.deepEqual(g.data, small);
});

test('unacknowledged DATA is retransmitted', async () => {
  const g = await tftpGet(server.port, 'small.bin', { ignoreFirstData: true });
  assert.deepEqual(g.data, small);
  assert.ok(g.packets >= 4, `expected a resent block, got ${g.packets} packets`);
});

test('a repeated RRQ from the same client port starts only one transfer', async () => {
  const g = await tftpGet(server.port, 'medium.bin', { repeatRequest: true });
  assert.deepEqual(g.data, medium);
  assert.equal(g.tids.length, 1);
});

test('netascii accepted, unknown modes refused with code 4', async () => {
  const ok = await tftpGet(server.port, 'small.bin', { mode: 'NetASCII' });
  assert.deepEqual(ok.data, small);
  const bad = await tftpGet(server.port, 'small.bin', { mode: 'mail' });
  assert.equal(bad.error?.code, 4);
});

test('concurrent transfers are bounded', async () => {
  const busy = await start({ root, port: 0, maxTransfers: 1, timeoutMs: 2000, retries: 1 });
  try {
    await tftpGet(busy.port, 'medium.bin', { stall: true });
    assert.equal(busy.activeTransfers(), 1);
    const second = await tftpGet(busy.port, 'small.bin');
    assert.equal(second.error?.code, 0);
    assert.match(second.error?.message ?? '', /busy/i);
  } finally {
    await busy.close();
  }
});

test('block numbers roll over past 65535 inside a window', async () => {
  const big = crypto.randomBytes(65536 * 8 + 77);
  await fsp.writeFile(path.join(root, 'rollover-window.bin'), big);
  const g = await tftpGet(server.port, 'rollover-window.bin', { options: new Map([['blksize', '8'], ['windowsize', '32']]) });
  assert.equal(g.error, undefined);
  assert.deepEqual(g.data, big);
});

test('parallel curl downloads with mixed block sizes all complete', async () => {
  const sizes = ['512', '1024', '1468', '8192', '65464', '512', '2048', '4096'];
  const results = await Promise.all(sizes.map((bs) => curlGet('medium.bin', ['--tftp-blksize', bs])));
  for (const r of results) {
    assert.equal(r.code, 0);
    assert.deepEqual(await fsp.readFile(r.out), medium);
  }
});

test('serves on IPv6 loopback', async () => {
  const v6 = await start({ root, host: '::1', port: 0 });
  try {
    const out = path.join(dir, 'v6');
    await run('curl', ['-sS', '--max-time', '20', '-o', out, `tftp://[::1]:${v6.port}/small.bin`]);
    assert.deepEqual(await fsp.readFile(out), small);
  } finally {
    await v6.close();
  }
});
