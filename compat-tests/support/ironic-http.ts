/** Plain HTTP calls to a noauth ironic-ts at the latest microversion, for the observability tests. */
import assert from 'node:assert/strict';

export async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; requestId: string | null }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': 'latest' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, requestId: res.headers.get('openstack-request-id') };
}

/** Waits until the node's provision state is `state` (and nothing is pending). */
export async function waitProvision(url: string, uuid: string, state: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const { json } = await api(url, 'GET', `/v1/nodes/${uuid}`);
    last = `${json.provision_state} -> ${json.target_provision_state} (${json.last_error})`;
    if (json.provision_state === state && json.target_provision_state === null && json.reservation === null) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`node ${uuid} did not reach ${state}: ${last}`);
}

/** Sends a provision verb and waits for the state it leads to. */
export async function provision(url: string, uuid: string, target: string, reach: string, body: Record<string, unknown> = {}): Promise<void> {
  const r = await api(url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target, ...body });
  assert.equal(r.status, 202, JSON.stringify(r.json));
  await waitProvision(url, uuid, reach);
}
