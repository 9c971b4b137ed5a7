/**
 * Issue 19, findings 5 to 8 over a real server: JSON nested past the limit, numbers a double would
 * change and bytes that are not UTF-8 are refused with a 400 and write nothing; deep documents
 * built by patches are refused too; `fields` naming no node attribute is a 400, and a request line
 * past eventlet's 8 KiB is a 414.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as http from 'node:http';
import { MAX_JSON_DEPTH } from '../../src/common/json-limits';
import { countRows, faultOf, makeNode } from './support/fixtures';
import { startTestServer, TestServer } from './support/server';

const V = '1.82';

/** A value `depth` levels deep: {"d": {"d": ... 1}}. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
}

/** Sends raw bytes, which fetch would re-encode. */
function postBytes(url: string, path: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, {
      method: path.startsWith('/v1/nodes/') ? 'PATCH' : 'POST',
      headers: { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': V, 'Content-Length': body.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('request limits', () => {
  let s: TestServer;
  let uuid: string;

  before(async () => {
    s = await startTestServer();
    const created = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'limits', extra: { keep: 1 } } });
    assert.equal(created.status, 201, created.text);
    uuid = created.json.uuid;
  });

  after(async () => s.stop());

  async function createRefused(body: string, pattern: RegExp): Promise<void> {
    const before = await countRows(s.db, 'nodes');
    const res = await s.request('POST', '/v1/nodes', { version: V, body });
    assert.equal(res.status, 400, res.text);
    assert.match(faultOf(res.json), pattern);
    assert.equal(await countRows(s.db, 'nodes'), before);
  }

  async function extraOf(id: string): Promise<Record<string, unknown>> {
    const res = await s.request('GET', `/v1/nodes/${id}?fields=extra`, { version: V });
    assert.equal(res.status, 200, res.text);
    return res.json.extra;
  }

  it('refuses nesting past the limit (5,000 and 2,200 levels) with a 400, not a 500', async () => {
    for (const depth of [5000, 2200, MAX_JSON_DEPTH - 1]) {
      const body = `{"driver": "fake-hardware", "extra": {"a": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      await createRefused(body, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    }
  });

  it('accepts a body exactly at the limit, and serves and patches it', async () => {
    const body = { driver: 'fake-hardware', extra: { a: nested(MAX_JSON_DEPTH - 2) } };
    const res = await s.request('POST', '/v1/nodes', { version: V, body });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(await extraOf(res.json.uuid), body.extra);
    const patched = await s.request('PATCH', `/v1/nodes/${res.json.uuid}`, { version: V, body: [{ op: 'add', path: '/extra/b', value: 2 }] });
    assert.equal(patched.status, 200, patched.text);
  });

  it('refuses patches that stack values past the limit, leaving the node patchable', async () => {
    const half = nested(60);
    const first = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: [{ op: 'add', path: '/extra/deep', value: half }] });
    assert.equal(first.status, 200, first.text);
    const deepPath = `/extra/deep${'/d'.repeat(59)}`;
    for (const patch of [
      [{ op: 'replace', path: deepPath, value: nested(60) }],
      [{ op: 'replace', path: deepPath, value: nested(30) }, { op: 'replace', path: `${deepPath}${'/d'.repeat(29)}`, value: nested(30) }],
    ]) {
      const res = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: patch });
      assert.equal(res.status, 400, res.text);
      assert.match(faultOf(res.json), /would nest deeper than/);
    }
    assert.deepEqual((await extraOf(uuid)).deep, half);
    const later = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: [{ op: 'remove', path: '/extra/deep' }] });
    assert.equal(later.status, 200, later.text);
  });

  it('serves and patches a node another Ironic stored deeper than the limit', async () => {
    // Python's json module survives about 1,000 levels: the deepest an existing database can hold.
    const node = await makeNode(s.db, { extra: { deep: nested(900) } as Record<string, unknown> });
    for (const path of [`/v1/nodes/${node.uuid}`, '/v1/nodes/detail', '/v1/nodes?fields=uuid,extra']) {
      const res = await s.request('GET', path, { version: V });
      assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
    }
    const res = await s.request('PATCH', `/v1/nodes/${node.uuid}`, { version: V, body: [{ op: 'add', path: '/extra/note', value: 'x' }] });
    assert.equal(res.status, 200, res.text.slice(0, 300));
  });

  it('refuses integers a double cannot hold exactly and numbers past its range', async () => {
    await createRefused('{"driver": "fake-hardware", "extra": {"big": 123456789012345678901234567890}}',
      /integer 123456789012345678901234567890 cannot be stored exactly/);
    await createRefused('{"driver": "fake-hardware", "extra": {"inf": 1e400}}', /number 1e400 is out of the range/);
    await createRefused(`{"driver": "fake-hardware", "extra": {"huge": ${'9'.repeat(100000)}}}`, /integer 9{40}\.\.\. cannot/);
    await createRefused('{"driver": "fake-hardware", "extra": {"neg": -9007199254740993}}', /cannot be stored exactly/);
    const res = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: '[{"op": "add", "path": "/extra/n", "value": 18446744073709551616}]' });
    assert.equal(res.status, 400, res.text);
    assert.equal((await extraOf(uuid)).n, undefined);
  });

  it('keeps numbers within a double exactly, and digits inside strings untouched', async () => {
    const extra = '{"max": 9007199254740991, "min": -9007199254740991, "f": 1.5e+300, "tiny": 5e-324, "s": "123456789012345678901234567890 1e400"}';
    const res = await s.request('POST', '/v1/nodes', { version: V, body: `{"driver": "fake-hardware", "extra": ${extra}}` });
    assert.equal(res.status, 201, res.text);
    const shown = await s.request('GET', `/v1/nodes/${res.json.uuid}?fields=extra`, { version: V });
    assert.ok(shown.text.startsWith(`{"extra": ${extra}, "links": `), shown.text);
  });

  it('refuses bodies that are not UTF-8 instead of storing U+FFFD', async () => {
    const before = await countRows(s.db, 'nodes');
    const created = await postBytes(s.url, '/v1/nodes', Buffer.concat([
      Buffer.from('{"driver": "fake-hardware", "name": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]));
    assert.equal(created.status, 400, created.text);
    assert.match(created.text, /not valid UTF-8/);
    assert.equal(await countRows(s.db, 'nodes'), before);
    const patched = await postBytes(s.url, `/v1/nodes/${uuid}`, Buffer.concat([
      Buffer.from('[{"op": "add", "path": "/extra/bad", "value": "a'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]')]));
    assert.equal(patched.status, 400, patched.text);
    assert.equal((await extraOf(uuid)).bad, undefined);
    const good = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: [{ op: 'add', path: '/extra/ok', value: 'é✓' }] });
    assert.equal(good.status, 200, good.text);
    assert.equal((await extraOf(uuid)).ok, 'é✓');
  });

  it('answers fields naming no node attribute with a 400', async () => {
    for (const query of ['fields=uuid,(select%20sqlite_version())', 'fields=uuid,nope', 'fields=__proto__']) {
      const res = await s.request('GET', `/v1/nodes?${query}`, { version: V });
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.match(faultOf(res.json), /^Field\(s\) ".*" are not valid$/);
    }
  });

  it('answers a request line of 8 KiB or more with a 414, and overlong headers with a 431', async () => {
    const repeated = Array.from({ length: 10000 }, () => 'fields=uuid').join('&');
    const justOver = `/v1/nodes?name=${'a'.repeat(8192 - '/v1/nodes?name='.length - 'GET  HTTP/1.1\r\n'.length)}`;
    for (const path of [`/v1/nodes?${repeated}`, justOver]) {
      const res = await s.request('GET', path, { version: V });
      assert.equal(res.status, 414, `${path.length}: ${res.text}`);
      assert.equal(res.text, '');
    }
    const justUnder = await s.request('GET', `/v1/nodes?fields=${'uuid,'.repeat(1600)}uuid`, { version: V });
    assert.equal(justUnder.status, 200, justUnder.text);
    const headers = await s.request('GET', '/v1/nodes', { version: V, headers: { 'X-Big': 'b'.repeat(20000) } });
    assert.equal(headers.status, 431);
    const still = await s.request('GET', `/v1/nodes/${uuid}`, { version: V });
    assert.equal(still.status, 200, still.text);
  });
});
