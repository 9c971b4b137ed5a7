/**
 * Responses from Ironic's controllers carry `Openstack-Request-Id` (the one header Ironic 21.4
 * emits); errors raised by routing and version parsing do not (see faults.ts).
 */
import { withLogContext } from '../../common/log';
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

export const requestId: Middleware = async (ctx, next) => {
  const id = `req-${randomUUID()}`;
  ctx.state.requestId = id;
  ctx.set('Openstack-Request-Id', id);
  // Every line logged while serving the request, and by the conductor work it starts, names it.
  await withLogContext({ requestId: id }, next);
};
