/**
 * /v1/drivers (driver.py DriversController): hardware types offered by alive conductors, read from the
 * conductors tables; properties and RAID disk properties come from the conductor.
 */
import Router from '@koa/router';
import {
  DriverNotFound, Invalid, InvalidParameterValue, NotAcceptable, UnsupportedDriverExtension, withCode,
} from '../../common/errors';
import type { ConductorHardwareInterfaceRecord } from '../../db/models';
import * as conductorsRepo from '../../db/repositories/conductors';
import { baseUrl } from '../links';
import * as args from '../schemas/args';
import { readListArgs, readQuery } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { addPassthruCallRoutes, passthruMethod } from './passthru-method';
import { V } from '../versions';
import { driverDict, sanitizeDriver } from '../views/driver';

function heartbeatTimeout(ctx: ApiContext): number {
  return ctx.state.deps.conf.int('conductor', 'heartbeat_timeout');
}

/** get_active_hardware_type_dict: hardware type → hostnames of online, recently heartbeating conductors. */
async function activeHardwareTypes(ctx: ApiContext): Promise<Map<string, string[]>> {
  const types = await conductorsRepo.activeHardwareTypes(ctx.state.deps.db, heartbeatTimeout(ctx));
  return new Map([...types].map(([name, hosts]) => [name, [...hosts]]));
}

/** list_hardware_type_interfaces over alive conductors. */
async function activeInterfaces(ctx: ApiContext, names: string[]): Promise<ConductorHardwareInterfaceRecord[]> {
  const alive = await conductorsRepo.listAlive(ctx.state.deps.db, heartbeatTimeout(ctx));
  if (alive.length === 0 || names.length === 0) return [];
  const rows = await conductorsRepo.listHardwareInterfaces(ctx.state.deps.db, alive.map((c) => c.id));
  return rows.filter((r) => names.includes(r.hardware_type));
}

function driverFieldsAllowed(ctx: ApiContext, fields: string[] | null): void {
  if (fields !== null && ctx.state.version < V.DRIVER_FIELDS) throw new NotAcceptable();
}

const DYNAMIC_VERSION_MESSAGE = `Request not acceptable. The minimal required API version should be 1.${V.DYNAMIC_DRIVERS}`;

async function listDrivers(ctx: ApiContext): Promise<void> {
  const { type, detail, fields } = readListArgs(ctx, { type: args.string, detail: args.boolean, fields: args.stringList });
  if (fields && fields.length && detail) {
    throw new InvalidParameterValue('Can not specify ?detail=True and fields in the same request.');
  }
  if (detail !== null && ctx.state.version < V.DYNAMIC_DRIVERS) throw new NotAcceptable(DYNAMIC_VERSION_MESSAGE);
  if (type !== null && ctx.state.version < V.DYNAMIC_DRIVERS) throw new NotAcceptable(DYNAMIC_VERSION_MESSAGE);
  driverFieldsAllowed(ctx, fields);
  if (type !== null && type !== 'classic' && type !== 'dynamic') {
    throw new Invalid('"type" filter must be one of "classic" or "dynamic", if specified.');
  }
  const types = type === 'classic' ? new Map<string, string[]>() : await activeHardwareTypes(ctx);
  const withDetail = Boolean(detail) && ctx.state.version >= V.DYNAMIC_DRIVERS;
  const interfaces = withDetail ? await activeInterfaces(ctx, [...types.keys()]) : [];
  const base = baseUrl(ctx);
  ctx.body = {
    drivers: [...types].map(([name, hosts]) =>
      sanitizeDriver(driverDict(base, name, hosts, ctx.state.version, withDetail, interfaces), fields)),
  };
}

async function showDriver(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['fields']);
  const name = ctx.params.name;
  const fields = args.stringList('fields', q.fields);
  driverFieldsAllowed(ctx, fields);
  const hosts = (await activeHardwareTypes(ctx)).get(name);
  if (!hosts) throw new DriverNotFound({ driver_name: name });
  const interfaces = await activeInterfaces(ctx, [name]);
  ctx.body = sanitizeDriver(driverDict(baseUrl(ctx), name, hosts, ctx.state.version, true, interfaces), fields);
}

/** get_topic_for_driver: a driver no alive conductor offers is unknown to the hash ring. */
async function requireKnownDriver(ctx: ApiContext, name: string): Promise<void> {
  if (!(await activeHardwareTypes(ctx)).has(name)) throw new DriverNotFound(`The driver '${name}' is unknown.`);
}

async function driverProperties(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const name = ctx.params.name;
  await requireKnownDriver(ctx, name);
  ctx.body = await ctx.state.deps.conductor.getDriverProperties(name);
}

async function raidDiskProperties(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const name = ctx.params.name;
  if (ctx.state.version < V.RAID_CONFIG) throw new NotAcceptable();
  await requireKnownDriver(ctx, name);
  try {
    ctx.body = await ctx.state.deps.conductor.getRaidLogicalDiskProperties(name);
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) throw withCode(err, 404);
    throw err;
  }
}

/** Hardware types offer no driver-level vendor methods (fake-hardware included), as in Ironic 21.4. */
async function vendorMethods(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  await requireKnownDriver(ctx, ctx.params.name);
  ctx.body = {};
}

async function vendorPassthru(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['method'], { bodyIsData: true });
  const method = passthruMethod(ctx.params.method, q.method);
  if (!method) throw new InvalidParameterValue('Missing mandatory parameter: method');
  await requireKnownDriver(ctx, ctx.params.name);
  throw new InvalidParameterValue(`No handler for method ${method}`);
}

export function driversRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/drivers', listDrivers);
  router.get('/v1/drivers/:name', showDriver);
  router.get('/v1/drivers/:name/properties', driverProperties);
  router.get('/v1/drivers/:name/raid/logical_disk_properties', raidDiskProperties);
  router.get('/v1/drivers/:name/vendor_passthru/methods', vendorMethods);
  addPassthruCallRoutes(router, '/v1/drivers/:name/vendor_passthru', vendorPassthru);
  return router;
}
