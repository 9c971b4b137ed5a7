/** A small REST client for the v1 API at microversion 1.82, tolerant of outages (status 0 = no answer). */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

export interface NodeView {
  uuid: string;
  provision_state: string;
  target_provision_state: string | null;
  reservation: string | null;
  conductor: string | null;
  last_error: string | null;
}

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

export async function request(baseUrl: string, method: string, path: string, body?: unknown, timeoutMs = 60000): Promise<Reply> {
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: 0, body: {} };
  }
}

export async function createNode(baseUrl: string, name: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const reply = await request(baseUrl, 'POST', '/v1/nodes', { driver: 'fake-hardware', name });
    if (reply.status === 201) return String(reply.body.uuid);
    if (reply.status === 409) return String((await request(baseUrl, 'GET', `/v1/nodes/${name}`)).body.uuid);
  }
  throw new Error(`could not create node ${name}`);
}

export function setProvisionState(baseUrl: string, uuid: string, target: string, extra: Record<string, unknown> = {}): Promise<Reply> {
  return request(baseUrl, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target, ...extra });
}

export async function getNode(baseUrl: string, uuid: string): Promise<NodeView | null> {
  const reply = await request(baseUrl, 'GET', `/v1/nodes/${uuid}`);
  return reply.status === 200 ? (reply.body as unknown as NodeView) : null;
}

const LIST_FIELDS = 'uuid,provision_state,target_provision_state,reservation,last_error';

/** Every node, following next links; null when the API did not answer 200 on some page. */
export async function listNodes(baseUrl: string): Promise<NodeView[] | null> {
  const out: NodeView[] = [];
  let next: string | undefined = `/v1/nodes?fields=${LIST_FIELDS}&limit=1000`;
  while (next) {
    const reply = await request(baseUrl, 'GET', next);
    if (reply.status !== 200) return null;
    out.push(...(reply.body.nodes as NodeView[]));
    next = typeof reply.body.next === 'string' ? new URL(reply.body.next).pathname + new URL(reply.body.next).search : undefined;
  }
  return out;
}
