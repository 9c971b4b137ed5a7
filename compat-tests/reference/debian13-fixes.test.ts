/**
 * The 2025.1 reference (Debian 13's Ironic 29.0.5) must answer as Ironic 2025.1 means to: the two
 * regressions of that Debian package that scripts/reference-ironic/debian13_ironic_fixes.py fixes
 * at run time stay fixed. Without the fixes a node PATCH makes the node its own parent (and it
 * vanishes from the node list) and a rebuild answers 500. The first run on a machine builds the
 * Debian 13 root (minutes), hence the long timeout.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { call, waitProvisionState } from '../adoption/api';
import { startReferenceIronic, type ReferenceIronic } from '../support/reference-ironic';
import { freePort } from '../support/target';

const VERSION = '1.96';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ref-2025-'));
let reference: ReferenceIronic | undefined;

before(async () => {
  reference = await startReferenceIronic({ dir, port: await freePort(), release: '2025.1' });
}, { timeout: 20 * 60_000 });

after(async () => {
  await reference?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function url(): string {
  assert.ok(reference, 'reference started');
  return reference.url;
}

async function json(method: string, p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await call(url(), method, p, body, VERSION);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${p} -> ${res.status}: ${res.bodyText}`);
  return res.bodyText === '' ? {} : (JSON.parse(res.bodyText) as Record<string, unknown>);
}

async function createNode(name: string): Promise<string> {
  const node = await json('POST', '/v1/nodes', { driver: 'fake-hardware', name });
  return String(node.uuid);
}

test('the 2025.1 reference answers API 1.96', async () => {
  const root = await json('GET', '/v1');
  assert.equal((root.version as Record<string, unknown>).version, VERSION);
});

test('a node PATCH without /parent_node leaves parent_node null and the node listed', async () => {
  const uuid = await createNode('patched');
  await json('PATCH', `/v1/nodes/${uuid}`, [{ op: 'add', path: '/extra/k', value: 'v' }]);
  const node = await json('GET', `/v1/nodes/${uuid}`);
  assert.equal(node.parent_node, null);
  assert.deepEqual(node.extra, { k: 'v' });
  const list = await json('GET', '/v1/nodes');
  assert.ok((list.nodes as Array<Record<string, unknown>>).some((n) => n.uuid === uuid), 'the node is in GET /v1/nodes');
});

test('rebuild of an active fake-hardware node is accepted and ends active', async () => {
  const uuid = await createNode('rebuilt');
  for (const [target, state] of [['manage', 'manageable'], ['provide', 'available'], ['active', 'active']]) {
    await json('PUT', `/v1/nodes/${uuid}/states/provision`, { target });
    await waitProvisionState(url(), uuid, String(state));
  }
  const rebuild = await call(url(), 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'rebuild' }, VERSION);
  assert.equal(rebuild.status, 202, rebuild.bodyText);
  await waitProvisionState(url(), uuid, 'active');
  assert.equal((await json('GET', `/v1/nodes/${uuid}`)).last_error, null);
});
