/**
 * An inspection rule's schema and checks (common/inspection_rules/validation.py): the JSON schema
 * the API validates bodies with, then validate_rule's phase, priority and per-operation argument
 * checks. Built-in rules (loaded by the conductor) pass the same checks, with any priority.
 */
import { Invalid, InspectionRuleValidationFailure } from '../errors';
import type { Schema } from '../jsonschema';
import { validateArgs } from './arguments';
import { ACTIONS, OPERATORS, parseInvertedOperator } from './signatures';

const INSPECTION_PHASES = ['main'] as const;

const CONDITION_OPS = [...OPERATORS.keys(), ...[...OPERATORS.keys()].map((op) => `!${op}`)];

const CONDITIONS_SCHEMA: Schema = {
  title: 'Inspection rule conditions schema',
  type: 'array',
  minItems: 0,
  items: {
    type: 'object',
    required: ['op', 'args'],
    properties: {
      op: { description: 'Condition operator', enum: CONDITION_OPS },
      args: { description: 'Arguments for the condition', type: ['array', 'object'] },
      multiple: { description: 'How to treat multiple values', enum: ['any', 'all', 'first', 'last'] },
      loop: { description: 'Loop behavior for conditions', type: ['array', 'object'] },
    },
    additionalProperties: true,
  },
};

const ACTIONS_SCHEMA: Schema = {
  title: 'Inspection rule actions schema',
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['op', 'args'],
    properties: {
      op: { description: 'action operator', enum: [...ACTIONS.keys()] },
      args: { description: 'Arguments for the action', type: ['array', 'object'] },
      loop: { description: 'Loop behavior for actions', type: ['array', 'object'] },
    },
    additionalProperties: true,
  },
};

export const INSPECTION_RULE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    uuid: { type: ['string', 'null'] },
    priority: { type: 'integer', minimum: 0 },
    description: { type: ['string', 'null'], maxLength: 255 },
    sensitive: { type: ['boolean', 'null'] },
    phase: { type: ['string', 'null'], maxLength: 16 },
    conditions: CONDITIONS_SCHEMA,
    actions: ACTIONS_SCHEMA,
  },
  required: ['actions'],
  additionalProperties: false,
};

export interface RuleOperation { op: string; args: unknown; loop?: unknown; multiple?: string; [key: string]: unknown }

/** The rule as validate_rule sees it: a request body, a patched rule, or a built-in one. */
export interface RuleDict {
  priority?: number;
  phase?: string | null;
  conditions?: RuleOperation[] | null;
  actions: RuleOperation[];
  built_in?: boolean;
  [key: string]: unknown;
}

/**
 * validate_rule after the schema: errors are gathered, one or "Multiple validation errors
 * occurred: ..." (Invalid). An operation's bad arguments fail at once, as in Ironic, whose
 * InspectionRuleValidationFailure is not the ValueError it collects (there a 500, here a 400).
 */
export function validateRule(rule: RuleDict): void {
  const errors: string[] = [];
  const phase = Object.hasOwn(rule, 'phase') ? rule.phase : 'main';
  if (!(INSPECTION_PHASES as readonly unknown[]).includes(phase)) {
    errors.push(`Invalid phase: ${phase ?? 'None'}. Valid phases are: ${INSPECTION_PHASES.join(', ')}`);
  }
  const priority = rule.priority ?? 0;
  if (priority < 0 && !rule.built_in) errors.push('Priority cannot be negative for user-defined rules.');
  if (priority > 9999 && !rule.built_in) errors.push('Priority must be between 0 and 9999 for user-defined rules.');
  try {
    for (const condition of rule.conditions ?? []) {
      const { op } = parseInvertedOperator(condition.op);
      validateArgs(OPERATORS.get(op)!, Object.hasOwn(condition, 'args') ? condition.args : {});
    }
    for (const action of rule.actions) {
      validateArgs(ACTIONS.get(action.op)!, Object.hasOwn(action, 'args') ? action.args : {});
    }
  } catch (err) {
    // Ironic 2025.1 lets this escape as a 500; bad arguments are the client's fault.
    if (err instanceof InspectionRuleValidationFailure) throw new Invalid(err.message);
    throw err;
  }
  if (errors.length === 1) throw new Invalid(errors[0]);
  if (errors.length > 1) throw new Invalid(`Multiple validation errors occurred: ${errors.join('; ')}`);
}
