/**
 * api-ref/ is generated from the routers and schemas: it must be current, describe every route,
 * and its version claims must match what the server does.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildHtml, buildOpenApi } from '../../../src/api/openapi/document';
import { startTestServer, TestServer } from '../support/server';

const API_REF = path.resolve(__dirname, '..', '..', '..', '..', 'api-ref');
type Spec = { paths: Record<string, Record<string, { 'x-min-version': string; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>> };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.stop();
});

test('api-ref/ is up to date with the routers and schemas (run dist/src/cmd/ironic-api-ref.js)', () => {
  const spec = buildOpenApi();
  assert.equal(fs.readFileSync(path.join(API_REF, 'openapi.json'), 'utf8'), JSON.stringify(spec, null, 2) + '\n');
  assert.equal(fs.readFileSync(path.join(API_REF, 'index.html'), 'utf8'), buildHtml(spec));
});

test('request schemas come from the validators the server uses', () => {
  const spec = buildOpenApi() as unknown as Spec;
  const nodeBody = spec.paths['/v1/nodes'].post.requestBody?.content['application/json'].schema;
  assert.equal(nodeBody?.additionalProperties, false);
  assert.ok((nodeBody?.properties as Record<string, unknown>).driver);
  assert.ok(spec.paths['/v1/ports'].post.requestBody);
});

test('collection endpoints are hidden (404) just below the version api-ref claims, and served from it', async () => {
  const spec = buildOpenApi() as unknown as Spec;
  const gated = Object.entries(spec.paths)
    .filter(([p, ops]) => !p.includes('{') && p !== '/v1/lookup' && ops.get && ops.get['x-min-version'] !== '1.1')
    .map(([p, ops]) => [p, Number(ops.get['x-min-version'].split('.')[1])] as const);
  assert.ok(gated.length >= 8, `expected several gated collections, got ${gated.length}`);
  for (const [urlPath, minor] of gated) {
    const below = await server.request('GET', urlPath, { version: `1.${minor - 1}` });
    assert.equal(below.status, 404, `${urlPath} at 1.${minor - 1}`);
    const at = await server.request('GET', urlPath, { version: `1.${minor}` });
    assert.equal(at.status, 200, `${urlPath} at 1.${minor}: ${at.text}`);
  }
});
