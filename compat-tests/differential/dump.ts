// Markdown dump of raw reference answers, the source of the notes' appendix.
import type { StepOutcome } from './runner';

const DUMPED_HEADERS = [
  'x-openstack-ironic-api-minimum-version',
  'x-openstack-ironic-api-maximum-version',
  'x-openstack-ironic-api-version',
  'location',
  'allow',
  'content-type',
  'openstack-request-id',
];

export function dumpMarkdown(outcomes: StepOutcome[]): string {
  const parts = ['# Reference responses, one per case\n'];
  for (const o of outcomes) {
    const headers = DUMPED_HEADERS.filter((h) => o.raw.headers[h] !== undefined).map((h) => `${h}: ${o.raw.headers[h] ?? ''}`);
    parts.push(`### [${o.group}] ${o.name} (${o.elapsedMs} ms)\n\`${o.request}\`\n\n\`\`\`\n${o.raw.status}\n${headers.join('\n')}\n\n${clip(o.raw.bodyText)}\n\`\`\`\n`);
  }
  return parts.join('\n');
}

const DUMP_BODY_LIMIT = 6000;

function clip(s: string): string {
  return s.length > DUMP_BODY_LIMIT ? `${s.slice(0, DUMP_BODY_LIMIT)}…(${s.length} chars)` : s;
}
