/** Runbook request bodies (api/controllers/v1/runbook.py RUNBOOK_SCHEMA, api utils RUNBOOK_STEP_SCHEMA). */
import { andValid, dictValid, schema, uuid, type Validator } from './args';
import { duplicateSteps } from './deploy-template';
import type { Schema } from './jsonschema';
import { STEP_INTERFACES } from '../../common/step-interfaces';
import { TRAIT_SCHEMA } from './node';

/** A runbook step: ordered by `order` rather than prioritised; interfaces as cleaning knows them. */
export const RUNBOOK_STEP_SCHEMA: Schema = {
  type: 'object',
  properties: {
    args: { type: 'object' },
    interface: { type: 'string', enum: [...STEP_INTERFACES] },
    step: { type: 'string', minLength: 1 },
    order: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, pattern: '^[0-9]+$' }] },
  },
  required: ['interface', 'step', 'order'],
  additionalProperties: false,
};

export const RUNBOOK_SCHEMA: Schema = {
  type: 'object',
  properties: {
    uuid: { type: ['string', 'null'] },
    name: TRAIT_SCHEMA,
    description: { type: ['string', 'null'], maxLength: 255 },
    steps: { type: 'array', items: RUNBOOK_STEP_SCHEMA, minItems: 1 },
    disable_ramdisk: { type: ['boolean', 'null'] },
    extra: { type: ['object', 'null'] },
    public: { type: ['boolean', 'null'] },
    owner: { type: ['string', 'null'], maxLength: 255 },
  },
  required: ['steps', 'name'],
  additionalProperties: false,
};

export const RUNBOOK_PATCH_ALLOWED_FIELDS = ['extra', 'name', 'steps', 'description', 'public', 'owner'] as const;

export const RUNBOOK_VALIDATOR: Validator = andValid(schema(RUNBOOK_SCHEMA), duplicateSteps, dictValid({ uuid }));
