/**
 * JSON-patch request rules shared by the PATCH endpoints (args.patch and api utils): the patch schema,
 * the allowed-fields check, and the path queries Ironic's controllers use.
 */
import { Invalid, InvalidParameterValue } from '../../common/errors';
import type { PatchOp } from '../jsonpatch';
import { schemaErrorMessage, Schema } from './jsonschema';

export const PATCH_SCHEMA: Schema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      path: { type: 'string', pattern: '^(/[\\w-]+)+$' },
      op: { type: 'string', enum: ['add', 'replace', 'remove'] },
      value: {},
    },
    additionalProperties: false,
    required: ['op', 'path'],
  },
};

/** args.patch: the body must be a list of {op, path[, value]}; a missing body is Ironic's missing-argument error. */
export function readPatch(body: unknown): PatchOp[] {
  if (body === undefined) throw new InvalidParameterValue('Missing mandatory parameter: patch');
  const message = body === null ? null : schemaErrorMessage('patch', body, PATCH_SCHEMA);
  if (message !== null) throw new InvalidParameterValue(message);
  return (body ?? []) as PatchOp[];
}

/** patch_validate_allowed_fields. */
export function checkAllowedPatchFields(patch: PatchOp[], allowed: readonly string[]): void {
  for (const p of patch) {
    const field = p.path.split('/')[1];
    if (!allowed.includes(field)) {
      throw new Invalid(`Cannot patch ${p.path}. Only the following can be updated: ${allowed.join(', ')}`);
    }
  }
}

export function patchValues(patch: PatchOp[], path: string): unknown[] {
  return patch.filter((p) => p.path === path && p.op !== 'remove').map((p) => p.value);
}

function isPathRemoved(patch: PatchOp[], path: string): boolean {
  const base = path.replace(/\/+$/, '');
  return patch.some((p) => (p.path === base || p.path.startsWith(`${base}/`)) && p.op === 'remove');
}

/** is_path_updated as Ironic 21.4 has it: only the first operation is looked at. */
export function isPathUpdated(patch: PatchOp[], path: string): boolean {
  const base = path.replace(/\/+$/, '');
  const first = patch[0];
  return first !== undefined && (first.path === base || first.path.startsWith(`${base}/`));
}

/** The fields among `candidates` a patch sets or removes (for version checks). */
export function touchedFields(patch: PatchOp[], candidates: readonly string[]): string[] {
  return candidates.filter((f) => patchValues(patch, `/${f}`).length > 0 || isPathRemoved(patch, `/${f}`));
}

/** Python truthiness of a JSON value. */
export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
