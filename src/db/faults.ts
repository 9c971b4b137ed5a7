/**
 * The database layer's typed errors as the Ironic exceptions they stand for: a repository's
 * NotFoundError('Port', id) is Ironic's PortNotFound, a DuplicateError or InvalidParameterError
 * carries its exception name. Used where errors leave a process or reach a client: the API's
 * faults and the RPC servers' replies, so both answer alike.
 */
import * as errors from '../common/errors';
import { lookupTable } from '../common/own-keys';
import { DbError, InvalidSortKeyError, NotFoundError } from './errors';

const NOT_FOUND_PARAM: Record<string, string> = lookupTable({
  Port: 'port', Portgroup: 'portgroup', Chassis: 'chassis', Node: 'node', Allocation: 'allocation',
  DeployTemplate: 'template', InspectionRule: 'rule', VolumeConnector: 'connector', VolumeTarget: 'target', Conductor: 'conductor',
});

/** The Ironic exception for a DbError; any other error is returned as it is. */
export function asIronicError(err: unknown): unknown {
  if (err instanceof NotFoundError) {
    const cls = errors.errorClass(err.kind) ?? errors.NotFound;
    const param = NOT_FOUND_PARAM[err.resource] ?? 'id';
    return new cls({ [param]: err.ident });
  }
  if (err instanceof InvalidSortKeyError) {
    return new errors.InvalidParameterValue(`The sort_key value "${err.key}" is an invalid field for sorting`);
  }
  if (err instanceof DbError) {
    const cls = errors.errorClass(err.kind);
    if (cls) return new cls(err.message);
  }
  return err;
}
