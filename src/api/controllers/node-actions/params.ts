/**
 * How pecan hands a node action its arguments: the query string merged with a JSON-object body
 * (when the request says application/json; a DELETE's body as pecanParams reads it), unknown names refused, then Ironic's args.validate
 * running each validator in the handler's parameter order.
 */
import { InvalidParameterValue, NoValidHost, withCode } from '../../../common/errors';
import type { NodeRecord } from '../../../db/models';
import { baseUrl } from '../../links';
import * as args from '../../schemas/args';
import type { ApiContext } from '../../state';
import { pecanParams } from '../../pecan-params';

type ArgValidator = (name: string, value: unknown) => unknown;

interface ArgSpec {
  name: string;
  validate?: ArgValidator;
  required?: boolean;
}

function jsonObjectBody(ctx: ApiContext): Record<string, unknown> | null {
  const type = (ctx.get('Content-Type') || '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/javascript') return null;
  const body = ctx.state.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : null;
}

/**
 * The merged arguments, validated; absent optional ones are left out. `positional` runs between the
 * unknown-name check and the named validators, as the path arguments come first in Ironic's handlers.
 */
export function readArgs(ctx: ApiContext, specs: ArgSpec[], positional?: () => void): Record<string, unknown> {
  const merged = pecanParams(ctx);
  if (ctx.method !== 'DELETE') Object.assign(merged, jsonObjectBody(ctx) ?? {});
  const names = new Set(specs.map((s) => s.name));
  const extra = Object.keys(merged).filter((k) => !names.has(k));
  if (extra.length > 0) throw new InvalidParameterValue(`Unexpected arguments: ${extra.join(', ')}`);
  positional?.();
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    if (Object.hasOwn(merged, spec.name)) {
      out[spec.name] = spec.validate ? spec.validate(spec.name, merged[spec.name]) : merged[spec.name];
    } else if (spec.required && spec.validate) {
      throw new InvalidParameterValue(`Missing mandatory parameter: ${spec.name}`);
    }
  }
  return out;
}

/** The request body for handlers Ironic declares with @method.body: `{}` when there is none. */
export function bodyOrEmpty(ctx: ApiContext): unknown {
  return ctx.state.body === undefined ? {} : ctx.state.body;
}

/**
 * get_topic_for: the conductor that owns the node; `badRequest` re-raises NoValidHost as a 400, as
 * the node write paths do ("client can see the drivers").
 */
export async function conductorTopic(ctx: ApiContext, node: Pick<NodeRecord, 'uuid' | 'driver' | 'conductor_group'>,
  badRequest = false): Promise<string> {
  try {
    return await ctx.state.deps.conductor.topicFor(node);
  } catch (err) {
    if (badRequest && err instanceof NoValidHost) throw withCode(err, 400);
    throw err;
  }
}

/** args.uuid_or_name on the path's node_ident, for the controllers pecan reaches without _lookup. */
export function nodeIdentArg(ident: string): string {
  return args.uuidOrName('node_ident', ident) as string;
}

/** `Location: .../v1/nodes/<ident as given>/<suffix>` as link.build_url writes it. */
export function nodeLocation(ctx: ApiContext, ident: string, suffix: string): void {
  ctx.set('Location', `${baseUrl(ctx)}/v1/nodes/${ident}/${suffix}`);
}

/** args.types(None, <type>...) message, Python class names in the order given. */
export function typesArg(pyTypes: ('NoneType' | 'dict' | 'str' | 'list')[]): ArgValidator {
  const check: Record<string, (v: unknown) => boolean> = {
    NoneType: (v) => v === null || v === undefined,
    dict: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
    str: (v) => typeof v === 'string',
    list: (v) => Array.isArray(v),
  };
  return (name, value) => {
    if (pyTypes.some((t) => check[t](value))) return value;
    const shown = pyTypes.map((t) => `<class '${t}'>`).join(', ');
    throw new InvalidParameterValue(`Expected types ${shown} for ${name}: ${args.pyStr(value)}`);
  };
}

/** 202 with an empty body and no Content-Type, as pecan answers an accepted action. */
export function accepted(ctx: ApiContext): void {
  ctx.status = 202;
  // An empty Buffer, not '': string bodies get the JSON content type on the way out.
  ctx.body = Buffer.alloc(0);
  ctx.remove('Content-Type');
}
