/** Deploy template request bodies (api/controllers/v1/deploy_template.py TEMPLATE_SCHEMA + step checks). */
import { InvalidDeployTemplate } from '../../common/errors';
import { andValid, dictValid, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';
import { STEP_INTERFACES } from '../../common/step-interfaces';
import { TRAIT_SCHEMA } from './node';

/** api utils DEPLOY_STEP_SCHEMA; interfaces in conductor steps' DEPLOYING_INTERFACE_PRIORITY order. */
export const DEPLOY_STEP_SCHEMA: Schema = {
  type: 'object',
  properties: {
    args: { type: 'object' },
    interface: { type: 'string', enum: [...STEP_INTERFACES] },
    priority: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, pattern: '^[0-9]+$' }] },
    step: { type: 'string', minLength: 1 },
  },
  required: ['interface', 'step', 'args', 'priority'],
  additionalProperties: false,
};

export const TEMPLATE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    description: { type: ['string', 'null'], maxLength: 255 },
    extra: { type: ['object', 'null'] },
    name: TRAIT_SCHEMA,
    steps: { type: 'array', items: DEPLOY_STEP_SCHEMA, minItems: 1 },
    uuid: { type: ['string', 'null'] },
  },
  required: ['steps', 'name'],
  additionalProperties: false,
};

export const TEMPLATE_PATCH_ALLOWED_FIELDS = ['extra', 'name', 'steps', 'description'] as const;

/**
 * api utils duplicate_steps: a template (or runbook) may not name the same interface/step twice;
 * Ironic 2025.1 calls both a "template" in the message.
 */
export const duplicateSteps: Validator = (_name, value) => {
  if (value === null) return value;
  const steps = ((value as { steps?: { interface: string; step: string }[] }).steps ?? []);
  const counts = new Map<string, number>();
  for (const s of steps) {
    const key = `interface: ${s.interface}, step: ${s.step}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const dups = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  if (dups.length) {
    throw new InvalidDeployTemplate({ err: `Duplicate deploy steps. A template cannot have multiple deploy steps ` +
      `with the same interface and step. Duplicates: ${dups.join('; ')}` });
  }
  return value;
};

export const TEMPLATE_VALIDATOR: Validator = andValid(schema(TEMPLATE_SCHEMA), duplicateSteps, dictValid({ uuid }));
