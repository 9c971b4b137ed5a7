/**
 * VIF bookkeeping on ports and portgroups (network/common.py VIFPortIDMixin): the VIF id lives in
 * `internal_info.tenant_vif_port_id` of the chosen port-like object.
 */
import { NoFreePhysicalPorts, VifAlreadyAttached, VifNotAttached } from '../../common/errors';
import type { PortRecord, PortgroupRecord } from '../../db/models';
import type { DriverTask, VifAttachInfo } from '../base';

const TENANT_VIF_KEY = 'tenant_vif_port_id';

type PortLike = PortRecord | PortgroupRecord;

function isPortgroup(p: PortLike): p is PortgroupRecord {
  return 'mode' in p;
}

/** _get_vif_id_by_port_like_obj: the tenant VIF on a port or portgroup, null when none (or empty). */
export function tenantVifOf(p: Pick<PortLike, 'internal_info'>): string | null {
  const v = (p.internal_info ?? {})[TENANT_VIF_KEY];
  return typeof v === 'string' && v ? v : null;
}

/** Throws when `vifId` is on `p` already; tells whether another VIF occupies it. */
function occupied(p: PortLike, vifId: string): boolean {
  const attached = tenantVifOf(p);
  if (attached === vifId) {
    throw new VifAlreadyAttached({ object_type: isPortgroup(p) ? 'Portgroup' : 'Port', vif: vifId, object_uuid: p.uuid });
  }
  return attached !== null;
}

/** What Neutron-backed interfaces add to the choice: the VIF's physical networks, and which ports can carry it. */
interface FreePortFilter {
  physnets?: ReadonlySet<string>;
  /** neutron.validate_port_info; ports it refuses are skipped. */
  usable?: (p: PortRecord) => boolean;
}

function physnetAllowed(p: PortRecord, physnets: ReadonlySet<string> | undefined): boolean {
  return !physnets || physnets.size === 0 || p.physical_network === null || physnets.has(p.physical_network);
}

function freeCandidates(task: DriverTask, vif: VifAttachInfo, filter: FreePortFilter): PortLike[] {
  const wantPort = vif.port_uuid;
  const wantGroup = wantPort ? undefined : vif.portgroup_uuid;
  const free: PortLike[] = [];
  const byGroup = new Map<number | null, PortRecord[]>();
  const unusableGroups = new Set<number | null>();
  for (const p of task.ports) {
    if ((wantPort && wantPort !== p.uuid) || (filter.usable && !filter.usable(p))) continue;
    if (occupied(p, vif.id)) {
      unusableGroups.add(p.portgroup_id);
      continue;
    }
    if (!physnetAllowed(p, filter.physnets)) continue;
    if (p.portgroup_id === null && !wantGroup) free.push(p);
    else byGroup.set(p.portgroup_id, [...(byGroup.get(p.portgroup_id) ?? []), p]);
  }
  if (wantPort) return free;
  for (const pg of task.portgroups) {
    if ((wantGroup && wantGroup !== pg.uuid) || occupied(pg, vif.id)) continue;
    if (unusableGroups.has(pg.id)) {
      if (!wantGroup) free.push(...(byGroup.get(pg.id) ?? []));
    } else if ((byGroup.get(pg.id) ?? []).length) {
      free.push(pg);
    }
  }
  return free;
}

/** A portgroup's physical network: its ports'. */
function physnetOf(task: DriverTask, p: PortLike): string | null {
  if (!isPortgroup(p)) return p.physical_network;
  return task.ports.find((port) => port.portgroup_id === p.id)?.physical_network ?? null;
}

/** get_free_port_like_object: prefer a matching physical network, then portgroups, then PXE-enabled ports. */
export function pickFreePortLike(task: DriverTask, vif: VifAttachInfo, filter: FreePortFilter = {}): PortLike {
  const free = freeCandidates(task, vif, filter);
  if (free.length === 0) throw new NoFreePhysicalPorts({ vif: vif.id });
  const physnets = filter.physnets ?? new Set<string>();
  const rank = (p: PortLike): number => {
    const physnet = physnetOf(task, p);
    return (physnet !== null && physnets.has(physnet) ? 4 : 0) + (isPortgroup(p) ? 2 : 0) + (isPortgroup(p) || p.pxe_enabled ? 1 : 0);
  };
  return [...free].sort((a, b) => rank(b) - rank(a))[0];
}

export function findByVif(task: DriverTask, vifId: string): PortLike {
  for (const p of [...task.portgroups, ...task.ports]) if (tenantVifOf(p) === vifId) return p;
  throw new VifNotAttached({ vif: vifId, node: task.node.uuid });
}

export function listVifs(task: DriverTask): { id: string }[] {
  const out: { id: string }[] = [];
  for (const p of [...task.ports, ...task.portgroups]) {
    const id = tenantVifOf(p);
    if (id) out.push({ id });
  }
  return out;
}

export function currentVif(p: PortLike): string | null {
  const info = p.internal_info ?? {};
  for (const key of ['cleaning_vif_port_id', 'provisioning_vif_port_id', 'rescuing_vif_port_id', 'inspection_vif_port_id']) {
    if (typeof info[key] === 'string' && info[key]) return info[key] as string;
  }
  return tenantVifOf(p);
}

export { isPortgroup };

/** Records `vifId` as the tenant VIF of `target` (a port or portgroup). */
export async function recordVif(task: DriverTask, target: PortLike, vifId: string): Promise<void> {
  const internal = { ...(target.internal_info ?? {}), [TENANT_VIF_KEY]: vifId };
  if (isPortgroup(target)) await task.updatePortgroup(target, { internal_info: internal });
  else await task.updatePort(target, { internal_info: internal });
}

/** Forgets the tenant VIF `vifId` (internal_info and the legacy extra.vif_port_id). */
export async function forgetVif(task: DriverTask, vifId: string): Promise<void> {
  const target = findByVif(task, vifId);
  const internal = { ...(target.internal_info ?? {}) };
  delete internal[TENANT_VIF_KEY];
  const extra = { ...(target.extra ?? {}) };
  delete extra.vif_port_id;
  if (isPortgroup(target)) await task.updatePortgroup(target, { internal_info: internal, extra });
  else await task.updatePort(target, { internal_info: internal, extra });
}
