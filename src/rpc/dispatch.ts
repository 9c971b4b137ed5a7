/** Runs one RPC request on the local conductor; every transport's server side shares it. */
import { MetricLogger } from '../metrics/ironic-metrics';
import type { ConductorApi } from './conductor-api';
import { METHOD_NAMES, MethodName } from './methods';
import { asIronicError } from '../db/faults';
import { requestIdOf, RpcReply, RpcRequest, toFailure } from './wire';
import { withLogContext } from '../common/log';

export function isRpcMethod(name: string): name is MethodName {
  return METHOD_NAMES.includes(name as MethodName);
}

export async function dispatch(local: ConductorApi, req: RpcRequest): Promise<RpcReply> {
  if (!isRpcMethod(req.method)) {
    return { failure: { kind: 'IronicException', code: 500, message: `Unknown RPC method ${req.method}` } };
  }
  const requestId = requestIdOf(req);
  const call = (): Promise<unknown> => callLocal(local, req.method as MethodName, req.args);
  try {
    return { result: (await (requestId ? withLogContext({ requestId }, call) : call())) ?? null };
  } catch (err) {
    return { failure: toFailure(err) };
  }
}

/** Runs a call on the client side of a transport: repository errors come back as Ironic's. */
export async function withIronicErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw asIronicError(err);
  }
}

const MANAGER_METRICS = new MetricLogger('ironic.conductor.manager');

/** Ironic's ConductorManager timers for the RPC methods it times (name differences spelt out). */
const MANAGER_TIMERS = new Map<string, string>(METHOD_NAMES.map((m) => [m, m.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]));
MANAGER_TIMERS.set('getIndicatorState', 'get_indicator_states');
for (const untimed of ['createPortgroup', 'detachVirtualMedia']) MANAGER_TIMERS.delete(untimed);

/** Calls the in-process conductor as a transport would; the call is timed as ConductorManager.<method>. */
export function callLocal(local: ConductorApi, method: MethodName, args: unknown[]): Promise<unknown> {
  const fn = local[method] as (...args: unknown[]) => Promise<unknown>;
  const timer = MANAGER_TIMERS.get(method);
  const call = (): Promise<unknown> => fn.apply(local, args);
  return withIronicErrors(timer ? () => MANAGER_METRICS.time(`ConductorManager.${timer}`, call) : call);
}
