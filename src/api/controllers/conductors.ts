/** /v1/conductors (conductor.py ConductorsController, 1.49+): list and show by hostname. */
import Router from '@koa/router';
import { ConductorNotFound, InvalidParameterValue, NotFound } from '../../common/errors';
import { decodeRow } from '../../db/codec';
import type { ConductorRecord } from '../../db/models';
import { applyPage } from '../../db/repositories/paginate';
import { collection } from '../collection';
import { baseUrl } from '../links';
import * as args from '../schemas/args';
import { checkAllowFields, nextArgs, readQuery, returnFields, validateLimit, validateSortDir, PAGE_ARGS, readListArgs, checkSortKey } from '../schemas/list-query';
import { checkNodeVersionedFields } from '../schemas/node-field-versions';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { conductorDict, conductorView } from '../views/conductor';
import { sanitize, checkInvalidFields } from '../views/resource-dict';

const DEFAULT_FIELDS = ['hostname', 'conductor_group', 'alive'];

async function conductorRow(ctx: ApiContext, hostname: string): Promise<Record<string, unknown>> {
  const row = await ctx.state.deps.db.knex('conductors').where({ hostname }).first() as Record<string, unknown> | undefined;
  if (!row) throw new ConductorNotFound({ conductor: hostname });
  return row;
}

/** ConductorsController.get_all's signature: conductors are paged by hostname. */
const LIST_ARGS = { ...PAGE_ARGS, marker: args.logicalName, fields: args.stringList, detail: args.boolean } as const;

async function listConductors(ctx: ApiContext): Promise<void> {
  let { marker, limit: rawLimit, sortKey, sortDir: rawDir, fields, detail, rawDetail } = readListArgs(ctx, LIST_ARGS);
  if (ctx.state.version < V.CONDUCTORS) throw new NotFound();
  checkAllowFields(ctx, fields);
  checkNodeVersionedFields(ctx.state.version, fields);
  checkNodeVersionedFields(ctx.state.version, [sortKey]);
  fields = returnFields(ctx, fields, detail, rawDetail, DEFAULT_FIELDS);
  const limit = validateLimit(ctx, rawLimit);
  const sortDir = validateSortDir(rawDir);
  checkSortKey(sortKey, ['alive', 'drivers']);
  const rawMarker = marker ? await conductorRow(ctx, marker) : null;
  const query = ctx.state.deps.db.knex('conductors').select('conductors.*');
  const rows = await applyPage(query, 'conductors', { limit, sortKey, sortDir }, rawMarker) as Array<Record<string, unknown>>;
  const base = baseUrl(ctx);
  const timeout = ctx.state.deps.conf.int('conductor', 'heartbeat_timeout');
  const items = rows.map((r) => conductorDict(base, decodeRow<ConductorRecord>('conductors', r), timeout));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'conductors', items as { uuid?: unknown }[], {
    limit, resource: 'conductors', nextArgs: nextArgs(sortKey, sortDir, fields, detail),
    markerOf: (item) => String((item as Record<string, unknown>).hostname),
  });
  for (const item of items) sanitize(item, fields);
}

async function showConductor(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['fields']);
  const hostname = args.logicalName('hostname', ctx.params.hostname)!;
  const fields = args.stringList('fields', q.fields);
  if (ctx.state.version < V.CONDUCTORS) throw new NotFound();
  checkAllowFields(ctx, fields);
  checkNodeVersionedFields(ctx.state.version, fields);
  const row = await conductorRow(ctx, hostname);
  ctx.body = conductorView(baseUrl(ctx), decodeRow<ConductorRecord>('conductors', row),
    ctx.state.deps.conf.int('conductor', 'heartbeat_timeout'), fields);
}

export function conductorsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/conductors', listConductors);
  router.get('/v1/conductors/:hostname', showConductor);
  return router;
}
