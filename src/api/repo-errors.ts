/**
 * Turns the DB layer's typed errors into the Ironic exceptions the API renders: a repository's
 * NotFoundError('Port', id) is Ironic's PortNotFound, a DuplicateError carries its exception name.
 */
import * as errors from '../common/errors';
import { DbError, DuplicateError, InvalidSortKeyError, NotFoundError } from '../db/errors';
import { lookupTable } from '../common/own-keys';

type ErrorClass = errors.IronicErrorClass;

const NOT_FOUND_PARAM: Record<string, string> = lookupTable({
  Port: 'port', Portgroup: 'portgroup', Chassis: 'chassis', Node: 'node', Allocation: 'allocation',
  DeployTemplate: 'template', VolumeConnector: 'connector', VolumeTarget: 'target', Conductor: 'conductor',
});

function classFor(kind: string): ErrorClass | null {
  const found = (errors as unknown as Record<string, unknown>)[kind];
  return typeof found === 'function' && (found as { prototype?: unknown }).prototype instanceof errors.IronicError
    ? found as ErrorClass : null;
}

export function toApiError(err: unknown): unknown {
  if (err instanceof NotFoundError) {
    const cls = classFor(err.kind) ?? errors.NotFound;
    const param = NOT_FOUND_PARAM[err.resource] ?? 'id';
    return new cls({ [param]: err.ident });
  }
  if (err instanceof InvalidSortKeyError) {
    return new errors.InvalidParameterValue(`The sort_key value "${err.key}" is an invalid field for sorting`);
  }
  if (err instanceof DuplicateError || err instanceof DbError) {
    const cls = classFor(err.kind);
    if (cls) return new cls(err.message);
  }
  return err;
}

/** Awaits a repository call, rethrowing its errors as Ironic's. */
export async function repo<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    throw toApiError(err);
  }
}
