import Router from '@koa/router';
import type { ApiState } from '../state';

export function ramdiskRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
