import Router from '@koa/router';
import type { ApiState } from '../state';

export function volumeRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
