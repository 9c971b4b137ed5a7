/** Port request bodies (api/controllers/v1/port.py PORT_SCHEMA and its validators). */
import { andValid, boolean, dictValid, macAddress, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';
import { LOCAL_LINK_VALIDATOR } from './local-link';
import { V } from '../versions';

export const PORT_SCHEMA: Schema = {
  type: 'object',
  properties: {
    address: { type: 'string' },
    extra: { type: ['object', 'null'] },
    is_smartnic: { type: ['string', 'boolean', 'null'], minVersion: V.SMARTNIC_PORT },
    local_link_connection: { type: ['null', 'object'], minVersion: V.PORT_ADVANCED_NET_FIELDS },
    node_ident: { type: 'string', minVersion: V.PORT_CREATE_WITH_NODE_NAME },
    node_uuid: { type: 'string' },
    physical_network: { type: ['string', 'null'], maxLength: 64, minVersion: V.PORT_PHYSICAL_NETWORK },
    portgroup_uuid: { type: ['string', 'null'], minVersion: V.PORTGROUP_SUBRESOURCES },
    pxe_enabled: { type: ['string', 'boolean', 'null'], minVersion: V.PORT_ADVANCED_NET_FIELDS },
    uuid: { type: ['string', 'null'] },
    name: { type: ['string', 'null'], minVersion: V.PORT_NAME },
  },
  required: ['address'],
  // The node is named once: by UUID, or (from 1.94) by UUID or name.
  oneOf: [{ required: ['node_ident'] }, { required: ['node_uuid'] }],
  additionalProperties: false,
};

export const PORT_PATCH_ALLOWED_FIELDS = [
  'address', 'extra', 'is_smartnic', 'local_link_connection', 'node_ident', 'node_uuid', 'physical_network', 'portgroup_uuid',
  'pxe_enabled', 'name',
] as const;

const PORT_VALIDATOR_EXTRA = dictValid({
  address: macAddress,
  node_uuid: uuid,
  is_smartnic: boolean,
  local_link_connection: LOCAL_LINK_VALIDATOR,
  portgroup_uuid: uuid,
  pxe_enabled: boolean,
  uuid,
});

export const PORT_VALIDATOR: Validator = andValid(schema(PORT_SCHEMA), PORT_VALIDATOR_EXTRA);
