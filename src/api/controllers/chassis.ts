/**
 * /v1/chassis (chassis.py ChassisController). Chassis writes go straight to the database, as in
 * Ironic. GET /v1/chassis/{id}/nodes belongs to the nodes controller.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { ChassisNotFound, HTTPNotFound, InvalidParameterValue } from '../../common/errors';
import type { ChassisRecord } from '../../db/models';
import * as chassisRepo from '../../db/repositories/chassis';
import { collection } from '../collection';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import * as args from '../schemas/args';
import { CHASSIS_PATCH_ALLOWED_FIELDS, CHASSIS_SCHEMA, CHASSIS_VALIDATOR } from '../schemas/chassis';
import { checkAllowFields, nextArgs, readQuery, returnFields, validateLimit, validateSortDir, PAGE_ARGS, readListArgs, checkSortKey, deleteIdent } from '../schemas/list-query';
import { checkAllowedPatchFields, readPatch } from '../schemas/patch';
import type { ApiContext, ApiState } from '../state';
import { chassisDict, chassisView } from '../views/chassis';
import { sanitize, checkInvalidFields } from '../views/resource-dict';

const DEFAULT_FIELDS = ['uuid', 'description'];

/** ChassisController.get_all's signature (detail() takes the paging ones only). */
const LIST_ARGS = { ...PAGE_ARGS, fields: args.stringList, detail: args.boolean } as const;

async function listChassis(ctx: ApiContext, detailPath: boolean): Promise<void> {
  let { marker, limit: rawLimit, sortKey, sortDir: rawDir, fields, detail, rawDetail } =
    readListArgs(ctx, LIST_ARGS, detailPath ? Object.keys(PAGE_ARGS) : undefined);
  if (!detailPath) {
    checkAllowFields(ctx, fields);
    fields = returnFields(ctx, fields, detail, rawDetail, DEFAULT_FIELDS);
  }
  const limit = validateLimit(ctx, rawLimit);
  const sortDir = validateSortDir(rawDir);
  const db = ctx.state.deps.db;
  if (marker) await chassisRepo.get(db, marker);
  checkSortKey(sortKey, ['extra']);
  const rows = await chassisRepo.list(db, { limit, marker: marker ?? undefined, sortKey, sortDir });
  const base = baseUrl(ctx);
  const items = rows.map((c) => chassisDict(base, c));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'chassis', items as { uuid?: unknown }[], {
    limit, resource: detailPath ? 'chassis/detail' : 'chassis', nextArgs: nextArgs(sortKey, sortDir, fields, detail),
  });
  for (const item of items) sanitize(item, fields);
}

async function showChassis(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['fields']);
  const uuid = args.uuid('chassis_uuid', ctx.params.uuid)!;
  const fields = args.stringList('fields', q.fields);
  checkAllowFields(ctx, fields);
  const chassis = await chassisRepo.get(ctx.state.deps.db, uuid);
  ctx.body = chassisView(baseUrl(ctx), chassis, fields);
}

async function createChassis(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const body = args.requiredBody('chassis', CHASSIS_VALIDATOR('chassis', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  const values = {
    uuid: (body.uuid as string | null) || randomUUID(),
    description: (body.description as string | null | undefined) ?? null,
    extra: 'extra' in body ? body.extra as ChassisRecord['extra'] : {},
  };
  const created = await notifyApiChange(apiNotifyContext(ctx), 'chassis', 'create', values,
    () => chassisRepo.create(ctx.state.deps.db, values));
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/chassis/${created.uuid}`);
  ctx.body = chassisView(baseUrl(ctx), created, null);
}

async function patchChassis(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const ident = args.string('chassis_uuid', ctx.params.uuid)!;
  const patch = readPatch(ctx.state.body);
  checkAllowedPatchFields(patch, CHASSIS_PATCH_ALLOWED_FIELDS);
  const db = ctx.state.deps.db;
  // get_by_uuid: anything that is not a stored uuid is simply not found.
  if (!args.isUuidLike(ident)) throw new ChassisNotFound({ chassis: ident });
  const chassis = await chassisRepo.get(db, ident);
  const doc = applyJsonPatch({
    created_at: chassis.created_at, updated_at: chassis.updated_at, id: chassis.id, uuid: chassis.uuid,
    extra: chassis.extra, description: chassis.description,
  } as Record<string, unknown>, patch);
  for (const key of Object.keys(doc)) if (!Object.hasOwn(CHASSIS_SCHEMA.properties!, key)) delete doc[key];
  CHASSIS_VALIDATOR('patch', doc);
  const changes: Record<string, unknown> = {};
  for (const field of ['uuid', 'extra', 'description']) {
    const value = doc[field] ?? null;
    if (JSON.stringify(value) !== JSON.stringify((chassis as unknown as Record<string, unknown>)[field])) changes[field] = value;
  }
  if ('uuid' in changes) throw new InvalidParameterValue('Cannot overwrite UUID for an existing Chassis.');
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'chassis', 'update', { ...chassis, ...changes },
    async () => (Object.keys(changes).length ? chassisRepo.update(db, chassis.id, changes) : chassis));
  ctx.body = chassisView(baseUrl(ctx), updated, null);
}

async function deleteChassis(ctx: ApiContext): Promise<void> {
  const uuid = args.uuid('chassis_uuid', deleteIdent(ctx, 'chassis_uuid', ctx.params.uuid))!;
  const chassis = await chassisRepo.get(ctx.state.deps.db, uuid);
  await notifyApiChange(apiNotifyContext(ctx), 'chassis', 'delete', chassis, () => chassisRepo.destroy(ctx.state.deps.db, uuid));
  ctx.status = 204;
}

export function chassisRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/chassis', (ctx) => listChassis(ctx, false));
  router.get('/v1/chassis/detail', (ctx) => listChassis(ctx, true));
  router.get('/v1/chassis/:uuid', showChassis);
  router.get('/v1/chassis/:uuid/detail', () => { throw new HTTPNotFound(); });
  router.post('/v1/chassis', createChassis);
  router.patch('/v1/chassis/:uuid', patchChassis);
  router.delete('/v1/chassis', deleteChassis);
  router.delete('/v1/chassis/:uuid', deleteChassis);
  return router;
}
