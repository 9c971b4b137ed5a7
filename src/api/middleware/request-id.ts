/** Every response carries a request id in both the current and the compat header, as Ironic's middleware emits. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

export const requestId: Middleware = async (ctx, next) => {
  const id = `req-${randomUUID()}`;
  ctx.state.requestId = id;
  ctx.set('Openstack-Request-Id', id);
  ctx.set('X-Openstack-Request-Id', id);
  await next();
};
