/**
 * Reads and parses JSON request bodies with a size cap: 1 MiB in general, 64 MiB for provisioning
 * (configdrives), as Ironic limits them. Bodies are read only for methods that carry one. Bytes
 * that are not UTF-8, nesting past MAX_JSON_DEPTH and numbers a double would change are refused
 * with a 400 before any handler sees the body.
 */
import type * as http from 'node:http';
import type { Middleware } from 'koa';
import { InvalidParameterValue, httpBadRequest, httpTooLarge } from '../../common/errors';
import { checkJsonText, JsonLimitError } from '../../common/json-limits';
import { BodyTooLarge, readLimited } from '../../common/read-limited';
import type { ApiState } from '../state';

interface BodyLimits {
  general: number;
  provision: number;
}

const PROVISION_PATH = /\/states\/provision\/?$/;

export function jsonBody(limits: BodyLimits): Middleware<ApiState> {
  return async (ctx, next) => {
    ctx.state.body = undefined;
    if (ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') {
      const limit = PROVISION_PATH.test(ctx.path) ? limits.provision : limits.general;
      const raw = await readBody(ctx.req, limit);
      if (raw.length > 0) ctx.state.body = parseJson(decodeUtf8(raw));
    }
    await next();
  };
}

/** The shared reader's refusal as the API's 413 (webob's shape, after version negotiation). */
async function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readLimited(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw httpTooLarge(`${err.message}.`);
    throw err;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Strict decoding: Buffer's toString would turn invalid bytes into U+FFFD and store them. Ironic's
 * webob refuses such a body with a bare 400 of its own (no description); ours says why.
 */
function decodeUtf8(raw: Buffer): string {
  try {
    return UTF8.decode(raw);
  } catch {
    throw httpBadRequest('Request body is not valid UTF-8.');
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidParameterValue(`Malformed JSON in request body: ${(err as Error).message}`);
  }
  try {
    checkJsonText(text);
  } catch (err) {
    if (err instanceof JsonLimitError) throw new InvalidParameterValue(err.message);
    throw err;
  }
  return value;
}
