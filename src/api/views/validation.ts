/**
 * `GET /v1/nodes/{id}/validate`: one entry per interface the node's driver has, at every version
 * (29.0.5 lists firmware below 1.86 too). Reasons are masked: a driver's validation message may
 * quote driver_info (a BMC URL with credentials).
 */
import type { InterfaceValidation } from '../../rpc/conductor-api';
import { maskMessage } from '../../common/mask';

function masked(entry: InterfaceValidation): InterfaceValidation {
  return typeof entry.reason === 'string' ? { ...entry, reason: maskMessage(entry.reason) } : entry;
}

export function validationView(result: Record<string, InterfaceValidation>): Record<string, InterfaceValidation> {
  return Object.fromEntries(Object.entries(result).map(([kind, entry]) => [kind, masked(entry)]));
}
