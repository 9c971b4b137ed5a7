/**
 * Fixtures for agent deploy tests: a small real ext4 image, counting static HTTP servers
 * (the image origin and [deploy]http_root), an ironic-ts with the direct deploy enabled,
 * fake-hardware nodes with a port, agent emulators, and a recorder of provision states.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startAgentEmulator, type AgentEmulator } from '../../../src/emulators/agent/server';
import { startTestServer, type TestServer } from '../../api/support/server';

export const run = promisify(execFile);
export const V = '1.82';
export const SHADOW = 'root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n';

/** An ext4 filesystem image with /etc/shadow and /etc/motd, built without root. */
export async function buildExt4Image(dir: string, name = 'root.img'): Promise<string> {
  const tree = path.join(dir, `${name}.tree`);
  await fsp.mkdir(path.join(tree, 'etc'), { recursive: true });
  await fsp.writeFile(path.join(tree, 'etc', 'shadow'), SHADOW, { mode: 0o640 });
  await fsp.writeFile(path.join(tree, 'etc', 'motd'), 'stock motd\n');
  const image = path.join(dir, name);
  await run('/sbin/mkfs.ext4', ['-q', '-F', '-d', tree, image, '8M']);
  return image;
}

export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

export async function debugfsCat(image: string, p: string): Promise<string> {
  return (await run('/sbin/debugfs', ['-R', `cat "${p}"`, image])).stdout;
}

export async function ext4Uuid(image: string): Promise<string> {
  const { stdout } = await run('/sbin/dumpe2fs', ['-h', image]);
  return /Filesystem UUID:\s+(\S+)/.exec(stdout)![1];
}

export interface StaticServer {
  url: string;
  /** GET requests per path. */
  hits: Map<string, number>;
  /** HEAD requests per path (Ironic checks an image URL with one before the agent downloads it). */
  heads: Map<string, number>;
  stop(): Promise<void>;
}

/** Serves files under root (following links), counting GETs per path. */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const hits = new Map<string, number>();
  const heads = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const counts = req.method === 'HEAD' ? heads : hits;
    counts.set(urlPath, (counts.get(urlPath) ?? 0) + 1);
    const file = path.join(root, path.normalize(urlPath));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    fsp.stat(file).then((st) => {
      res.writeHead(200, { 'Content-Length': st.size });
      createReadStream(file).pipe(res);
    }, () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    heads,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface DirectLab {
  dir: string;
  s: TestServer;
  httpRoot: StaticServer;
  masterDir: string;
  imagesDir: string;
  httpRootDir: string;
  stop(): Promise<void>;
}

export async function startDirectLab(dir: string, extra: Record<string, Record<string, string>> = {}): Promise<DirectLab> {
  const httpRootDir = path.join(dir, 'httpboot');
  const masterDir = path.join(dir, 'master_images');
  const imagesDir = path.join(dir, 'images');
  await fsp.mkdir(httpRootDir, { recursive: true });
  const httpRoot = await startStaticServer(httpRootDir);
  const s = await startTestServer({
    ...extra,
    DEFAULT: {
      enabled_deploy_interfaces: 'fake,direct', enabled_management_interfaces: 'fake,noop', ...(extra.DEFAULT ?? {}),
    },
    deploy: { http_root: httpRootDir, http_url: httpRoot.url, ...(extra.deploy ?? {}) },
    pxe: { images_path: imagesDir, instance_master_path: masterDir, ...(extra.pxe ?? {}) },
    agent: { post_deploy_get_power_state_retries: '0', command_wait_interval: '1', ...(extra.agent ?? {}) },
  });
  return {
    dir, s, httpRoot, masterDir, imagesDir, httpRootDir,
    async stop() {
      await s.stop();
      await httpRoot.stop();
    },
  };
}

/** A fake-hardware node with the direct deploy and one port, brought to available. */
export async function availableNode(s: TestServer, name: string, mac: string, instanceInfo: Record<string, unknown>): Promise<string> {
  const created = await s.request('POST', '/v1/nodes', { version: V, body: {
    // Fake management only knows the pxe boot device, as Ironic's; local boot needs disk.
    name, driver: 'fake-hardware', deploy_interface: 'direct', management_interface: 'noop', instance_info: instanceInfo,
    driver_info: { deploy_kernel: 'http://example.invalid/k', deploy_ramdisk: 'http://example.invalid/r' },
  } });
  if (created.status !== 201) throw new Error(`node create: ${created.status} ${created.text}`);
  const uuid = created.json.uuid as string;
  const port = await s.request('POST', '/v1/ports', { version: V, body: { address: mac, node_uuid: uuid } });
  if (port.status !== 201) throw new Error(`port create: ${port.text}`);
  for (const target of ['manage', 'provide']) {
    const r = await s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target } });
    if (r.status !== 202) throw new Error(`${target}: ${r.text}`);
    await waitForState(s, uuid, [target === 'manage' ? 'manageable' : 'available'], 60_000);
  }
  return uuid;
}

export async function waitForState(s: TestServer, uuid: string, wanted: string[], timeoutMs = 120_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await s.request('GET', `/v1/nodes/${uuid}`, { version: V });
    const state = String(r.json.provision_state);
    if (wanted.includes(state) && (r.json.target_provision_state === null || /fail|error/.test(state))) return r.json;
    if (Date.now() > deadline) throw new Error(`node ${uuid} stuck in ${r.json.provision_state}: ${r.json.last_error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function emulatorFor(lab: DirectLab, mac: string, name: string): Promise<AgentEmulator> {
  return startAgentEmulator({
    ironicUrl: lab.s.url, macs: [mac], heartbeatIntervalMs: 250,
    disks: { root: path.join(lab.dir, `${name}.disk`), configdrive: path.join(lab.dir, `${name}.configdrive`) },
  });
}

/**
 * Records every provision_state the conductor writes, per node id, as "state -> target" (the
 * target carried forward from its last write), from the SQL it issues: polling the API could
 * miss the short-lived states.
 */
export function recordProvisionStates(s: TestServer): { of(nodeId: number): string[]; stop(): void } {
  const seen = new Map<number, string[]>();
  const targets = new Map<number, string>();
  const listener = (q: { sql: string; bindings?: unknown[] }) => {
    if (!/^update [`"]nodes[`"] set /i.test(q.sql) || !q.bindings) return;
    const cols = [...q.sql.slice(0, q.sql.search(/ where /i)).matchAll(/[`"](\w+)[`"]\s*=\s*\?/g)].map((m) => m[1]);
    const id = Number(q.bindings[q.bindings.length - 1]);
    const t = cols.indexOf('target_provision_state');
    if (t >= 0) targets.set(id, String(q.bindings[t]));
    const at = cols.indexOf('provision_state');
    if (at < 0) return;
    const list = seen.get(id) ?? [];
    list.push(`${String(q.bindings[at])} -> ${targets.get(id) ?? 'null'}`);
    seen.set(id, list);
  };
  s.db.knex.on('query', listener);
  return {
    of: (nodeId) => seen.get(nodeId) ?? [],
    stop: () => { s.db.knex.removeListener('query', listener); },
  };
}

export async function nodeId(s: TestServer, uuid: string): Promise<number> {
  const row = await s.db.knex('nodes').where({ uuid }).first('id') as { id: number };
  return row.id;
}

/** The conductor runs in the test's process: its log lines as written to stderr, until stop(). */
export function captureLog(): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return { lines, stop: () => { process.stderr.write = original; } };
}
