/** Shared pieces of the side-by-side benchmarks: timing, percentiles, RSS, and a bounded request pool. */
import * as fs from 'node:fs';
import * as http from 'node:http';

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function median(samples: number[]): number {
  return percentile(samples, 50);
}

/** Peak resident set (VmHWM) of a process and its children's tree root, in MiB. */
export function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Runs `count` jobs with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      await job(i);
    }
  });
  await Promise.all(workers);
}

/** A GET whose body comes back as bytes, unparsed; keep-alive through a shared agent. */
export function getBytes(url: string, version = '1.82'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: KEEP_ALIVE, headers: { 'X-OpenStack-Ironic-API-Version': version } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`GET ${url}: ${res.statusCode} ${body.subarray(0, 500).toString()}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * A JSON POST through the shared keep-alive agent; resolves with the status and the body's bytes.
 * The benchmarks post with node:http rather than fetch: undici's per-request cost was a third of
 * the client's CPU, which shares the machine's two cores with the server being measured.
 */
export function postJson(url: string, body: unknown, version = '1.82'): Promise<{ status: number; body: Buffer }> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: KEEP_ALIVE,
      headers: { 'Content-Type': 'application/json', 'Content-Length': data.length, 'X-OpenStack-Ironic-API-Version': version },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** Occurrences of `needle` in `body`, found natively (no decoding of the body). */
export function countBytes(body: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + needle.length)) n++;
  return n;
}

const KEEP_ALIVE = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function ratio(reference: number, ours: number): string {
  return `${(reference / ours).toFixed(1)}x`;
}
