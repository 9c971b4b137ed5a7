/** Reads what the server logged since the last look and reports every line holding a secret. */
import * as fs from 'node:fs';
import type { Failure } from './failures';
import { describeRequest, FuzzRequest } from './http';
import { findSecrets } from './secrets';

/** Timestamp, pid and level: the prefix every log line starts with (src/common/log.ts). */
const PREFIX = /^\S+ \d+ (\w+) ironic-ts /;

export class LogWatcher {
  private offset = 0;
  /** Lines read so far: a run that logged nothing checked nothing. */
  lines = 0;

  constructor(private readonly file: string | null) {}

  /** Leaks in lines written since the last call, blamed on the requests given (those in flight). */
  newLeaks(inFlight: readonly FuzzRequest[]): Failure[] {
    const text = this.readNew();
    if (!text) return [];
    const failures: Failure[] = [];
    const lines = text.split('\n').filter((l) => l !== '');
    this.lines += lines.length;
    for (const line of lines) {
      const leaks = findSecrets(line);
      if (leaks.length === 0) continue;
      const shown = line.replace(PREFIX, '$1 ').slice(0, 300);
      failures.push({
        kind: 'secret in log', route: 'log', status: null, message: `${shown}\n      ${leaks.map((l) => l.split('\n')[0]).join(', ')}`,
        request: inFlight.map((r) => describeRequest(r, 300)).join('\n   ') || '(outside any batch)',
      });
    }
    return failures;
  }

  private readNew(): string {
    if (!this.file || !fs.existsSync(this.file)) return '';
    const size = fs.statSync(this.file).size;
    if (size <= this.offset) return '';
    const fd = fs.openSync(this.file, 'r');
    try {
      const buf = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  }
}
