/**
 * Image download progress: while the conductor caches a slowly served image for a direct
 * deploy, polling the node through the API shows driver_internal_info.image_download_progress
 * growing, the log gets a line per 10 %, and the record is gone once the image is cached
 * (also when the download fails).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { availableNode, captureLog, emulatorFor, sha256File, startDirectLab, V, waitForState, type DirectLab } from '../deploy/agent-support';

const SIZE = 4 * 1024 * 1024;
const CHUNK = 64 * 1024;
const CHUNK_DELAY_MS = 60; // about 4 s in all: several progress writes at one per second

interface SlowServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves `data` at any path in CHUNK pieces, CHUNK_DELAY_MS apart; `cutAt` drops the connection there. */
async function startSlowServer(data: Buffer, cutAt?: number): Promise<SlowServer> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Length': data.length, 'Content-Type': 'application/octet-stream' });
    let offset = 0;
    const timer = setInterval(() => {
      if (cutAt !== undefined && offset >= cutAt) {
        clearInterval(timer);
        res.destroy();
        return;
      }
      res.write(data.subarray(offset, offset + CHUNK));
      offset += CHUNK;
      if (offset >= data.length) {
        clearInterval(timer);
        res.end();
      }
    }, CHUNK_DELAY_MS);
    req.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls the node through the API until it settles, keeping every progress record seen. */
async function pollProgress(lab: DirectLab, uuid: string): Promise<{ seen: Array<Record<string, any>>; node: Record<string, any> }> {
  const seen: Array<Record<string, any>> = [];
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await lab.s.request('GET', `/v1/nodes/${uuid}`, { version: V });
    const p = r.json.driver_internal_info?.image_download_progress;
    if (p) seen.push(p);
    if (['active', 'deploy failed'].includes(r.json.provision_state) && r.json.target_provision_state === null) return { seen, node: r.json };
    if (/failed/.test(r.json.provision_state)) return { seen, node: r.json };
    if (Date.now() > deadline) throw new Error(`node stuck in ${r.json.provision_state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('image download progress', () => {
  let dir: string;
  let lab: DirectLab;
  const data = randomBytes(SIZE);
  const sha = createHash('sha256').update(data).digest('hex');

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'download-progress-'));
    lab = await startDirectLab(dir);
  });
  after(async () => {
    await lab?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('shows growing progress in driver_internal_info and the log while caching, and clears it after', async () => {
    const origin = await startSlowServer(data);
    const mac = '52:54:00:9c:00:01';
    const source = `${origin.url}/slow.img`;
    const uuid = await availableNode(lab.s, 'progress-1', mac, {
      image_source: source, image_os_hash_algo: 'sha256', image_os_hash_value: sha, image_download_source: 'local',
    });
    const agent = await emulatorFor(lab, mac, 'progress-1');
    const logs = captureLog();
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const { seen, node } = await pollProgress(lab, uuid);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(node.driver_internal_info.image_download_progress, undefined, 'cleared once cached');
      assert.equal(await sha256File(path.join(dir, 'progress-1.disk')), sha);

      const partial = seen.filter((p) => p.bytes > 0 && p.bytes < SIZE);
      assert.ok(partial.length >= 2, `progress seen mid-download: ${JSON.stringify(seen)}`);
      for (const p of seen) {
        assert.equal(p.image_source, source);
        assert.equal(p.total, SIZE);
        assert.equal(p.percent, Math.floor((p.bytes / SIZE) * 1000) / 10);
        assert.ok(!Number.isNaN(Date.parse(p.started_at)) && !Number.isNaN(Date.parse(p.updated_at)));
      }
      const bytes = seen.map((p) => p.bytes);
      assert.deepEqual(bytes, [...bytes].sort((a, b) => a - b), 'never goes backwards');
      assert.ok(new Set(bytes).size >= 2, 'it moves');

      const lines = logs.lines.filter((l) => l.includes(`Downloading image ${source} for node ${uuid}`));
      assert.equal(lines.length, 10, lines.join(''));
      assert.match(lines[9], new RegExp(`${SIZE} bytes of ${SIZE} \\(100%\\)`));
      assert.ok(logs.lines.some((l) => new RegExp(`Image ${source} for node ${uuid} downloaded ${SIZE} bytes in [\\d.]+ s`).test(l)));
    } finally {
      logs.stop();
      await agent.stop();
      await origin.stop();
    }
  });

  it('clears the record when the download breaks off', async () => {
    const origin = await startSlowServer(data, SIZE / 2);
    const source = `${origin.url}/broken.img`;
    const uuid = await availableNode(lab.s, 'progress-2', '52:54:00:9c:00:02', {
      image_source: source, image_os_hash_algo: 'sha256', image_os_hash_value: sha, image_download_source: 'local',
    });
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const { seen, node } = await pollProgress(lab, uuid);
      assert.equal(node.provision_state, 'deploy failed');
      assert.ok(seen.some((p) => p.bytes > 0 && p.bytes < SIZE), 'progress was shown before the break');
      assert.equal(node.driver_internal_info.image_download_progress, undefined, 'cleared after the failure');
      assert.match(node.last_error, /broken\.img/);
    } finally {
      await origin.stop();
    }
  });
});
