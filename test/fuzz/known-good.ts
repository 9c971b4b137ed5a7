/**
 * After the fuzzing, the server must still answer a plain request: the sentinel node (which no
 * generated request named) is shown, with its secrets masked, and listed.
 */
import type { FailureLog } from './failures';
import type { FuzzFixtures } from './fixtures';
import { describeRequest, FuzzRequest, FuzzResponse } from './http';
import { findSecrets } from './secrets';

const HEADERS: Array<[string, string]> = [['X-OpenStack-Ironic-API-Version', '1.82']];

export async function checkKnownGood(fx: FuzzFixtures, failures: FailureLog,
  exchange: (req: FuzzRequest) => Promise<FuzzResponse | null>): Promise<void> {
  const show: FuzzRequest = { route: 'GET /v1/nodes/:node_ident', method: 'GET', url: `/v1/nodes/${fx.sentinel.uuid}`, headers: HEADERS, body: null };
  const list: FuzzRequest = { route: 'GET /v1/nodes', method: 'GET', url: '/v1/nodes', headers: HEADERS, body: null };
  for (const [req, expect] of [[show, (j: unknown) => (j as { uuid?: string }).uuid === fx.sentinel.uuid],
    [list, (j: unknown) => ((j as { nodes?: Array<{ uuid: string }> }).nodes ?? []).some((n) => n.uuid === fx.sentinel.uuid)]] as const) {
    const res = await exchange(req);
    const problem = !res ? 'no answer' : res.status !== 200 ? `status ${res.status}`
      : !expect(parseOrNull(res.body)) ? 'the sentinel node is missing' : findSecrets(res.body).join('; ') || null;
    if (problem) failures.add({ kind: 'known-good request', route: req.route, status: res?.status ?? null, message: problem, request: describeRequest(req) });
  }
}

function parseOrNull(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
