import Router from '@koa/router';
import type { ApiState } from '../state';

export function eventsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
