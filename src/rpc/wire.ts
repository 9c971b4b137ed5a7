/**
 * What crosses the broker: call arguments and results as JSON with Dates preserved, and Ironic
 * errors as {kind, code, message} turned back into the same typed classes on the caller's side.
 */
import { currentRequestId } from '../common/log';
import { errorClass, IronicError, withCode } from '../common/errors';
import { asIronicError } from '../db/faults';

const DATE_TAG = '__datetime__';

export function encode(value: unknown): string {
  return JSON.stringify(value, function replacer(this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [DATE_TAG]: raw.toISOString() } : v;
  });
}

export function decode<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const tagged = (v as Record<string, unknown>)[DATE_TAG];
      if (typeof tagged === 'string' && Object.keys(v).length === 1) return new Date(tagged);
    }
    return v;
  }) as T;
}

interface WireFailure {
  kind: string;
  code: number;
  message: string;
}

export function toFailure(thrown: unknown): WireFailure {
  // A repository error reaching the conductor's edge travels as the Ironic exception it stands for.
  const err = asIronicError(thrown);
  if (err instanceof IronicError) return { kind: err.kind, code: err.code, message: err.message };
  return { kind: 'IronicException', code: 500, message: err instanceof Error ? err.message : String(err) };
}

/** The same Ironic error class with the same message; unknown kinds become a plain IronicError. */
export function fromFailure(f: WireFailure): Error {
  const cls = errorClass(f.kind);
  if (cls) {
    const err = new cls(f.message);
    return err.code === f.code ? err : withCode(err, f.code);
  }
  return new IronicError(f.message);
}

/** Ironic exception classes travel by their Python name on the JSON-RPC wire (ironic_lib's `data.class`). */
const CLASS_PREFIX = 'ironic.common.exception.';

export function exceptionClassName(kind: string): string {
  return `${CLASS_PREFIX}${kind}`;
}

/** The error kind an Ironic exception class name stands for; null for any other class. */
export function kindOfExceptionClass(name: string | undefined): string | null {
  return name && name.startsWith(CLASS_PREFIX) ? name.slice(CLASS_PREFIX.length) : null;
}

export interface RpcRequest {
  method: string;
  args: unknown[];
  /** The caller's request context, as Ironic's RPC carries it: here only the request id, for the conductor's log lines. */
  context?: { request_id?: unknown };
}

const REQUEST_ID = /^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The context a call sends: the request id the caller serves, if any. */
export function callContext(): { request_id: string } | undefined {
  const id = currentRequestId();
  return id === null ? undefined : { request_id: id };
}

/** The request id a received call names, when it is one (anything else is ignored). */
export function requestIdOf(req: RpcRequest): string | null {
  const id = req.context?.request_id;
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : null;
}

export type RpcReply = { result: unknown } | { failure: WireFailure };
