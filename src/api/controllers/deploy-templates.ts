import Router from '@koa/router';
import type { ApiState } from '../state';

export function deployTemplatesRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
