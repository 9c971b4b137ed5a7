/**
 * The one place errors become HTTP (the database layer's typed errors first become Ironic's): IronicError → `{"error_message": "{faultcode, faultstring,
 * debuginfo}"}`; webob-style HttpError → `{"error_message": "{code, title, description}"}`.
 */
import type { Context, Middleware } from 'koa';
import { IronicError, HttpError, TemporaryFailure } from '../../common/errors';
import { isDatabaseUnavailable } from '../../db/availability';
import { asIronicError } from '../../db/faults';
import { pyJsonDumps } from '../pyjson';
import { log } from '../../common/log';
import { maskMessage } from '../../common/mask';

const ROUTING_STRIPPED_HEADERS = [
  'Openstack-Request-Id',
  'X-OpenStack-Ironic-API-Minimum-Version',
  'X-OpenStack-Ironic-API-Maximum-Version',
  'X-OpenStack-Ironic-API-Version',
];

/**
 * Every message is masked before it is sent: faults echo request and stored data, and a 500's text
 * may be raw driver or SQL text (knex interpolates bound values, driver_info passwords included).
 */
function faultBody(faultcode: 'Client' | 'Server', faultstring: string): string {
  return pyJsonDumps({ error_message: pyJsonDumps({ faultcode, faultstring: maskMessage(faultstring), debuginfo: null }) });
}

function webobBody(err: HttpError): string {
  const body = { code: err.code, title: maskMessage(err.title), description: maskMessage(err.description) };
  return pyJsonDumps({ error_message: pyJsonDumps(body) });
}

function render(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.body = body;
}

export const faults: Middleware = async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      for (const name of ROUTING_STRIPPED_HEADERS) ctx.remove(name);
      render(ctx, 404, webobBody(new HttpError(404, 'Not Found')));
    }
  } catch (thrown) {
    // Repository errors reach here as they were thrown: this is where they become Ironic's faults.
    const err = asIronicError(thrown);
    if (err instanceof IronicError) {
      render(ctx, err.code, faultBody(err.faultcode, err.message));
    } else if (err instanceof HttpError) {
      // webob raises these before Ironic's hooks run: no request id, no version headers but the error's own.
      if (err.beforeHooks) for (const name of ROUTING_STRIPPED_HEADERS) ctx.remove(name);
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      render(ctx, err.code, webobBody(err));
    } else if (isDatabaseUnavailable(err)) {
      // A database outage is temporary: clients (and Nova) retry a 503, and the pool reconnects by itself.
      log.warning(`Database unavailable during ${ctx.method} ${ctx.path}: ${(err as Error).message}`);
      const fault = new TemporaryFailure();
      render(ctx, fault.code, faultBody(fault.faultcode, fault.message));
    } else {
      const message = err instanceof Error ? err.message : String(err);
      log.error(`Unexpected error in ${ctx.method} ${ctx.path}: ${err instanceof Error ? err.stack : message}`);
      render(ctx, 500, faultBody('Server', message));
    }
  }
};
