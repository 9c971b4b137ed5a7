/** The body of POST /v1/continue_inspection (ramdisk.py DATA_VALIDATOR): the smallest acceptable inventory. */
import type { Schema } from './jsonschema';

export const INSPECTION_DATA_SCHEMA: Schema = {
  type: 'object',
  properties: {
    inventory: {
      type: 'object',
      properties: {
        bmc_address: { type: ['string', 'null'] },
        bmc_v6address: { type: ['string', 'null'] },
        interfaces: {
          type: 'array',
          items: { type: 'object', properties: { mac_address: { type: 'string' } }, required: ['mac_address'], additionalProperties: true },
          minItems: 1,
        },
      },
      required: ['interfaces'],
      additionalProperties: true,
    },
  },
  required: ['inventory'],
  additionalProperties: true,
};
