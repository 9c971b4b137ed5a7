import Router from '@koa/router';
import type { ApiState } from '../state';

export function driversRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
