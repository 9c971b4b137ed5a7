/**
 * A request body read whole, up to a size limit: the API's JSON bodies and the JSON-RPC server's
 * calls. Past the limit (or a Content-Length declaring more) the rest is drained unread and the
 * read fails with BodyTooLarge, so an oversized body is never buffered.
 */
import type * as http from 'node:http';

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request body is larger than the limit of ${limit} bytes`);
  }
}

export function readLimited(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] || 0) > limit) {
    req.resume();
    return Promise.reject(new BodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
