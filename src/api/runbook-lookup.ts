/** The runbook a path or a provision request names (api utils get_rpc_runbook). */
import { InvalidUuidOrName, RunbookNotFound } from '../common/errors';
import type { RunbookWithRelations } from '../db/models';
import { NotFoundError } from '../db/errors';
import * as runbooks from '../db/repositories/runbooks';
import { isUuidLike, isValidLogicalName } from './schemas/args';
import type { ApiContext } from './state';

/** By UUID, else by name; an ident that is neither is refused before any lookup. */
export async function getRunbook(ctx: ApiContext, ident: string): Promise<RunbookWithRelations> {
  if (!isUuidLike(ident) && !isValidLogicalName(ident)) throw new InvalidUuidOrName({ name: ident });
  try {
    return await runbooks.get(ctx.state.deps.db, ident);
  } catch (err) {
    if (err instanceof NotFoundError) throw new RunbookNotFound({ runbook: ident });
    throw err;
  }
}

/** api utils convert_steps: the runbook's steps as a request would give them. */
export function runbookSteps(runbook: RunbookWithRelations): { interface: string; step: string; args: Record<string, unknown>; order: number }[] {
  return runbook.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, order: s.order }));
}
