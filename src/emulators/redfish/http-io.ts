// Byte-level I/O of the emulator: bounded request bodies, JSON replies, ETags.

import { createHash } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorHttpError, RedfishObject, errorBody, isJsonObject } from './messages';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new EmulatorHttpError(413, 'PayloadTooLarge', `The request body exceeds ${maxBytes} bytes.`, [], { Connection: 'close' }));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** An empty body is "no body" (actions like EjectMedia are often posted without one). */
export function parseJsonBody(raw: Buffer): RedfishObject | null {
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new EmulatorHttpError(400, 'MalformedJSON', 'The request body submitted was malformed JSON and could not be parsed by the receiving service.');
  }
  if (parsed === null) return null;
  if (!isJsonObject(parsed)) throw new EmulatorHttpError(400, 'MalformedJSON', 'The request body must be a JSON object.');
  return parsed;
}

export function etagOf(body: RedfishObject): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 16)}"`;
}

/** Weak comparison (RFC 7232): W/ prefixes are ignored; "*" matches anything. */
export function ifMatchSatisfied(header: string, etag: string): boolean {
  const bare = (t: string): string => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

export function sendJson(res: ServerResponse, status: number, body: RedfishObject | undefined, headers: Record<string, string>): void {
  const payload = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'OData-Version': '4.0',
    'Cache-Control': 'no-cache',
    ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Content-Length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}

export function sendError(res: ServerResponse, err: unknown): number {
  if (err instanceof EmulatorHttpError) {
    sendJson(res, err.status, errorBody(err.messageId, err.message, err.relatedProperties), err.headers);
    return err.status;
  }
  const message = err instanceof Error ? err.message : String(err);
  sendJson(res, 500, errorBody('InternalError', `The request failed due to an internal service error: ${message}`), {});
  return 500;
}
