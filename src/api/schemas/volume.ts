/** Volume connector and target request bodies (volume_connector.py / volume_target.py schemas). */
import { andValid, dictValid, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';

export const CONNECTOR_SCHEMA: Schema = {
  type: 'object',
  properties: {
    connector_id: { type: 'string' },
    extra: { type: ['object', 'null'] },
    node_uuid: { type: 'string' },
    type: { type: 'string' },
    uuid: { type: ['string', 'null'] },
  },
  required: ['connector_id', 'node_uuid', 'type'],
  additionalProperties: false,
};

export const TARGET_SCHEMA: Schema = {
  type: 'object',
  properties: {
    boot_index: { type: 'integer' },
    extra: { type: ['object', 'null'] },
    node_uuid: { type: 'string' },
    properties: { type: ['object', 'null'] },
    volume_id: { type: 'string' },
    volume_type: { type: 'string' },
    uuid: { type: ['string', 'null'] },
  },
  required: ['boot_index', 'node_uuid', 'volume_id', 'volume_type'],
  additionalProperties: false,
};

export const CONNECTOR_PATCH_ALLOWED_FIELDS = ['connector_id', 'extra', 'node_uuid', 'type'] as const;
export const TARGET_PATCH_ALLOWED_FIELDS = ['boot_index', 'extra', 'node_uuid', 'properties', 'volume_id', 'volume_type'] as const;

export const CONNECTOR_VALIDATOR: Validator = andValid(schema(CONNECTOR_SCHEMA), dictValid({ node_uuid: uuid, uuid }));
export const TARGET_VALIDATOR: Validator = andValid(schema(TARGET_SCHEMA), dictValid({ node_uuid: uuid, uuid }));
