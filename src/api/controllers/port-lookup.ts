/**
 * The port a path names (Port.get of Ironic 2025.1, after args.uuid_or_name): an integer-like ident
 * is the port's id, a UUID its uuid, anything else its name (API 1.88 named ports, but the lookup
 * serves every version).
 */
import type { PortRecord } from '../../db/models';
import * as portsRepo from '../../db/repositories/ports';
import * as args from '../schemas/args';
import type { ApiContext } from '../state';

/** Python's strutils.is_int_like: the text is exactly what int() of it prints. */
function isIntLike(text: string): boolean {
  return /^-?(0|[1-9]\d*)$/.test(text);
}

export async function getPortByIdent(ctx: ApiContext, raw: string): Promise<PortRecord> {
  const ident = args.uuidOrName('port_ident', raw)!;
  return portsRepo.get(ctx.state.deps.db, isIntLike(ident) ? Number(ident) : ident);
}
