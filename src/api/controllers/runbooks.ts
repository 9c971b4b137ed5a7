/**
 * /v1/runbooks (runbook.py RunbooksController, 1.92+), written straight to the database. Policy is
 * checked here against the runbook's owner (check_runbook_policy_and_retrieve); lists honour the
 * project scope the policy step leaves.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import {
  HTTPForbidden, HttpError, Invalid, InvalidParameterValue, PatchError, RunbookNotFound,
} from '../../common/errors';
import { pyRepr } from '../../common/python/repr';
import type { RunbookWithRelations } from '../../db/models';
import * as runbooksRepo from '../../db/repositories/runbooks';
import { collection } from '../collection';
import type { PatchOp } from '../jsonpatch';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { checkInvalidFields } from '../views/resource-dict';
import { authorizeOwned, listScope } from '../policy/scope';
import { getRunbook } from '../runbook-lookup';
import { ironicStepOrder } from '../step-rows';
import * as args from '../schemas/args';
import { schemaErrorMessage } from '../schemas/jsonschema';
import { nextArgs, PAGE_ARGS, readListArgs, readQuery, checkPage, deleteIdent } from '../schemas/list-query';
import { checkNodeVersionedFields } from '../schemas/node-field-versions';
import { checkAllowedPatchFields, patchValues, readPatch } from '../schemas/patch';
import { RUNBOOK_PATCH_ALLOWED_FIELDS, RUNBOOK_SCHEMA, RUNBOOK_STEP_SCHEMA, RUNBOOK_VALIDATOR } from '../schemas/runbook';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { runbookDict, runbookView, sanitizeRunbook, type RunbookStepView } from '../views/runbook';

const DEFAULT_FIELDS = ['uuid', 'name'];

function requireRunbooks(ctx: ApiContext): void {
  if (ctx.state.version >= V.RUNBOOKS) return;
  const msg = 'The API version does not allow runbooks';
  throw ctx.method === 'GET' ? new HttpError(404, 'Not Found', msg) : new HttpError(405, 'Method Not Allowed', msg);
}

/** check_runbook_policy_and_retrieve. */
async function authorizedRunbook(ctx: ApiContext, policy: string, ident: string): Promise<RunbookWithRelations> {
  const runbook = await getRunbook(ctx, ident);
  authorizeOwned(ctx.state.auth, policy, 'runbook', runbook.owner);
  return runbook;
}

/** get_all's signature. */
const LIST_ARGS = {
  ...PAGE_ARGS, marker: args.logicalName, fields: args.stringList, detail: args.boolean, project: args.boolean,
} as const;

async function listRunbooks(ctx: ApiContext): Promise<void> {
  requireRunbooks(ctx);
  // project is validated as a boolean, as Ironic's signature declares it, and otherwise unused.
  const listArgs = readListArgs(ctx, LIST_ARGS);
  const { marker, sortKey, detail } = listArgs;
  const { fields, limit, sortDir } = checkPage(ctx, listArgs, DEFAULT_FIELDS, ['extra', 'steps']);
  const db = ctx.state.deps.db;
  // Runbook.get_by_uuid: a marker is only ever found by its uuid.
  if (marker && !args.isUuidLike(marker)) throw new RunbookNotFound({ runbook: marker });
  if (marker) await getRunbook(ctx, marker);
  const rows = await runbooksRepo.list(db, listScope(ctx.state.auth), { limit, marker: marker ?? undefined, sortKey, sortDir });
  const base = baseUrl(ctx);
  const items = rows.map((r) => runbookDict(base, r));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'runbooks', items as { uuid?: unknown }[], {
    limit, resource: 'runbooks', nextArgs: nextArgs(sortKey, sortDir, fields, detail),
  });
  for (const item of items) sanitizeRunbook(item, fields);
}

async function showRunbook(ctx: ApiContext): Promise<void> {
  requireRunbooks(ctx);
  const q = readQuery(ctx, ['fields']);
  const ident = args.uuidOrName('runbook_ident', ctx.params.ident)!;
  const fields = args.stringList('fields', q.fields);
  let runbook: RunbookWithRelations;
  try {
    runbook = await authorizedRunbook(ctx, 'baremetal:runbook:get', ident);
  } catch (err) {
    // check_and_retrieve_public_runbook: anyone may read a public runbook.
    if (!(err instanceof HTTPForbidden)) throw err;
    runbook = await getRunbook(ctx, ident);
    if (!runbook.public) throw err;
  }
  checkNodeVersionedFields(ctx.state.version, fields);
  ctx.body = runbookView(baseUrl(ctx), runbook, fields);
}

interface StepBody {
  interface: string;
  step: string;
  args?: Record<string, unknown>;
  order: number | string;
}

function stepValues(steps: StepBody[]): runbooksRepo.RunbookStepValues[] {
  return steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args ?? {}, order: Number(s.order) }));
}

/**
 * RunbooksController.post's owner rules: outside the system scope a runbook belongs to the
 * caller's project, which may neither give it another owner nor make it public.
 */
function createOwner(ctx: ApiContext, body: Record<string, unknown>): string | null {
  const auth = ctx.state.auth;
  const requested = (body.owner ?? null) as string | null;
  if (auth?.creds.system_scope === 'all') return requested;
  const project = typeof auth?.creds.project_id === 'string' && auth.creds.project_id ? auth.creds.project_id : null;
  if (requested && requested !== project) {
    throw new Invalid('Cannot create a runbook as a project scoped admin with an owner other than your own project.');
  }
  if (project && body.public) throw new Invalid('Cannot create a public runbook as a project scoped admin.');
  return project;
}

async function createRunbook(ctx: ApiContext): Promise<void> {
  requireRunbooks(ctx);
  readQuery(ctx, []);
  const body = args.requiredBody('runbook',
    RUNBOOK_VALIDATOR('runbook', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  if (ctx.state.auth) ctx.state.auth.enforcer.authorize('baremetal:runbook:create', ctx.state.auth.creds);
  const steps = body.steps as StepBody[];
  const values = {
    uuid: (body.uuid as string | null) || randomUUID(),
    name: body.name as string,
    owner: createOwner(ctx, body),
    ...(body.public !== undefined ? { public: body.public as boolean | null } : {}),
    ...(body.disable_ramdisk !== undefined ? { disable_ramdisk: body.disable_ramdisk as boolean | null } : {}),
    ...(body.extra !== undefined ? { extra: body.extra as RunbookWithRelations['extra'] } : {}),
    steps: stepValues(steps),
  };
  const created = await notifyApiChange(apiNotifyContext(ctx), 'runbook', 'create', values,
    () => runbooksRepo.create(ctx.state.deps.db, values), { steps: payloadSteps(values.steps) },
    (stored) => ({ steps: payloadSteps(stored.steps) }));
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/runbooks/${created.uuid}`);
  // Ironic answers from the object it saved: step orders appear as the request gave them.
  const shown: RunbookStepView[] = steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args ?? null, order: s.order }));
  ctx.body = runbookView(baseUrl(ctx), created, null, shown);
}

/** _authorize_patch_and_get_runbook: owner and public changes have rules of their own. */
function patchPolicies(patch: PatchOp[]): string[] {
  const policies: string[] = [];
  let generic = false;
  for (const p of patch) {
    if (p.path.startsWith('/owner')) policies.push('baremetal:runbook:update:owner');
    else if (p.path.startsWith('/public')) policies.push('baremetal:runbook:update:public');
    else generic = true;
  }
  if (generic || policies.length === 0) policies.push('baremetal:runbook:update');
  return policies;
}

/** A public runbook has no owner: naming one must also make it private in the same patch. */
function checkOwnerAndPublic(patch: PatchOp[], runbook: RunbookWithRelations, doc: Record<string, unknown>): void {
  const owners = patchValues(patch, '/owner');
  const publics = patchValues(patch, '/public');
  if (owners.length > 0) {
    const makesPublic = publics.length > 0 && Boolean(publics[0]);
    if ((runbook.public && publics.length === 0) || makesPublic) {
      throw new PatchError({ patch: pyRepr(patch), reason: 'There cannot be an owner for a public runbook' });
    }
  }
  if (publics.length > 0) doc.owner = null;
}

/** patched_validate_with_schema: keys the schema does not know are dropped, then the rest validated. */
function validatePatched(doc: Record<string, unknown>): void {
  for (const step of (Array.isArray(doc.steps) ? doc.steps : []) as unknown[]) {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) continue;
    const fields = step as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (!Object.hasOwn(RUNBOOK_STEP_SCHEMA.properties!, key)) delete fields[key];
    const message = schemaErrorMessage('patch', fields, RUNBOOK_STEP_SCHEMA);
    if (message !== null) throw new InvalidParameterValue(message);
  }
  for (const key of Object.keys(doc)) if (!Object.hasOwn(RUNBOOK_SCHEMA.properties!, key)) delete doc[key];
  RUNBOOK_VALIDATOR('patch', doc);
}

/** patch_update_changed_fields over the object's fields the schema knows. */
function changedFields(doc: Record<string, unknown>, runbook: RunbookWithRelations): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const current: Record<string, unknown> = {
    name: runbook.name, disable_ramdisk: runbook.disable_ramdisk, extra: runbook.extra, public: runbook.public, owner: runbook.owner,
  };
  for (const [field, value] of Object.entries(current)) {
    const patched = doc[field] ?? null;
    if (JSON.stringify(patched) !== JSON.stringify(value)) changes[field] = patched;
  }
  if ((doc.uuid ?? null) !== runbook.uuid) throw new InvalidParameterValue('Cannot overwrite UUID for an existing runbook.');
  return changes;
}

async function patchRunbook(ctx: ApiContext): Promise<void> {
  requireRunbooks(ctx);
  const ident = args.uuidOrName('runbook_ident', deleteIdent(ctx, 'runbook_ident', ctx.params.ident))!;
  const patch = readPatch(ctx.state.body);
  checkAllowedPatchFields(patch, RUNBOOK_PATCH_ALLOWED_FIELDS);
  const runbook = await getRunbook(ctx, ident);
  for (const policy of patchPolicies(patch)) authorizeOwned(ctx.state.auth, policy, 'runbook', runbook.owner);
  const doc: Record<string, unknown> = {
    created_at: runbook.created_at?.toISOString() ?? null, updated_at: runbook.updated_at?.toISOString() ?? null,
    id: runbook.id, uuid: runbook.uuid, name: runbook.name, steps: runbook.steps.map((s) =>
      ({ interface: s.interface, step: s.step, args: s.args, order: s.order })),
    disable_ramdisk: runbook.disable_ramdisk, extra: runbook.extra, public: runbook.public, owner: runbook.owner,
  };
  checkOwnerAndPublic(patch, runbook, doc);
  const patched = applyJsonPatch(doc as Parameters<typeof applyJsonPatch>[0], patch) as Record<string, unknown>;
  validatePatched(patched);
  const changes = changedFields(patched, runbook);
  const current = runbook.steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, order: s.order }));
  const steps = ironicStepOrder(current, stepValues(patched.steps as StepBody[]), (s) => s.order);
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'runbook', 'update', { ...runbook, ...changes },
    () => runbooksRepo.update(ctx.state.deps.db, runbook.id, { ...changes, steps }), { steps: payloadSteps(steps) },
    (stored) => ({ steps: payloadSteps(stored.steps) }));
  ctx.body = runbookView(baseUrl(ctx), updated, null);
}

/** The runbook's steps as Runbook.steps holds them (interface, step, args, order). */
function payloadSteps(steps: readonly { interface: string; step: string; args: unknown; order: number }[]): unknown[] {
  return steps.map((s) => ({ interface: s.interface, step: s.step, args: s.args, order: s.order }));
}

async function deleteRunbook(ctx: ApiContext): Promise<void> {
  requireRunbooks(ctx);
  const ident = args.uuidOrName('runbook_ident', deleteIdent(ctx, 'runbook_ident', ctx.params.ident))!;
  const runbook = await authorizedRunbook(ctx, 'baremetal:runbook:delete', ident);
  await notifyApiChange(apiNotifyContext(ctx), 'runbook', 'delete', runbook,
    () => runbooksRepo.destroy(ctx.state.deps.db, runbook.id), { steps: payloadSteps(runbook.steps) });
  ctx.status = 204;
}

export function runbooksRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/runbooks', listRunbooks);
  router.get('/v1/runbooks/:ident', showRunbook);
  router.post('/v1/runbooks', createRunbook);
  router.patch('/v1/runbooks/:ident', patchRunbook);
  router.delete('/v1/runbooks', deleteRunbook);
  router.delete('/v1/runbooks/:ident', deleteRunbook);
  return router;
}
