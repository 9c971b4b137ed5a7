/**
 * GET /v1/nodes/{ident}/firmware (NodeFirmwareController, 1.86): the node's firmware components as
 * the firmware interface cached them (firmware_information), with Ironic's fields/detail rules.
 */
import type Router from '@koa/router';
import type { FirmwareComponentRecord } from '../../../db/models';
import * as firmwareRepo from '../../../db/repositories/firmware';
import { checkPathIdent, getNodeByIdent, routingNotFound } from '../../node-lookup';
import * as args from '../../schemas/args';
import { readQuery } from '../../schemas/list-query';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { checkInvalidFields, isoformat } from '../../views/resource-dict';
import { InvalidParameterValue } from '../../../common/errors';

type Ctx = ApiContext & { params: Record<string, string> };

const DEFAULT_FIELDS = ['component', 'initial_version', 'current_version', 'last_version_flashed'] as const;
/** The FirmwareComponent object's fields, which ?fields= may name (Ironic fails on others with a 500). */
const OBJECT_FIELDS = ['id', 'node_id', ...DEFAULT_FIELDS, 'created_at', 'updated_at'];

/** object_to_dict(include_uuid=False): created_at and updated_at, then the asked fields. */
function componentView(row: FirmwareComponentRecord, fields: readonly string[]): Record<string, unknown> {
  const values = new Map<string, unknown>(Object.entries(row));
  const out: Record<string, unknown> = { created_at: isoformat(row.created_at), updated_at: isoformat(row.updated_at) };
  for (const field of fields) {
    if (field === 'created_at' || field === 'updated_at') continue;
    out[field] = values.get(field) ?? null;
  }
  return out;
}

/** get_request_return_fields: ?detail=True alone names no fields at all, as upstream. */
function returnFields(fields: string[] | null, detail: boolean | null): readonly string[] {
  if (fields !== null && detail) throw new InvalidParameterValue('Can not specify ?detail=True and fields in the same request.');
  if (fields === null && !detail) return DEFAULT_FIELDS;
  return fields ?? [];
}

async function listFirmware(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (ctx.state.version < V.FIRMWARE_INTERFACE) throw routingNotFound();
  const q = readQuery(ctx, ['detail', 'fields']);
  const detail = args.boolean('detail', q.detail);
  const fields = args.stringList('fields', q.fields);
  const node = await getNodeByIdent(ctx, ident);
  const shown = returnFields(fields, detail);
  checkInvalidFields(shown, OBJECT_FIELDS);
  const rows = await firmwareRepo.list(ctx.state.deps.db, node.id);
  ctx.body = { firmware: rows.map((row) => componentView(row, shown)) };
}

export function addFirmwareRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/firmware', listFirmware);
}
