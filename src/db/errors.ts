/**
 * Typed database-layer errors. Each has a `kind` named after the Ironic exception class it stands
 * for, so the API layer can map it to the same HTTP fault Ironic returns.
 */

export abstract class DbError extends Error {
  abstract readonly kind: string;
}

/** A lookup found no row; `resource` is Ironic's noun (Node, Port, Chassis, ...). */
export class NotFoundError extends DbError {
  readonly kind: string;
  constructor(readonly resource: string, readonly ident: string | number) {
    super(`${resource} ${ident} could not be found.`);
    this.kind = `${resource}NotFound`;
  }
}

/** Whether `err` is the repository's "no such `resource`" (Ironic's `${resource}NotFound`). */
export function isNotFound(err: unknown, resource: string): err is NotFoundError {
  return err instanceof NotFoundError && err.resource === resource;
}

/** A UNIQUE constraint rejected a write; kind is Ironic's exception name. */
export class DuplicateError extends DbError {
  constructor(readonly kind: string, message: string, readonly columns: readonly string[]) {
    super(message);
  }
}

export class NodeLockedError extends DbError {
  readonly kind = 'NodeLocked';
  constructor(readonly node: string, readonly host: string) {
    super(`Node ${node} is locked by host ${host}, please retry after the current operation is completed.`);
  }
}

export class NodeNotLockedError extends DbError {
  readonly kind = 'NodeNotLocked';
  constructor(readonly node: string, readonly host: string) {
    super(`Node ${node} found not to be locked by host ${host}.`);
  }
}

/** Optimistic update lost the race: the row changed since the caller read it. */
export class ConcurrentUpdateError extends DbError {
  readonly kind = 'ConcurrentUpdate';
  constructor(readonly resource: string, readonly ident: string) {
    super(`${resource} ${ident} was modified concurrently; reload and retry.`);
  }
}

/** A delete refused because other rows still reference the target. */
export class NotEmptyError extends DbError {
  constructor(readonly kind: string, message: string) {
    super(message);
  }
}

export class InvalidParameterError extends DbError {
  readonly kind = 'InvalidParameterValue';
}

export class InvalidSortKeyError extends DbError {
  readonly kind = 'InvalidSortKey';
  constructor(readonly key: string) {
    super(`Sort key supplied is invalid: ${key}`);
  }
}

/** `[database]connection` names a database this project cannot talk to, or is malformed. */
export class UnsupportedDatabaseError extends DbError {
  readonly kind = 'ConfigInvalid';
  readonly option = '[database]connection';
  constructor(detail: string) {
    super(`Invalid [database]connection: ${detail}`);
  }
}

/** The existing database cannot be adopted or upgraded (e.g. Ironic older than 21.4.4). */
export class SchemaVersionError extends DbError {
  readonly kind = 'DatabaseVersionTooOld';
}
