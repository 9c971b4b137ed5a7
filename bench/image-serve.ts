/**
 * Caches a 2 GiB image through the master image cache (file:// source, sha256 verified), then
 * serves it to 10 concurrent curl clients from ironic-ts's HTTP file server and, the same
 * transfer, from a plain node:http + fs.createReadStream server. Rounds alternate between the
 * two; prints per-round and median throughput and the ratio (target >= 0.9x).
 *
 *   node dist/bench/image-serve.js [--size-mib 2048] [--clients 10] [--rounds 3] [--image PATH]
 *
 * The image is real pseudo-random data (not sparse), written once and reused from /tmp.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { ImageCache } from '../src/images/cache';
import { startHttpFileServer } from '../src/protocols/http';
import { median, nowMs } from './support';

const run = promisify(execFile);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

const SIZE = Number(arg('size-mib', '2048')) * 1024 * 1024;
const CLIENTS = Number(arg('clients', '10'));
const ROUNDS = Number(arg('rounds', '3'));
const IMAGE = arg('image', path.join(os.tmpdir(), `ironic-ts-bench-image-${SIZE / 1024 / 1024}m.raw`));

/** 64 MiB of random bytes, each copy stamped with its index so no two blocks are equal. */
async function ensureImage(): Promise<string> {
  const st = await fsp.stat(IMAGE).catch(() => undefined);
  if (st?.size !== SIZE) {
    const block = randomBytes(64 * 1024 * 1024);
    const fh = await fsp.open(`${IMAGE}.tmp`, 'w');
    for (let off = 0; off < SIZE; off += block.length) {
      block.writeUInt32LE(off / block.length, 0);
      await fh.write(block, 0, Math.min(block.length, SIZE - off), off);
    }
    await fh.close();
    await fsp.rename(`${IMAGE}.tmp`, IMAGE);
  }
  const hash = createHash('sha256');
  await pipeline(createReadStream(IMAGE, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

interface Served {
  url: string;
  close(): Promise<void>;
}

/** The plain file server to compare with: what a Node programmer writes first. */
async function startPlainServer(root: string): Promise<Served> {
  const server = http.createServer((req, res) => {
    const file = path.join(root, path.basename(req.url ?? ''));
    fsp.stat(file).then((st) => {
      res.writeHead(200, { 'Content-Length': String(st.size), 'Content-Type': 'application/octet-stream' });
      createReadStream(file).pipe(res);
    }, () => {
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** All clients at once; returns MiB/s over the whole transfer. */
async function transfer(url: string): Promise<number> {
  const t0 = nowMs();
  const sizes = await Promise.all(Array.from({ length: CLIENTS }, () =>
    run('curl', ['-sS', '--fail', '-o', '/dev/null', '-w', '%{size_download}', url]).then((r) => Number(r.stdout))));
  const seconds = (nowMs() - t0) / 1000;
  for (const s of sizes) if (s !== SIZE) throw new Error(`short transfer from ${url}: ${s} of ${SIZE}`);
  return (CLIENTS * SIZE) / 1024 / 1024 / seconds;
}

async function main(): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'image-serve-bench-'));
  try {
    let t = nowMs();
    const sha256 = await ensureImage();
    console.log(`image: ${IMAGE} (${SIZE / 1024 / 1024} MiB, sha256 ${sha256.slice(0, 16)}..., ready in ${((nowMs() - t) / 1000).toFixed(1)} s)`);
    const root = path.join(dir, 'httpboot');
    const cache = new ImageCache({ master_dir: path.join(dir, 'master_images') });
    t = nowMs();
    await cache.fetchTo({ image_source: `file://${IMAGE}`, image_os_hash_algo: 'sha256', image_os_hash_value: sha256 }, path.join(root, 'image.raw'));
    const cacheSeconds = (nowMs() - t) / 1000;
    console.log(`image cache: copied and sha256-verified in ${cacheSeconds.toFixed(1)} s (${(SIZE / 1024 / 1024 / cacheSeconds).toFixed(0)} MiB/s)`);

    const ours: number[] = [];
    const plain: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await startHttpFileServer({ root, port: 0 });
      ours.push(await transfer(`${a.url}/image.raw`));
      await a.close();
      const b = await startPlainServer(root);
      plain.push(await transfer(`${b.url}/image.raw`));
      await b.close();
      console.log(`round ${round}: ironic-ts ${ours.at(-1)!.toFixed(0)} MiB/s, plain node:http ${plain.at(-1)!.toFixed(0)} MiB/s`);
    }
    const o = median(ours);
    const p = median(plain);
    console.log(`\n${CLIENTS} clients x ${SIZE / 1024 / 1024} MiB, median of ${ROUNDS} rounds (load average ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`| server | throughput |\n|---|---|\n| ironic-ts HTTP file server | ${o.toFixed(0)} MiB/s |\n| plain node:http + createReadStream | ${p.toFixed(0)} MiB/s |`);
    console.log(`ratio ironic-ts / plain: ${(o / p).toFixed(2)}x (target >= 0.9x)`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
