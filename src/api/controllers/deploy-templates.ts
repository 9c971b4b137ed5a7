/** /v1/deploy_templates (deploy_template.py DeployTemplatesController, 1.55+), written straight to the database. */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { DeployTemplateNotFound, HttpError, InvalidParameterValue, InvalidUuidOrName } from '../../common/errors';
import type { DeployTemplateStepRecord, DeployTemplateWithSteps } from '../../db/models';
import * as templatesRepo from '../../db/repositories/deploy-templates';
import { collection } from '../collection';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { ironicStepOrder } from '../step-rows';
import * as args from '../schemas/args';
import {
  DEPLOY_STEP_SCHEMA, TEMPLATE_PATCH_ALLOWED_FIELDS, TEMPLATE_SCHEMA, TEMPLATE_VALIDATOR,
} from '../schemas/deploy-template';
import { schemaErrorMessage } from '../schemas/jsonschema';
import { nextArgs, readQuery, PAGE_ARGS, readListArgs, checkPage, deleteIdent } from '../schemas/list-query';
import { checkNodeVersionedFields } from '../schemas/node-field-versions';
import { checkAllowedPatchFields, readPatch } from '../schemas/patch';
import { checkInvalidFields } from '../views/resource-dict';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { sanitizeTemplate, templateDict, templateView } from '../views/deploy-template';

const DEFAULT_FIELDS = ['uuid', 'name'];

interface StepBody {
  interface: string;
  step: string;
  args: Record<string, unknown>;
  priority: number | string;
}

function requireTemplates(ctx: ApiContext): void {
  if (ctx.state.version >= V.DEPLOY_TEMPLATES) return;
  const msg = 'The API version does not allow deploy templates';
  throw ctx.method === 'GET' ? new HttpError(404, 'Not Found', msg) : new HttpError(405, 'Method Not Allowed', msg);
}

async function getTemplate(ctx: ApiContext, ident: string): Promise<DeployTemplateWithSteps> {
  if (!args.isUuidLike(ident) && !args.isValidLogicalName(ident)) throw new InvalidUuidOrName({ name: ident });
  return templatesRepo.get(ctx.state.deps.db, ident);
}

/** DeployTemplatesController.get_all's signature: the marker may be a name. */
const LIST_ARGS = { ...PAGE_ARGS, marker: args.logicalName, fields: args.stringList, detail: args.boolean } as const;

async function listTemplates(ctx: ApiContext): Promise<void> {
  requireTemplates(ctx);
  const listArgs = readListArgs(ctx, LIST_ARGS);
  const { marker, sortKey, detail } = listArgs;
  const { fields, limit, sortDir } = checkPage(ctx, listArgs, DEFAULT_FIELDS, ['extra', 'steps']);
  const db = ctx.state.deps.db;
  // get_by_uuid with a name-shaped marker: only an existing uuid is found.
  if (marker && !args.isUuidLike(marker)) throw new DeployTemplateNotFound({ template: marker });
  if (marker) await templatesRepo.get(db, marker);
  const rows = await templatesRepo.list(db, { limit, marker: marker ?? undefined, sortKey, sortDir });
  const base = baseUrl(ctx);
  const items = rows.map((t) => templateDict(base, t));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'deploy_templates', items as { uuid?: unknown }[], {
    limit, resource: 'deploy_templates', nextArgs: nextArgs(sortKey, sortDir, fields, detail),
  });
  for (const item of items) sanitizeTemplate(item, fields);
}

async function showTemplate(ctx: ApiContext): Promise<void> {
  requireTemplates(ctx);
  const q = readQuery(ctx, ['fields']);
  const ident = args.uuidOrName('template_ident', ctx.params.ident)!;
  const fields = args.stringList('fields', q.fields);
  checkNodeVersionedFields(ctx.state.version, fields);
  ctx.body = templateView(baseUrl(ctx), await getTemplate(ctx, ident), fields);
}

function stepValues(steps: StepBody[]): { interface: string; step: string; args: Record<string, unknown>; priority: number }[] {
  return steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, priority: Number(s.priority) }));
}

/** Ironic answers writes from the object it saved, so step priorities appear as the request gave them. */
function withRequestSteps(t: DeployTemplateWithSteps, steps: StepBody[]): DeployTemplateWithSteps {
  return { ...t, steps: steps.map((s) => ({ ...s }) as unknown as DeployTemplateStepRecord) };
}

/** The template's steps as DeployTemplate.steps holds them (interface, step, args, priority). */
function payloadSteps(steps: readonly { interface: string; step: string; args: unknown; priority: number }[]): unknown[] {
  return steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, priority: s.priority }));
}

async function createTemplate(ctx: ApiContext): Promise<void> {
  requireTemplates(ctx);
  readQuery(ctx, []);
  const body = args.requiredBody('template', TEMPLATE_VALIDATOR('template', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  const steps = body.steps as StepBody[];
  const values = {
    uuid: (body.uuid as string | null) || randomUUID(),
    name: body.name as string,
    extra: 'extra' in body ? body.extra as DeployTemplateWithSteps['extra'] : {},
    steps: stepValues(steps),
  };
  const created = await notifyApiChange(apiNotifyContext(ctx), 'deploytemplate', 'create', values,
    () => templatesRepo.create(ctx.state.deps.db, values), { steps: payloadSteps(values.steps) },
    (stored) => ({ steps: payloadSteps(stored.steps) }));
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/deploy_templates/${created.uuid}`);
  ctx.body = templateView(baseUrl(ctx), withRequestSteps(created, steps), null);
}

async function patchTemplate(ctx: ApiContext): Promise<void> {
  requireTemplates(ctx);
  const ident = args.uuidOrName('template_ident', deleteIdent(ctx, 'template_ident', ctx.params.ident))!;
  const patch = readPatch(ctx.state.body);
  checkAllowedPatchFields(patch, TEMPLATE_PATCH_ALLOWED_FIELDS);
  const t = await getTemplate(ctx, ident);
  const doc = applyJsonPatch({
    created_at: t.created_at, updated_at: t.updated_at, id: t.id, uuid: t.uuid, name: t.name, extra: t.extra,
    steps: t.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, priority: s.priority })),
  } as Record<string, unknown>, patch);
  for (const step of (Array.isArray(doc.steps) ? doc.steps : []) as Record<string, unknown>[]) {
    if (step === null || typeof step !== 'object') continue;
    for (const key of Object.keys(step)) if (!Object.hasOwn(DEPLOY_STEP_SCHEMA.properties!, key)) delete step[key];
    const message = schemaErrorMessage('patch', step, DEPLOY_STEP_SCHEMA);
    if (message !== null) throw new InvalidParameterValue(message);
  }
  for (const key of Object.keys(doc)) if (!Object.hasOwn(TEMPLATE_SCHEMA.properties!, key)) delete doc[key];
  TEMPLATE_VALIDATOR('patch', doc);
  const changes: Record<string, unknown> = {};
  if (doc.name !== t.name) changes.name = doc.name;
  if (JSON.stringify(doc.extra ?? null) !== JSON.stringify(t.extra)) changes.extra = doc.extra ?? null;
  if (doc.uuid !== t.uuid) throw new InvalidParameterValue('Cannot overwrite UUID for an existing DeployTemplate.');
  const current = t.steps.map((c) => ({ interface: c.interface, step: c.step, args: c.args, priority: c.priority }));
  const steps = ironicStepOrder(current, stepValues(doc.steps as StepBody[]), (s) => s.priority);
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'deploytemplate', 'update', { ...t, ...changes },
    () => templatesRepo.update(ctx.state.deps.db, t.id, { ...changes, steps }), { steps: payloadSteps(steps) },
    (stored) => ({ steps: payloadSteps(stored.steps) }));
  ctx.body = templateView(baseUrl(ctx), updated, null);
}

async function deleteTemplate(ctx: ApiContext): Promise<void> {
  requireTemplates(ctx);
  const ident = args.uuidOrName('template_ident', deleteIdent(ctx, 'template_ident', ctx.params.ident))!;
  const t = await getTemplate(ctx, ident);
  await notifyApiChange(apiNotifyContext(ctx), 'deploytemplate', 'delete', t,
    () => templatesRepo.destroy(ctx.state.deps.db, t.id), { steps: payloadSteps(t.steps) });
  ctx.status = 204;
}

export function deployTemplatesRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/deploy_templates', listTemplates);
  router.get('/v1/deploy_templates/:ident', showTemplate);
  router.post('/v1/deploy_templates', createTemplate);
  router.patch('/v1/deploy_templates/:ident', patchTemplate);
  router.delete('/v1/deploy_templates', deleteTemplate);
  router.delete('/v1/deploy_templates/:ident', deleteTemplate);
  return router;
}
