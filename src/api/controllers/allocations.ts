import Router from '@koa/router';
import type { ApiState } from '../state';

export function allocationsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
