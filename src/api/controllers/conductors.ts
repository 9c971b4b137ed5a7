import Router from '@koa/router';
import type { ApiState } from '../state';

export function conductorsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
