/** Repository calls from controllers: the DB layer's typed errors rethrown as Ironic's (db/faults.ts). */
import { asIronicError } from '../db/faults';

export const toApiError = asIronicError;

/** Awaits a repository call, rethrowing its errors as Ironic's. */
export async function repo<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    throw asIronicError(err);
  }
}
