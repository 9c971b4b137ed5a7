/**
 * /v1/inspection_rules (inspection_rule.py InspectionRuleController, 1.96+), written straight to the
 * database as Ironic's API does.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { HttpError, InvalidParameterValue, InspectionRuleNotFound, PatchError } from '../../common/errors';
import { lookupTable } from '../../common/own-keys';
import { pyRepr } from '../../common/python/repr';
import { INSPECTION_RULE_SCHEMA, RuleDict, validateRule } from '../../common/inspection-rules/validation';
import type { InspectionRuleRecord } from '../../db/models';
import * as rulesRepo from '../../db/repositories/inspection-rules';
import { collection } from '../collection';
import { applyJsonPatch, type PatchOp } from '../jsonpatch';
import { baseUrl } from '../links';
import { checkInvalidFields } from '../views/resource-dict';
import * as args from '../schemas/args';
import { readQuery, PAGE_ARGS, readListArgs, checkPage, deleteIdent } from '../schemas/list-query';
import { checkNodeVersionedFields } from '../schemas/node-field-versions';
import { patchValues, readPatch } from '../schemas/patch';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { ruleDict, ruleView, sanitizeRule } from '../views/inspection-rule';

const DEFAULT_FIELDS = ['uuid', 'priority', 'phase', 'description'];
const UNSORTABLE = ['actions', 'conditions'];
/** What None becomes: the object's non-nullable priority and sensitive take their defaults, the JSON list column stores []. */
const NON_NULL_DEFAULTS: Readonly<Record<string, unknown>> = lookupTable({ priority: 0, sensitive: false, conditions: [] });
/** get_all's signature; phase is taken unchecked and, as in Ironic, filters nothing. */
const LIST_ARGS = {
  ...PAGE_ARGS, marker: args.logicalName, fields: args.stringList, detail: args.boolean,
  phase: (_name: string, value: unknown): string | undefined => (typeof value === 'string' ? value : undefined),
} as const;
const RULE_VALIDATOR = args.andValid(args.schema(INSPECTION_RULE_SCHEMA), args.dictValid({ uuid: args.uuid }));

function requireRules(ctx: ApiContext): void {
  if (ctx.state.version >= V.INSPECTION_RULES) return;
  const msg = 'The API version does not allow inspection rules';
  throw ctx.method === 'GET' ? new HttpError(404, 'Not Found', msg) : new HttpError(405, 'Method Not Allowed', msg);
}

async function getRule(ctx: ApiContext, ident: string): Promise<InspectionRuleRecord> {
  // get_by_uuid: anything but an existing UUID is not found.
  if (!args.isUuidLike(ident)) throw new InspectionRuleNotFound({ rule: ident });
  return rulesRepo.get(ctx.state.deps.db, ident);
}

/** The next link's arguments in Ironic's order: its filters dict (as Python prints it) first. */
function listNextArgs(phase: string | undefined, sortKey: string, sortDir: string, detail: boolean | null,
  fields: string[] | null): [string, string][] {
  const filters = phase ? { phase } : {};
  const out: [string, string][] = [['filters', pyRepr(filters)], ['sort_key', sortKey], ['sort_dir', sortDir]];
  if (detail !== null) out.push(['detail', detail ? 'True' : 'False']);
  if (fields && fields.length > 0) out.push(['fields', fields.join(',')]);
  return out;
}

async function listRules(ctx: ApiContext): Promise<void> {
  requireRules(ctx);
  const listArgs = readListArgs(ctx, LIST_ARGS);
  const { marker, sortKey, detail, phase } = listArgs;
  const { fields, limit, sortDir } = checkPage(ctx, listArgs, DEFAULT_FIELDS, UNSORTABLE);
  const db = ctx.state.deps.db;
  if (marker) await getRule(ctx, marker);
  // Ironic 2025.1 repeats `phase` in the next link but does not filter by it.
  const rows = await rulesRepo.list(db, {}, { limit, marker: marker ?? undefined, sortKey, sortDir });
  const base = baseUrl(ctx);
  const items = rows.map((r) => ruleDict(base, r));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'inspection_rules', items as { uuid?: unknown }[], {
    limit, resource: 'inspection', nextArgs: listNextArgs(phase, sortKey, sortDir, detail, fields),
  });
  for (const item of items) sanitizeRule(item, fields);
}

async function showRule(ctx: ApiContext): Promise<void> {
  requireRules(ctx);
  const q = readQuery(ctx, ['fields']);
  const ident = args.uuid('inspection_rule_uuid', ctx.params.ident)!;
  const fields = args.stringList('fields', q.fields);
  const rule = await getRule(ctx, ident);
  checkNodeVersionedFields(ctx.state.version, fields);
  ctx.body = ruleView(baseUrl(ctx), rule, fields);
}

/** The columns a validated rule body writes. */
function ruleValues(body: Record<string, unknown>): rulesRepo.InspectionRuleValues {
  const values: rulesRepo.InspectionRuleValues = {};
  for (const key of ['uuid', 'priority', 'description', 'sensitive', 'phase', 'conditions', 'actions'] as const) {
    if (Object.hasOwn(body, key)) (values as Record<string, unknown>)[key] = body[key];
  }
  return values;
}

async function createRule(ctx: ApiContext): Promise<void> {
  requireRules(ctx);
  readQuery(ctx, []);
  const body = args.requiredBody('inspection_rule',
    RULE_VALIDATOR('inspection_rule', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  validateRule(body as RuleDict);
  if (!body.uuid) body.uuid = randomUUID();
  // The object's non-nullable boolean takes its default for null.
  if (body.sensitive === null) body.sensitive = NON_NULL_DEFAULTS.sensitive;
  const values = ruleValues(body);
  const created = await notifyApiChange(apiNotifyContext(ctx), 'inspectionrule', 'create', values,
    () => rulesRepo.create(ctx.state.deps.db, values), hiddenIfSensitive(values), hiddenIfSensitive);
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/inspection_rules/${created.uuid}`);
  ctx.body = ruleView(baseUrl(ctx), created, null);
}

/** Unsetting `sensitive` is refused: a rule once sensitive stays so. */
function checkSensitivePatch(patch: PatchOp[], rule: InspectionRuleRecord): void {
  const values = patchValues(patch, '/sensitive');
  const sensitive = values.length ? values[0] : null;
  if (sensitive !== null && !sensitive && rule.sensitive) {
    throw new PatchError({ patch: pyRepr(patch), reason: 'Inspection rules cannot have the sensitive flag unset.' });
  }
}

function ruleDocument(rule: InspectionRuleRecord): Record<string, unknown> {
  return {
    id: rule.id, uuid: rule.uuid, priority: rule.priority, description: rule.description, scope: rule.scope,
    sensitive: rule.sensitive, phase: rule.phase, conditions: rule.conditions, actions: rule.actions,
    created_at: rule.created_at, updated_at: rule.updated_at,
  };
}

async function patchRule(ctx: ApiContext): Promise<void> {
  requireRules(ctx);
  const ident = args.uuid('inspection_rule_uuid', deleteIdent(ctx, 'inspection_rule_uuid', ctx.params.ident))!;
  const patch = readPatch(ctx.state.body);
  const rule = await getRule(ctx, ident);
  checkSensitivePatch(patch, rule);
  const doc = applyJsonPatch(ruleDocument(rule) as Record<string, never>, patch) as Record<string, unknown>;
  for (const key of Object.keys(doc)) if (!Object.hasOwn(INSPECTION_RULE_SCHEMA.properties!, key)) delete doc[key];
  RULE_VALIDATOR('patch', doc);
  validateRule(doc as RuleDict);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(INSPECTION_RULE_SCHEMA.properties!)) {
    // A removed field is None, which the object's non-nullable fields take as their default.
    const next = Object.hasOwn(doc, key) && doc[key] !== null ? doc[key] : Object.hasOwn(NON_NULL_DEFAULTS, key) ? NON_NULL_DEFAULTS[key] : null;
    if (JSON.stringify(next) !== JSON.stringify((rule as unknown as Record<string, unknown>)[key])) changes[key] = next;
  }
  // Ironic saves by the patched UUID, which finds no rule.
  if (Object.hasOwn(changes, 'uuid')) throw new InspectionRuleNotFound({ rule: String(changes.uuid) });
  const patched = { ...rule, ...changes };
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'inspectionrule', 'update', patched,
    async () => (Object.keys(changes).length ? rulesRepo.update(ctx.state.deps.db, rule.id, changes) : rule),
    hiddenIfSensitive(patched), hiddenIfSensitive);
  ctx.body = ruleView(baseUrl(ctx), updated, null);
}

/**
 * Beyond Ironic (whose payloads carry them): a sensitive rule's conditions and actions may hold
 * credentials, and the API hides them, so its notifications do too (no conditions, no actions).
 */
function hiddenIfSensitive(rule: { sensitive?: boolean | null }): Record<string, unknown> {
  return rule.sensitive ? { conditions: null, actions: [] } : {};
}

async function deleteRule(ctx: ApiContext): Promise<void> {
  requireRules(ctx);
  const ident = args.uuid('inspection_rule_uuid', deleteIdent(ctx, 'inspection_rule_uuid', ctx.params.ident))!;
  const rule = await getRule(ctx, ident);
  await notifyApiChange(apiNotifyContext(ctx), 'inspectionrule', 'delete', rule,
    () => rulesRepo.destroy(ctx.state.deps.db, rule.id), hiddenIfSensitive(rule));
  ctx.status = 204;
}

export function inspectionRulesRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/inspection_rules', listRules);
  router.get('/v1/inspection_rules/:ident', showRule);
  router.post('/v1/inspection_rules', createRule);
  router.patch('/v1/inspection_rules/:ident', patchRule);
  // There is no bulk delete: on the collection the rule's UUID is an argument, missing unless given.
  router.delete('/v1/inspection_rules', deleteRule);
  router.delete('/v1/inspection_rules/:ident', deleteRule);
  return router;
}
