/**
 * Serialises object bodies as Python's json.dumps does, with Ironic's plain `application/json`
 * Content-Type (no charset).
 */
import type { Middleware } from 'koa';
import { pyJsonBytes } from '../pyjson';

export const jsonResponse: Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (body !== null && body !== undefined && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function') {
    const status = ctx.status;
    ctx.body = pyJsonBytes(body);
    ctx.status = status;
    ctx.set('Content-Type', 'application/json');
  } else if (typeof ctx.body === 'string' && ctx.body !== '') {
    ctx.set('Content-Type', 'application/json');
  }
  else if (ctx.body === '') ctx.remove('Content-Type');
};
