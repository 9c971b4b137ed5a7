/**
 * HTTP(S) to the agent with the TLS verification Ironic's agent_client uses (_get_verify): the CA
 * the agent sent with its heartbeat (driver_internal_info.agent_verify_ca, a stored file), else
 * driver_info.agent_verify_ca, else [agent]verify_ca; each a boolean word or a CA file's path.
 * IPA 10.2 generates a self-signed certificate for its address at start, so its callback URL is
 * https:// and only that certificate proves the agent is the one that heartbeated.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { InvalidParameterValue } from '../../common/errors';
import type { Config } from '../../conf/config';
import type { NodeRecord } from '../../db/models';

/** true: the system CAs; false: no verification; a string: the CA file. */
type AgentVerify = boolean | string;

const TRUE_WORDS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

export function agentVerify(conf: Config, node: Pick<NodeRecord, 'driver_internal_info' | 'driver_info'>): AgentVerify {
  let value: unknown = (node.driver_internal_info ?? {}).agent_verify_ca;
  if (value === undefined || value === null) value = (node.driver_info ?? {}).agent_verify_ca;
  if (value === undefined || value === null) value = conf.str('agent', 'verify_ca');
  if (typeof value === 'boolean') return value;
  const text = String(value);
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  if (!existsSync(text)) throw new InvalidParameterValue(`Agent CA ${text} is neither a path nor a boolean`);
  return text;
}

interface AgentRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  verify: AgentVerify;
}

function tlsOptions(verify: AgentVerify): https.RequestOptions {
  if (verify === true) return {};
  if (verify === false) return { rejectUnauthorized: false };
  return { ca: readFileSync(verify, 'utf8'), rejectUnauthorized: true };
}

/** One request; the answer as a fetch Response. Network and TLS failures reject. */
export function agentHttp(url: string, req: AgentRequest): Promise<Response> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const send = secure ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const r = send(target, {
      method: req.method, headers: req.headers, signal: AbortSignal.timeout(req.timeoutMs), agent: false,
      ...(secure ? tlsOptions(req.verify) : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500 })));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}
