/**
 * Reads and parses JSON request bodies with a size cap: 1 MiB in general, 64 MiB for provisioning
 * (configdrives), as Ironic limits them. Bodies are read only for methods that carry one. Bytes
 * that are not UTF-8, nesting past MAX_JSON_DEPTH and numbers a double would change are refused
 * with a 400 before any handler sees the body.
 */
import type { Middleware } from 'koa';
import { InvalidParameterValue, httpBadRequest, httpTooLarge } from '../../common/errors';
import { checkJsonText, JsonLimitError } from '../../common/json-limits';
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
      const raw = await readLimited(ctx.req, limit, Number(ctx.get('content-length') || 0));
      if (raw.length > 0) ctx.state.body = parseJson(decodeUtf8(raw));
    }
    await next();
  };
}

function readLimited(req: NodeJS.ReadableStream, limit: number, declared: number): Promise<Buffer> {
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number) {
  return httpTooLarge(`Request body is larger than the limit of ${limit} bytes.`);
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
