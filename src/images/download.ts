/**
 * Streams an image (http(s):// or file://) into a local file, feeding a
 * checksum verifier and a progress callback on the way.
 */
import { splitUrlCredentials } from '../common/url-credentials';
import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { StreamVerifier } from './checksum';

export interface DownloadProgress {
  bytes: number;
  /** From Content-Length or file size, when known. */
  total?: number;
}

export type ProgressCallback = (p: DownloadProgress) => void;

export class ImageDownloadError extends Error {
  override readonly name = 'ImageDownloadError';
}

async function openSource(url: string, headers: Record<string, string>): Promise<{ stream: Readable; total?: number }> {
  if (/^file:\/\//i.test(url)) {
    const file = fileURLToPath(url);
    const st = await fsp.stat(file).catch(() => undefined);
    if (!st?.isFile()) throw new ImageDownloadError(`image file ${file} not found`);
    return { stream: createReadStream(file), total: st.size };
  }
  if (!/^https?:\/\//i.test(url)) throw new ImageDownloadError(`unsupported image URL ${url}`);
  let res: Response;
  try {
    const plain = splitUrlCredentials(url, headers);
    res = await fetch(plain.href, { headers: plain.headers });
  } catch (err) {
    throw new ImageDownloadError(`cannot download ${url}: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new ImageDownloadError(`cannot download ${url}: HTTP ${res.status}`);
  const len = Number(res.headers.get('content-length'));
  const stream = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  return Number.isFinite(len) && len > 0 ? { stream, total: len } : { stream };
}

export async function downloadTo(
  url: string, dest: string, verifier: StreamVerifier | undefined, onProgress: ProgressCallback, headers: Record<string, string> = {},
): Promise<number> {
  const { stream, total } = await openSource(url, headers);
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      verifier?.update(chunk);
      onProgress(total === undefined ? { bytes } : { bytes, total });
      done(null, chunk);
    },
  });
  try {
    await pipeline(stream, tap, createWriteStream(dest, { mode: 0o644 }));
  } catch (err) {
    throw new ImageDownloadError(`download of ${url} failed: ${(err as Error).message}`);
  }
  if (total !== undefined && bytes !== total) throw new ImageDownloadError(`short download of ${url}: ${bytes} of ${total} bytes`);
  return bytes;
}

/** Small text documents (checksum files). */
export async function fetchText(url: string): Promise<string> {
  if (/^file:\/\//i.test(url)) return fsp.readFile(fileURLToPath(url), 'utf8');
  const plain = splitUrlCredentials(url);
  const res = await fetch(plain.href, { headers: plain.headers }).catch((err: Error) => {
    throw new ImageDownloadError(`cannot download ${url}: ${err.message}`);
  });
  if (!res.ok) throw new ImageDownloadError(`cannot download ${url}: HTTP ${res.status}`);
  return res.text();
}
