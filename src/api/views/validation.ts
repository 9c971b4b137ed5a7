/**
 * `GET /v1/nodes/{id}/validate`: one entry per interface the request's version knows. Reasons are
 * masked: a driver's validation message may quote driver_info (a BMC URL with credentials).
 */
import type { InterfaceValidation } from '../../rpc/conductor-api';
import { V } from '../versions';
import { lookupTable } from '../../common/own-keys';
import { maskMessage } from '../../common/mask';

const INTERFACE_SINCE: Record<string, number> = lookupTable({ firmware: V.FIRMWARE_INTERFACE });

function masked(entry: InterfaceValidation): InterfaceValidation {
  return typeof entry.reason === 'string' ? { ...entry, reason: maskMessage(entry.reason) } : entry;
}

export function validationView(result: Record<string, InterfaceValidation>, minor: number): Record<string, InterfaceValidation> {
  return Object.fromEntries(Object.entries(result)
    .filter(([kind]) => minor >= (INTERFACE_SINCE[kind] ?? 1))
    .map(([kind, entry]) => [kind, masked(entry)]));
}
