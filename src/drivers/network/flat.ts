/**
 * Flat networking: all nodes share one network, so a VIF is bookkeeping on a free port or
 * portgroup (network/flat.py with VIFPortIDMixin). No Neutron calls are made.
 */
import type { DriverTask, NetworkInterface, VifAttachInfo } from '../base';
import { NO_NETWORK_SWITCHING } from './noop';
import { currentVif, findByVif, isPortgroup, listVifs, pickFreePortLike, TENANT_VIF_KEY } from './vif-ports';

async function attach(task: DriverTask, vif: VifAttachInfo): Promise<void> {
  const target = pickFreePortLike(task, vif);
  const internal = { ...(target.internal_info ?? {}), [TENANT_VIF_KEY]: vif.id };
  if (isPortgroup(target)) await task.updatePortgroup(target, { internal_info: internal });
  else await task.updatePort(target, { internal_info: internal });
}

async function detach(task: DriverTask, vifId: string): Promise<void> {
  const target = findByVif(task, vifId);
  const internal = { ...(target.internal_info ?? {}) };
  delete internal[TENANT_VIF_KEY];
  const extra = { ...(target.extra ?? {}) };
  delete extra.vif_port_id;
  if (isPortgroup(target)) await task.updatePortgroup(target, { internal_info: internal, extra });
  else await task.updatePort(target, { internal_info: internal, extra });
}

export function createFlatNetwork(): NetworkInterface {
  return {
    kind: 'network', name: 'flat', className: 'FlatNetwork',
    properties: () => ({}),
    async validate() {},
    vifList: async (task) => listVifs(task),
    vifAttach: attach,
    vifDetach: detach,
    getCurrentVif: (_task, p) => currentVif(p),
    ...NO_NETWORK_SWITCHING,
  };
}
