/** Portgroup request bodies (api/controllers/v1/portgroup.py PORTGROUP_SCHEMA and its validators). */
import { andValid, boolean, dictValid, macAddress, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';
import { V } from '../versions';

export const PORTGROUP_SCHEMA: Schema = {
  type: 'object',
  properties: {
    address: { type: ['string', 'null'] },
    extra: { type: ['object', 'null'] },
    mode: { type: ['string', 'null'], minVersion: V.PORTGROUP_MODE_PROPERTIES },
    name: { type: ['string', 'null'] },
    node_uuid: { type: 'string' },
    properties: { type: ['object', 'null'], minVersion: V.PORTGROUP_MODE_PROPERTIES },
    standalone_ports_supported: { type: ['string', 'boolean', 'null'] },
    uuid: { type: ['string', 'null'] },
  },
  required: ['node_uuid'],
  additionalProperties: false,
};

export const PORTGROUP_PATCH_ALLOWED_FIELDS = [
  'address', 'extra', 'mode', 'name', 'node_uuid', 'properties', 'standalone_ports_supported',
] as const;

export const PORTGROUP_VALIDATOR: Validator = andValid(schema(PORTGROUP_SCHEMA), dictValid({
  address: macAddress,
  node_uuid: uuid,
  standalone_ports_supported: boolean,
  uuid,
}));
