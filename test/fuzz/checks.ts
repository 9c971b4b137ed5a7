/** The properties every answer must have: no 5xx, and no secret in its body or headers. */
import type { Failure } from './failures';
import { describeRequest, FuzzRequest, FuzzResponse } from './http';
import { carriesMark, findSecrets } from './secrets';

/** Ironic's fault text (error_message holds JSON with a faultstring), else the body's first line. */
export function faultText(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const outer = JSON.parse(text) as { error_message?: unknown };
    if (typeof outer.error_message === 'string') {
      const inner = JSON.parse(outer.error_message) as { faultstring?: unknown };
      if (typeof inner.faultstring === 'string') return inner.faultstring;
    }
  } catch {
    // Not a fault document: the raw text is the message.
  }
  return text.slice(0, 500) || '(empty body)';
}

/**
 * A BMC's own refusal or failure: the fixtures' BMC nodes talk to real protocol peers (one with a
 * wrong password), and a BMC that refuses a command is a failure of that peer, which Ironic too
 * reports as a 500 (IPMIFailure, RedfishError). Any other 5xx is a defect of the API.
 */
const PEER_FAILURES: readonly RegExp[] = [/^IPMI call failed: /, /^Redfish exception occurred\. /, /^Redfish connection failed /];

export function isPeerFailure(message: string): boolean {
  return PEER_FAILURES.some((re) => re.test(message));
}

/** `explained`: for a HEAD, the same request's GET answer, whose body says what failed. */
export function checkResponse(req: FuzzRequest, res: FuzzResponse, explained?: FuzzResponse): Failure[] {
  const failures: Failure[] = [];
  const base = { route: req.route, status: res.status, request: describeRequest(req) };
  const fault = res.status >= 500 ? faultText((explained ?? res).body) : '';
  if (res.status >= 500 && !(res.status === 500 && isPeerFailure(fault))) failures.push({ ...base, kind: '5xx', message: fault });
  if (carriesMark([req.url, req.body ?? '', ...req.headers.flat()])) return failures;
  for (const leak of findSecrets(res.body)) failures.push({ ...base, kind: 'secret in body', message: leak });
  for (const [name, value] of Object.entries(res.headers)) {
    for (const leak of findSecrets(`${name}: ${String(value)}`)) failures.push({ ...base, kind: 'secret in header', message: leak });
  }
  return failures;
}
