/** Serialises object bodies ourselves so the Content-Type is Ironic's plain `application/json` (no charset). */
import type { Middleware } from 'koa';

export const jsonResponse: Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (body !== null && body !== undefined && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function') {
    const status = ctx.status;
    ctx.body = JSON.stringify(body);
    ctx.status = status;
  }
  if (typeof ctx.body === 'string') ctx.set('Content-Type', 'application/json');
};
