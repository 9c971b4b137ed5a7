/** Runs one RPC request on the local conductor; every transport's server side shares it. */
import type { ConductorApi } from './conductor-api';
import { METHOD_NAMES, MethodName } from './methods';
import { RpcReply, RpcRequest, toFailure } from './wire';

export function isRpcMethod(name: string): name is MethodName {
  return METHOD_NAMES.includes(name as MethodName);
}

export async function dispatch(local: ConductorApi, req: RpcRequest): Promise<RpcReply> {
  if (!isRpcMethod(req.method)) {
    return { failure: { kind: 'IronicException', code: 500, message: `Unknown RPC method ${req.method}` } };
  }
  const fn = local[req.method] as (...args: unknown[]) => Promise<unknown>;
  try {
    return { result: (await fn.apply(local, req.args)) ?? null };
  } catch (err) {
    return { failure: toFailure(err) };
  }
}
