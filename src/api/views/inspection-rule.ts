/**
 * An inspection rule as Ironic 2025.1 shows it (inspection_rule.py convert_with_links): the links
 * name the resource "inspection", as upstream's do; a sensitive rule hides its conditions and
 * actions.
 */
import type { InspectionRuleRecord } from '../../db/models';
import { checkInvalidFields, isoformat, links, sanitize } from './resource-dict';

type Operation = Record<string, unknown>;

function hasItems(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** convert_actions: op and args, and loop when non-empty. */
function actionView(action: Operation): Operation {
  const out: Operation = { op: action.op, args: action.args };
  if (hasItems(action.loop)) out.loop = action.loop;
  return out;
}

/** convert_conditions: op and args, and loop with its `multiple` (default any) when looping. */
function conditionView(condition: Operation): Operation {
  const out: Operation = { op: condition.op, args: condition.args };
  if (hasItems(condition.loop)) {
    out.loop = condition.loop;
    out.multiple = condition.multiple ?? 'any';
  }
  return out;
}

export function ruleDict(base: string, rule: InspectionRuleRecord): Record<string, unknown> {
  return {
    uuid: rule.uuid,
    created_at: isoformat(rule.created_at),
    updated_at: isoformat(rule.updated_at),
    description: rule.description,
    priority: rule.priority,
    sensitive: rule.sensitive,
    phase: rule.phase,
    conditions: ((rule.conditions ?? []) as Operation[]).map(conditionView),
    actions: (rule.actions as Operation[]).map(actionView),
    links: links(base, 'inspection', rule.uuid),
  };
}

/** rules_sanitize: a sensitive rule's conditions and actions are null, then only `fields` stay. */
export function sanitizeRule(dict: Record<string, unknown>, fields: readonly string[] | null): void {
  if (dict.sensitive) {
    dict.conditions = null;
    dict.actions = null;
  }
  sanitize(dict, fields);
}

export function ruleView(base: string, rule: InspectionRuleRecord, fields: readonly string[] | null): Record<string, unknown> {
  const dict = ruleDict(base, rule);
  checkInvalidFields(fields, Object.keys(dict));
  sanitizeRule(dict, fields);
  return dict;
}
