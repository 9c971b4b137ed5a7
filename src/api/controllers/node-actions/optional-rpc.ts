/**
 * Conductor calls Ironic's API makes that ConductorApi (src/rpc/conductor-api.ts) does not declare
 * yet. A conductor may offer them under these names; when it does not, the request fails with a
 * server error naming the missing call rather than inventing an answer.
 */
import { IronicError } from '../../../common/errors';
import type { ApiContext } from '../../state';

export interface IndicatorFields {
  readonly?: boolean;
  states?: string[];
}

/** What a vendor method returns through the conductor (rpcapi.vendor_passthru). */
export interface VendorPassthruResult {
  async: boolean;
  return: unknown;
  attach?: boolean;
}

export interface OptionalConductorRpc {
  getSupportedIndicators?(nodeUuid: string): Promise<Record<string, Record<string, IndicatorFields>>>;
  getIndicatorState?(nodeUuid: string, component: string, indicator: string): Promise<string>;
  setIndicatorState?(nodeUuid: string, component: string, indicator: string, state: string): Promise<void>;
  getNodeVendorPassthruMethods?(nodeUuid: string): Promise<Record<string, unknown>>;
  vendorPassthru?(nodeUuid: string, method: string, httpMethod: string, data: unknown): Promise<VendorPassthruResult>;
}

export function optionalRpc<K extends keyof OptionalConductorRpc>(ctx: ApiContext, name: K):
  NonNullable<OptionalConductorRpc[K]> {
  const rpc = ctx.state.deps.conductor as unknown as OptionalConductorRpc;
  const fn = rpc[name];
  if (typeof fn !== 'function') throw new IronicError(`The conductor does not provide ${name}.`);
  return (fn as (...a: unknown[]) => unknown).bind(rpc) as NonNullable<OptionalConductorRpc[K]>;
}
