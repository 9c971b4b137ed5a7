/** Allocation request bodies (api/controllers/v1/allocation.py ALLOCATION_SCHEMA). */
import { andValid, dictValid, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';
import { TRAIT_SCHEMA } from './node';
import { V } from '../versions';

export const ALLOCATION_SCHEMA: Schema = {
  type: 'object',
  properties: {
    candidate_nodes: { type: ['array', 'null'], items: { type: 'string' } },
    extra: { type: ['object', 'null'] },
    name: { type: ['string', 'null'] },
    node: { type: ['string', 'null'], minVersion: V.ALLOCATION_BACKFILL },
    owner: { type: ['string', 'null'], minVersion: V.ALLOCATION_OWNER },
    resource_class: { type: ['string', 'null'], maxLength: 80 },
    traits: { type: ['array', 'null'], items: TRAIT_SCHEMA },
    uuid: { type: ['string', 'null'] },
  },
  additionalProperties: false,
};

export const ALLOCATION_PATCH_ALLOWED_FIELDS = ['name', 'extra'] as const;

export const ALLOCATION_VALIDATOR: Validator = andValid(schema(ALLOCATION_SCHEMA), dictValid({ uuid }));
