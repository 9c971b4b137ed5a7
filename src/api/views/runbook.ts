/** A runbook as Ironic shows it (runbook.py convert_with_links), step args masked. */
import type { RunbookWithRelations } from '../../db/models';
import { maskDictPassword } from '../../common/mask';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

/** A step as shown: its `order` as stored, or as the creating request gave it. */
export interface RunbookStepView {
  interface: string;
  step: string;
  args: Record<string, unknown> | null;
  order: number | string;
}

export function runbookDict(base: string, r: RunbookWithRelations, steps?: RunbookStepView[]): Record<string, unknown> {
  return {
    uuid: r.uuid,
    created_at: isoformat(r.created_at),
    updated_at: isoformat(r.updated_at),
    name: r.name,
    extra: r.extra ?? {},
    public: r.public,
    owner: r.owner,
    disable_ramdisk: r.disable_ramdisk,
    links: links(base, 'runbooks', r.uuid),
    steps: steps ?? r.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, order: s.order })),
  };
}

/** runbook_sanitize: only the requested fields, and no secret in step args. */
export function sanitizeRunbook(dict: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  sanitize(dict, fields);
  const steps = dict.steps as { args: Record<string, unknown> }[] | undefined;
  for (const step of steps ?? []) {
    if (step.args && Object.keys(step.args).length) step.args = maskDictPassword(step.args);
  }
  return dict;
}

export function runbookView(base: string, r: RunbookWithRelations, fields: readonly string[] | null,
  steps?: RunbookStepView[]): Record<string, unknown> {
  const dict = runbookDict(base, r, steps);
  checkInvalidFields(fields, Object.keys(dict));
  return sanitizeRunbook(dict, fields);
}
