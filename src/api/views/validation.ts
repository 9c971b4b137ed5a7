/** `GET /v1/nodes/{id}/validate`: one entry per interface the request's version knows. */
import type { InterfaceValidation } from '../../rpc/conductor-api';
import { V } from '../versions';
import { lookupTable } from '../../common/own-keys';

const INTERFACE_SINCE: Record<string, number> = lookupTable({ firmware: V.FIRMWARE_INTERFACE });

export function validationView(result: Record<string, InterfaceValidation>, minor: number): Record<string, InterfaceValidation> {
  return Object.fromEntries(Object.entries(result).filter(([kind]) => minor >= (INTERFACE_SINCE[kind] ?? 1)));
}
