/**
 * The method a vendor passthru call names. Pecan hands NodeVendorPassthruController._default and
 * DriverPassthruController._default the path below /vendor_passthru as positional arguments, so
 * the method comes from `/vendor_passthru/{method}` (what python-ironicclient sends) or from
 * `?method=`. Naming it twice, or adding path segments, fails in the call itself with Python's
 * TypeError, a 500 before anything is looked up.
 */
import type Router from '@koa/router';
import { InvalidParameterValue } from '../../common/errors';
import type { ApiContext, ApiState } from '../state';

/**
 * `remainder` is the path after `/vendor_passthru/` ('' or undefined when none), `query` the
 * `method` query argument; null when neither names one.
 */
export function passthruMethod(remainder: string | undefined, query: unknown): string | null {
  const fromQuery = Array.isArray(query) ? query[query.length - 1] as unknown : query;
  if (remainder === undefined || remainder === '') return typeof fromQuery === 'string' ? fromQuery : null;
  if (remainder.includes('/')) {
    throw new InvalidParameterValue(`A vendor passthru method is one path segment, not '${remainder}'`);
  }
  if (fromQuery !== undefined) throw new InvalidParameterValue('The vendor passthru method is named both in the path and by ?method=');
  return remainder;
}

/**
 * Routes every HTTP method a vendor method may declare to `handler`, at `base` (`?method=`) and
 * below it (`base/{method}`, what python-ironicclient sends).
 */
export function addPassthruCallRoutes(router: Router<ApiState>, base: string,
  handler: (ctx: ApiContext & { params: Record<string, string> }) => Promise<void>): void {
  for (const path of [base, `${base}/*method`]) {
    router.get(path, handler);
    router.post(path, handler);
    router.put(path, handler);
    router.patch(path, handler);
    router.delete(path, handler);
  }
}
