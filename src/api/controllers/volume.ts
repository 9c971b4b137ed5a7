/**
 * /v1/volume (volume.py, 1.32+): the index plus connectors and targets. The handlers live in
 * volume-resource.ts; the `*_KIND` specs also serve /v1/nodes/{id}/volume/... (nodes controller).
 */
import Router from '@koa/router';
import { HttpError, NotFound } from '../../common/errors';
import type { VolumeConnectorRecord, VolumeTargetRecord } from '../../db/models';
import * as connectorsRepo from '../../db/repositories/volume-connectors';
import * as targetsRepo from '../../db/repositories/volume-targets';
import { baseUrl } from '../links';
import { readQuery } from '../schemas/list-query';
import {
  CONNECTOR_PATCH_ALLOWED_FIELDS, CONNECTOR_SCHEMA, CONNECTOR_VALIDATOR, TARGET_PATCH_ALLOWED_FIELDS, TARGET_SCHEMA,
  TARGET_VALIDATOR,
} from '../schemas/volume';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { connectorDict, sanitizeConnector, sanitizeTarget, targetDict, volumeIndex } from '../views/volume';
import { createVolume, deleteVolume, listVolume, patchVolume, showVolume, VolumeKind } from './volume-resource';

export const CONNECTOR_KIND: VolumeKind<VolumeConnectorRecord> = {
  noun: 'connector',
  collection: 'connectors',
  defaultFields: ['uuid', 'node_uuid', 'type', 'connector_id'],
  invalidSortKeys: ['extra'],
  schema: CONNECTOR_SCHEMA,
  validate: CONNECTOR_VALIDATOR,
  patchAllowed: CONNECTOR_PATCH_ALLOWED_FIELDS,
  updatable: ['connector_id', 'extra', 'type', 'uuid'],
  repo: connectorsRepo,
  rpc: {
    update: (conductor, uuid, changes) => conductor.updateVolumeConnector(uuid, changes),
    destroy: (conductor, uuid) => conductor.destroyVolumeConnector(uuid),
  },
  dict: connectorDict,
  sanitize: sanitizeConnector,
  createFields: ['connector_id', 'extra', 'type'],
  notifyAs: 'volumeconnector',
};

export const TARGET_KIND: VolumeKind<VolumeTargetRecord> = {
  noun: 'target',
  collection: 'targets',
  defaultFields: ['uuid', 'node_uuid', 'volume_type', 'boot_index', 'volume_id'],
  invalidSortKeys: ['extra', 'properties'],
  schema: TARGET_SCHEMA,
  validate: TARGET_VALIDATOR,
  patchAllowed: TARGET_PATCH_ALLOWED_FIELDS,
  updatable: ['boot_index', 'extra', 'properties', 'volume_id', 'volume_type', 'uuid'],
  repo: targetsRepo,
  rpc: {
    update: (conductor, uuid, changes) => conductor.updateVolumeTarget(uuid, changes),
    destroy: (conductor, uuid) => conductor.destroyVolumeTarget(uuid),
  },
  dict: targetDict,
  sanitize: sanitizeTarget,
  createFields: ['boot_index', 'extra', 'properties', 'volume_id', 'volume_type'],
  notifyAs: 'volumetarget',
};

/** VolumeController._lookup below 1.32: a routing 404 with an empty description. */
async function requireVolume(ctx: ApiContext, next: () => Promise<unknown>): Promise<void> {
  if (ctx.state.version < V.VOLUME) throw new HttpError(404, 'Not Found', '');
  await next();
}

function index(ctx: ApiContext): void {
  readQuery(ctx, []);
  if (ctx.state.version < V.VOLUME) throw new NotFound();
  ctx.body = volumeIndex(baseUrl(ctx), null);
}

function mount<R extends { id: number; uuid: string; node_id: number | null; created_at: Date | null; updated_at: Date | null }>(
  router: Router<ApiState>, kind: VolumeKind<R>): void {
  const base = `/v1/volume/${kind.collection}`;
  router.get(base, requireVolume, (ctx) => listVolume(kind, ctx));
  router.get(`${base}/:uuid`, requireVolume, (ctx) => showVolume(kind, ctx));
  router.post(base, requireVolume, (ctx) => createVolume(kind, ctx));
  router.patch(`${base}/:uuid`, requireVolume, (ctx) => patchVolume(kind, ctx));
  router.delete(base, requireVolume, (ctx) => deleteVolume(kind, ctx));
  router.delete(`${base}/:uuid`, requireVolume, (ctx) => deleteVolume(kind, ctx));
}

export function volumeRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/volume', index);
  mount(router, CONNECTOR_KIND);
  mount(router, TARGET_KIND);
  return router;
}
