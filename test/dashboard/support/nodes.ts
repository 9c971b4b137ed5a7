/** Driving fake-hardware nodes through the API for the stream tests. */
import assert from 'node:assert/strict';

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.96', 'Content-Type': 'application/json' };

export async function api(base: string, method: string, route: string, body?: unknown,
  headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${route}`, {
    method, headers: { ...HEADERS, ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) as Record<string, unknown> : {} };
}

export async function createNode(base: string, fields: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const created = await api(base, 'POST', '/v1/nodes', { driver: 'fake-hardware', ...fields }, headers);
  assert.equal(created.status, 201, JSON.stringify(created.json));
  return String(created.json.uuid);
}

export async function provisionVerb(base: string, uuid: string, target: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await api(base, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target }, headers);
  assert.equal(res.status, 202, JSON.stringify(res.json));
}
