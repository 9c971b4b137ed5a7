/** What the middleware chain leaves on each request for the controllers. */
import type { ParameterizedContext } from 'koa';
import type { ApiDeps } from './deps';

export interface ApiState {
  requestId: string;
  /** The negotiated minor version (major is always 1). */
  version: number;
  /** The parsed JSON body, or undefined when the request had none. */
  body: unknown;
  deps: ApiDeps;
}

export type ApiContext = ParameterizedContext<ApiState>;
