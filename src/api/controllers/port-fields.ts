/**
 * Which port fields a microversion knows: read by the port list and show (ports.ts) and by the
 * writes (ports-write.ts), which the list module also mounts.
 */
import { NotAcceptable } from '../../common/errors';
import type { ApiContext } from '../state';
import { V } from '../versions';

const ADVANCED_NET_FIELDS = ['pxe_enabled', 'local_link_connection'];

/** _check_allowed_port_fields: port fields (or body keys) newer than the request's version are a 406. */
export function checkAllowedPortFields(ctx: ApiContext, fields: Iterable<string> | Record<string, unknown> | null): void {
  if (fields === null) return;
  const v = ctx.state.version;
  const names = new Set(Symbol.iterator in Object(fields) ? fields as Iterable<string> : Object.keys(fields));
  if (v < V.PORT_ADVANCED_NET_FIELDS && ADVANCED_NET_FIELDS.some((f) => names.has(f))) throw new NotAcceptable();
  if (names.has('portgroup_uuid') && v < V.PORTGROUP_SUBRESOURCES) throw new NotAcceptable();
  if (names.has('physical_network') && v < V.PORT_PHYSICAL_NETWORK) throw new NotAcceptable();
  if (names.has('is_smartnic') && v < V.SMARTNIC_PORT) throw new NotAcceptable();
  if (names.has('local_link_connection/network_type') && v < V.LOCAL_LINK_NETWORK_TYPE) throw new NotAcceptable();
  if (!(Symbol.iterator in Object(fields))) {
    const llc = (fields as Record<string, unknown>).local_link_connection;
    if (llc && typeof llc === 'object' && 'network_type' in llc && v < V.LOCAL_LINK_NETWORK_TYPE) throw new NotAcceptable();
    // Only this key is checked: the schema already wants the other one with it.
    if (llc && typeof llc === 'object' && Object.hasOwn(llc, 'vtep-logical-switch') && v < V.OVN_VTEP) throw new NotAcceptable();
  }
  if (names.has('name') && v < V.PORT_NAME) throw new NotAcceptable();
}
