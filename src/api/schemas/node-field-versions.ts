/**
 * api utils check_allowed_fields as Ironic applies it outside the node controller (the conductors and
 * deploy template lists check `fields` against the node field versions).
 */
import { NotAcceptable } from '../../common/errors';
import { NODE_FIELD_VERSIONS } from '../../db/node-field-lists';

export function checkNodeVersionedFields(version: number, fields: readonly string[] | null): void {
  if (fields === null) return;
  for (const f of fields) {
    const minor = NODE_FIELD_VERSIONS[f];
    if (minor !== undefined && version < minor) throw new NotAcceptable();
  }
}
