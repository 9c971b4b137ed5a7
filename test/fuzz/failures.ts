/**
 * Failures are collected, not thrown, so one run reports every class of bug. A class is the
 * route, the status and the first line of the message with its variable parts blanked out.
 */
export type FailureKind = '5xx' | 'no response' | 'secret in body' | 'secret in header' | 'secret in log'
  | 'prototype changed' | 'known-good request';

export interface Failure {
  kind: FailureKind;
  route: string;
  status: number | null;
  message: string;
  /** How to replay it (see describeRequest), or what was in flight. */
  request: string;
}

interface FailureClass {
  first: Failure;
  count: number;
}

/** The first line, with UUIDs, numbers and quoted or bracketed parts made generic. */
export function messageClass(message: string): string {
  return (message.split('\n')[0] ?? '')
    .replace(/[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi, '<uuid>')
    .replace(/'[^']*'|"[^"]*"/g, "'…'")
    .replace(/\d+/g, 'N')
    .slice(0, 140);
}

export class FailureLog {
  private readonly classes = new Map<string, FailureClass>();
  total = 0;

  add(failure: Failure): void {
    this.total++;
    const key = `${failure.kind} | ${failure.route} | ${failure.status ?? '-'} | ${messageClass(failure.message)}`;
    const known = this.classes.get(key);
    if (known) known.count++;
    else this.classes.set(key, { first: failure, count: 1 });
  }

  get classCount(): number {
    return this.classes.size;
  }

  /** One paragraph per class, the first example's request included; at most `limit` classes. */
  summary(limit = 80): string {
    const entries = [...this.classes.values()].sort((a, b) => a.first.kind.localeCompare(b.first.kind) || a.first.route.localeCompare(b.first.route));
    const lines = entries.slice(0, limit).map(({ first, count }, i) =>
      `${i + 1}. [${first.kind}] ${first.route} → ${first.status ?? 'no status'} (×${count})\n   ${first.message.split('\n').slice(0, 3).join('\n').slice(0, 600)}\n   ${first.request}`);
    const more = entries.length > limit ? `\n… and ${entries.length - limit} more classes` : '';
    return `${this.total} failures in ${entries.length} classes:\n${lines.join('\n')}${more}`;
  }

  toJSON(): Array<Failure & { count: number }> {
    return [...this.classes.values()].map(({ first, count }) => ({ ...first, count }));
  }
}
