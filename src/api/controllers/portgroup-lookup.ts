/** get_rpc_portgroup: a portgroup by UUID or logical name. */
import { InvalidUuidOrName } from '../../common/errors';
import type { PortgroupRecord } from '../../db/models';
import * as portgroupsRepo from '../../db/repositories/portgroups';
import { isUuidLike, isValidLogicalName } from '../schemas/args';
import type { ApiContext } from '../state';

export async function getPortgroupByIdent(ctx: ApiContext, ident: string): Promise<PortgroupRecord> {
  if (!isUuidLike(ident) && !isValidLogicalName(ident)) throw new InvalidUuidOrName({ name: ident });
  return portgroupsRepo.get(ctx.state.deps.db, ident);
}
