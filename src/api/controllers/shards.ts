import Router from '@koa/router';
import type { ApiState } from '../state';

export function shardsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
