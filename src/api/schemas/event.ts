/** POST /v1/events bodies (event.py EVENTS_SCHEMA and the per-event network validator). */
import { andValid, dictValid, macAddress, schema, uuid, Validator } from './args';
import type { Schema } from './jsonschema';
import { lookupTable } from '../../common/own-keys';

const NETWORK_EVENT_VALIDATOR: Validator = andValid(
  schema({
    type: 'object',
    properties: {
      event: { type: 'string' },
      port_id: { type: 'string' },
      mac_address: { type: 'string' },
      status: { type: 'string' },
      device_id: { type: ['string', 'null'] },
      'binding:host_id': { type: ['string', 'null'] },
      'binding:vnic_type': { type: ['string', 'null'] },
    },
    required: ['event', 'port_id', 'mac_address', 'status'],
    additionalProperties: false,
  }),
  dictValid({ port_id: uuid, mac_address: macAddress, device_id: uuid, 'binding:host_id': uuid }),
);

const EVENT_VALIDATORS: Record<string, Validator> = lookupTable({
  'network.bind_port': NETWORK_EVENT_VALIDATOR,
  'network.unbind_port': NETWORK_EVENT_VALIDATOR,
  'network.delete_port': NETWORK_EVENT_VALIDATOR,
});

export const EVENTS_SCHEMA: Schema = {
  type: 'object',
  properties: {
    events: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { event: { type: 'string', enum: Object.keys(EVENT_VALIDATORS) } },
        required: ['event'],
      },
    },
  },
  required: ['events'],
  additionalProperties: false,
};

function eventsValid(name: string, value: unknown): unknown {
  if (value === null) return value;
  for (const event of (value as { events: { event: string }[] }).events) EVENT_VALIDATORS[event.event](name, event);
  return value;
}

export const EVENTS_VALIDATOR: Validator = andValid(schema(EVENTS_SCHEMA), eventsValid);
