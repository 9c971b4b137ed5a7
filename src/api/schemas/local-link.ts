/** port.local_link_connection rules (api utils LOCAL_LINK_*): the accepted shapes and switch_id normalisation. */
import { InvalidSwitchID } from '../../common/errors';
import { andValid, isValidMac, schema, Validator } from './args';
import type { Schema } from './jsonschema';

function baseSchema(): Schema {
  return {
    type: 'object',
    properties: {
      port_id: { type: 'string' },
      switch_id: { type: 'string' },
      hostname: { type: 'string' },
      switch_info: { type: 'string' },
      network_type: { type: 'string', enum: ['managed', 'unmanaged'] },
      'vtep-logical-switch': { type: 'string' },
      'vtep-physical-switch': { type: 'string' },
    },
    additionalProperties: false,
    // Ironic's dependentRequired: the two OVN VTEP switch names come together.
    dependencies: { 'vtep-logical-switch': ['vtep-physical-switch'], 'vtep-physical-switch': ['vtep-logical-switch'] },
  };
}

/** The keys of an OVN VTEP switch (API 1.90); older versions neither set nor see them. */
export const LOCAL_LINK_OVN_FIELDS: readonly string[] = ['vtep-logical-switch', 'vtep-physical-switch'];

const LOCAL_LINK_SCHEMA: Schema = { ...baseSchema(), required: ['port_id', 'switch_id'] };
const LOCAL_LINK_SMART_NIC_SCHEMA: Schema = { ...baseSchema(), required: ['port_id', 'hostname'] };
const LOCAL_LINK_OVN_SCHEMA: Schema = { ...baseSchema(), required: ['port_id', ...LOCAL_LINK_OVN_FIELDS] };
const UNMANAGED_BASE = baseSchema();
const LOCAL_LINK_UNMANAGED_SCHEMA: Schema = {
  ...UNMANAGED_BASE,
  properties: { ...UNMANAGED_BASE.properties, network_type: { type: 'string', enum: ['unmanaged'] } },
  required: ['network_type'],
};

export const LOCAL_LINK_CONN_SCHEMA: Schema = {
  anyOf: [LOCAL_LINK_SCHEMA, LOCAL_LINK_SMART_NIC_SCHEMA, LOCAL_LINK_UNMANAGED_SCHEMA, LOCAL_LINK_OVN_SCHEMA,
    { type: 'object', additionalProperties: false }],
};

const DATAPATH_ID_RE = /^[0-9a-f]{16}\n?$/;

/** switch_id must be a MAC or an OpenFlow datapath id; both are stored lower-cased. */
function normalizeLocalLink(_name: string, value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value;
  const link = value as Record<string, unknown>;
  if (Object.keys(link).length === 0 || !('switch_id' in link)) return value;
  const id = link.switch_id;
  if (isValidMac(id) || (typeof id === 'string' && DATAPATH_ID_RE.test(id.toLowerCase()))) {
    link.switch_id = (id as string).toLowerCase();
    return link;
  }
  throw new InvalidSwitchID({ switch_id: id });
}

export const LOCAL_LINK_VALIDATOR: Validator = andValid(schema(LOCAL_LINK_CONN_SCHEMA), normalizeLocalLink);
export const LOCAL_LINK_SMART_NIC_VALIDATOR: Validator = schema(LOCAL_LINK_SMART_NIC_SCHEMA);
