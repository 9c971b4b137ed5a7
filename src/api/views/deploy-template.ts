/** A deploy template as Ironic shows it (deploy_template.py convert_with_links), step args masked. */
import type { DeployTemplateWithSteps } from '../../db/models';
import { maskDictPassword } from '../../common/mask';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

export function templateDict(base: string, t: DeployTemplateWithSteps): Record<string, unknown> {
  return {
    uuid: t.uuid,
    created_at: isoformat(t.created_at),
    updated_at: isoformat(t.updated_at),
    name: t.name,
    extra: t.extra ?? {},
    links: links(base, 'deploy_templates', t.uuid),
    steps: t.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, priority: s.priority })),
  };
}

export function sanitizeTemplate(dict: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  sanitize(dict, fields);
  const steps = dict.steps as { args: Record<string, unknown> }[] | undefined;
  for (const step of steps ?? []) {
    if (step.args && Object.keys(step.args).length) step.args = maskDictPassword(step.args);
  }
  return dict;
}

export function templateView(base: string, t: DeployTemplateWithSteps, fields: readonly string[] | null): Record<string, unknown> {
  const dict = templateDict(base, t);
  checkInvalidFields(fields, Object.keys(dict));
  return sanitizeTemplate(dict, fields);
}
