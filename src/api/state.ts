/** What the middleware chain leaves on each request for the controllers. */
import type { ParameterizedContext } from 'koa';
import type { ApiDeps } from './deps';
import type { RequestAuth } from './policy/scope';

export interface ApiState {
  requestId: string;
  /** The negotiated minor version (major is always 1). */
  version: number;
  /** The parsed JSON body, or undefined when the request had none (on a DELETE: none that parses). */
  body: unknown;
  /**
   * A DELETE body's arguments, each name with its values (form fields may repeat): a JSON object (Content-Type
   * application/json) or form fields (application/x-www-form-urlencoded), which pecan merges into the query's.
   */
  deleteParams?: Record<string, unknown[]>;
  deps: ApiDeps;
  /** A `.json` suffix was stripped from the path (below 1.91): node lookups also try the ident with it. */
  jsonSuffix?: boolean;
  /** Set under auth_strategy = keystone: the caller's identity and the policy enforcer. */
  auth?: RequestAuth;
}

export type ApiContext = ParameterizedContext<ApiState>;
