/**
 * Request schemas for /v1/nodes (Ironic 21.4.4 node_schema / node_patch_schema / TRAITS_SCHEMA /
 * VIF and step schemas), plus the follow-up checks Ironic applies after the schema (args.boolean,
 * args.uuid on some fields). Declarative, so the API reference can be generated from them.
 */
import { CONVERTED_FIELDS, CREATE_FIELDS, nodeField, PATCH_ONLY_FIELDS } from '../../db/node-field-lists';
import type { NodeFieldDecl, NodeInput } from '../../db/node-fields';
import * as args from './args';
import type { Schema } from './jsonschema';
import { STANDARD_TRAITS } from './node-standard-traits';
import { STEP_INTERFACES } from '../../common/step-interfaces';
import { NETWORK_DATA_SCHEMA } from './network-data';

const INPUT_SCHEMAS: Readonly<Record<NodeInput, Schema>> = {
  str: { type: ['string', 'null'] },
  'required-str': { type: 'string' },
  boolish: { type: ['string', 'boolean', 'null'] },
  dict: { type: ['object', 'null'] },
  // null, {} or a whole network_data document (node_schema's anyOf).
  'network-data': { anyOf: [{ type: 'null' }, { type: 'object', additionalProperties: false }, NETWORK_DATA_SCHEMA] },
};

/** A field's node_schema property, with the version it needs (for the API reference). */
function propertySchema(field: NodeFieldDecl): Schema {
  return {
    ...(field.input === undefined ? {} : INPUT_SCHEMAS[field.input]),
    ...(field.maxLength === undefined ? {} : { maxLength: field.maxLength }),
    ...(field.since === undefined ? {} : { minVersion: field.since }),
  };
}

function propertiesOf(fields: readonly NodeFieldDecl[]): Record<string, Schema> {
  return Object.fromEntries(fields.map((field) => [field.name, propertySchema(field)]));
}

export const NODE_DESCRIPTION_MAX_LENGTH = nodeField('description').maxLength as number;

/** POST /v1/nodes body. Property order is Ironic's (it decides which error is reported first). */
export const NODE_CREATE_SCHEMA: Schema = {
  type: 'object',
  properties: propertiesOf(CREATE_FIELDS),
  required: CREATE_FIELDS.filter((field) => field.input === 'required-str').map((field) => field.name),
  additionalProperties: false,
};

/** The whole node after a PATCH is re-validated against this (create schema + protected fields). */
export const NODE_PATCH_RESULT_SCHEMA: Schema = {
  ...NODE_CREATE_SCHEMA,
  properties: { ...NODE_CREATE_SCHEMA.properties, ...propertiesOf(PATCH_ONLY_FIELDS) },
};

export const TRAIT_SCHEMA: Schema = {
  type: 'string', minLength: 1, maxLength: 255,
  anyOf: [{ pattern: '^CUSTOM_[A-Z0-9_]+$' }, { enum: [...STANDARD_TRAITS] }],
};

export const TRAITS_BODY_SCHEMA: Schema = {
  type: 'object',
  properties: { traits: { type: 'array', items: TRAIT_SCHEMA } },
  additionalProperties: false,
};

export const VIF_SCHEMA: Schema = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
};

/** A property schema with Ironic's `description` (not validated, but shown in Ironic's error text). */
function described(description: string, schema: Schema): Schema {
  return { description, ...schema } as Schema;
}

export const CLEAN_STEPS_SCHEMA: Schema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['interface', 'step'],
    properties: {
      interface: described('driver interface', { enum: [...STEP_INTERFACES] }),
      step: described('name of clean step', { type: 'string', minLength: 1 }),
      args: described('additional args', { type: 'object', properties: {} }),
      order: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, pattern: '^[0-9]+$' }] },
      execute_on_child_nodes: described('Boolean if the step should be executed on child nodes.', { type: 'boolean' }),
      limit_child_node_execution: described('List of nodes upon which to execute child node steps on.', { type: 'array' }),
    },
    additionalProperties: false,
  },
};

export const DEPLOY_STEPS_SCHEMA: Schema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      args: { type: 'object' },
      interface: { type: 'string', enum: [...STEP_INTERFACES] },
      priority: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, pattern: '^[0-9]+$' }] },
      step: { type: 'string', minLength: 1 },
    },
    required: ['interface', 'step', 'args', 'priority'],
    additionalProperties: false,
  },
};

export const CONFIGDRIVE_SCHEMA: Schema = {
  anyOf: [
    {
      type: 'object',
      properties: {
        meta_data: { type: 'object' },
        network_data: { type: 'object' },
        user_data: { type: ['object', 'array', 'string', 'null'] },
        vendor_data: { type: 'object' },
      },
      additionalProperties: false,
    },
    { type: ['string', 'null'] },
  ],
};

/** NODE_VALIDATE_EXTRA: after the schema, these fields are converted/checked in this order. */
function validateNodeExtra(node: Record<string, unknown>): Record<string, unknown> {
  const out = { ...node };
  for (const { name, convert } of CONVERTED_FIELDS) {
    if (!Object.hasOwn(out, name)) continue;
    out[name] = convert === 'bool' ? args.boolean(name, out[name]) : args.uuid(name, out[name]);
  }
  return out;
}

/** node_validator / node_patch_validator: the schema, then the extra conversions. */
export function validateNodeBody(name: string, value: unknown, schema: Schema): Record<string, unknown> {
  args.schema(schema)(name, value);
  if (value === null || value === undefined) return {};
  return validateNodeExtra(value as Record<string, unknown>);
}
