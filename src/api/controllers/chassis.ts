import Router from '@koa/router';
import type { ApiState } from '../state';

export function chassisRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
