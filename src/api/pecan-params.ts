/**
 * The arguments pecan hands an Ironic handler (webob's `params.mixed()`): the query string and, on a
 * DELETE, the body's arguments (Ironic reads POST, PUT and PATCH bodies itself through @method.body).
 * A name given more than once, repeated in the query or in both places, arrives as a list.
 */
import { emptyDict } from '../common/own-keys';
import type { ApiContext } from './state';

export function pecanParams(ctx: ApiContext, withDeleteBody = true): Record<string, unknown> {
  const all = emptyDict<unknown[]>();
  const add = (key: string, values: readonly unknown[]): void => {
    all[key] = Object.hasOwn(all, key) ? [...all[key], ...values] : [...values];
  };
  for (const [key, value] of Object.entries(ctx.query)) add(key, Array.isArray(value) ? value : [value]);
  if (ctx.method === 'DELETE' && withDeleteBody) {
    for (const [key, values] of Object.entries(ctx.state.deleteParams ?? {})) add(key, values);
  }
  const out = emptyDict<unknown>();
  for (const [key, values] of Object.entries(all)) out[key] = values.length === 1 ? values[0] : values;
  return out;
}
