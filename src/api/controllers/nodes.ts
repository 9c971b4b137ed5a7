import Router from '@koa/router';
import type { ApiState } from '../state';

export function nodesRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
