import Router from '@koa/router';
import type { ApiState } from '../state';

export function portsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
