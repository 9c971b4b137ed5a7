import Router from '@koa/router';
import type { ApiState } from '../state';

export function portgroupsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
