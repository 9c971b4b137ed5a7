/** POST /v1/events (event.py, 1.54+): external (Neutron) events, validated and acknowledged with 204. */
import Router from '@koa/router';
import { NotFound } from '../../common/errors';
import { log } from '../../common/log';
import * as args from '../schemas/args';
import { readQuery } from '../schemas/list-query';
import { EVENTS_VALIDATOR } from '../schemas/event';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { refuseOtherVerbs } from './method-rules';

async function postEvents(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const body = args.requiredBody('evts', EVENTS_VALIDATOR('evts', ctx.state.body === undefined ? {} : ctx.state.body) as { events: unknown[] } | null);
  if (ctx.state.version < V.EVENTS) throw new NotFound();
  // Ironic (21.4 and 29.0.5 alike) only logs external events; nothing acts on them.
  for (const e of body.events) log.debug(`Received external event: ${JSON.stringify(e)}`);
  ctx.status = 204;
}

export function eventsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.post('/v1/events', postEvents);
  refuseOtherVerbs(router, '/v1/events', ['post']);
  return router;
}
