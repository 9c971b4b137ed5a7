/**
 * Reads and parses JSON request bodies with a size cap: 1 MiB in general, 64 MiB for provisioning
 * (configdrives), as Ironic limits them. Bytes that are not UTF-8, nesting past MAX_JSON_DEPTH and
 * numbers a double would change are refused with a 400 before any handler sees the body. A DELETE body
 * only carries arguments (see deleteParams): one pecan cannot read is ignored, as pecan ignores it.
 */
import type * as http from 'node:http';
import type { Middleware } from 'koa';
import { InvalidParameterValue, httpBadRequest, httpTooLarge } from '../../common/errors';
import { checkJsonText, JsonLimitError } from '../../common/json-limits';
import { BodyTooLarge, readLimited } from '../../common/read-limited';
import { emptyDict } from '../../common/own-keys';
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
    } else if (ctx.method === 'DELETE') {
      const raw = await readBody(ctx.req, limits.general);
      if (raw.length > 0) {
        ctx.state.deleteParams = deleteParams(mediaType(ctx.get('Content-Type')), raw);
        // What @method.body hands a vendor passthru call (pecan's request.json, whatever the Content-Type).
        ctx.state.body = jsonOrUndefined(raw);
      }
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

function mediaType(header: string): string {
  return header.split(';')[0].trim().toLowerCase();
}

/**
 * pecan's reading of a DELETE body: a JSON object's members when the request says JSON (anything else
 * there, malformed or not an object, is ignored), form fields when it says it is a form (webob), else nothing.
 */
function deleteParams(type: string, raw: Buffer): Record<string, unknown[]> | undefined {
  const params = emptyDict<unknown[]>();
  if (type === 'application/json' || type === 'application/javascript') {
    const value = jsonOrUndefined(raw);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    for (const [key, member] of Object.entries(value)) params[key] = [member];
  } else if (type === 'application/x-www-form-urlencoded') {
    for (const [key, field] of new URLSearchParams(raw.toString('utf8'))) {
      params[key] = Object.hasOwn(params, key) ? [...params[key], field] : [field];
    }
  } else {
    return undefined;
  }
  return params;
}

/** The body's JSON value; undefined when it is not UTF-8 or not JSON (webob's ValueError, which pecan catches). */
function jsonOrUndefined(raw: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(raw);
    const value: unknown = JSON.parse(text);
    checkJsonText(text);
    return value;
  } catch (err) {
    if (err instanceof JsonLimitError) throw new InvalidParameterValue(err.message);
    return undefined;
  }
}
