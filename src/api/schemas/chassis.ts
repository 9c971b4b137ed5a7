/** Chassis request bodies (api/controllers/v1/chassis.py CHASSIS_SCHEMA). */
import { andValid, dictValid, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';

export const CHASSIS_SCHEMA: Schema = {
  type: 'object',
  properties: {
    uuid: { type: ['string', 'null'] },
    extra: { type: ['object', 'null'] },
    description: { type: ['string', 'null'], maxLength: 255 },
  },
  additionalProperties: false,
};

/** Ironic passes the schema's property dict as the allowed list, so uuid is patchable (and then refused). */
export const CHASSIS_PATCH_ALLOWED_FIELDS = ['uuid', 'extra', 'description'] as const;

export const CHASSIS_VALIDATOR: Validator = andValid(schema(CHASSIS_SCHEMA), dictValid({ uuid }));
