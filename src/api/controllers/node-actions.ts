import Router from '@koa/router';
import type { ApiState } from '../state';

export function nodeActionsRouter(): Router<ApiState> {
  return new Router<ApiState>();
}
