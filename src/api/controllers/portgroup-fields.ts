/**
 * Which portgroup fields a microversion knows, and portgroups' own (1.23): read by the portgroup
 * list and show (portgroups.ts) and by the writes (portgroups-write.ts), which the list mounts.
 */
import { NotAcceptable, NotFound } from '../../common/errors';
import type { ApiContext } from '../state';
import { V } from '../versions';

export function requirePortgroups(ctx: ApiContext): void {
  if (ctx.state.version < V.PORTGROUP) throw new NotFound();
}

/** check_allowed_portgroup_fields: mode/properties need 1.26. */
export function checkAllowedPortgroupFields(ctx: ApiContext, fields: string[] | null): void {
  if (fields === null) return;
  if ((fields.includes('mode') || fields.includes('properties')) && ctx.state.version < V.PORTGROUP_MODE_PROPERTIES) {
    throw new NotAcceptable();
  }
}
