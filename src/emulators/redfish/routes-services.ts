// Service root, SessionService/Sessions, TaskService/Tasks (+ task monitors), UpdateService/FirmwareInventory.

import { EmulatorContext, collection, link } from './context';
import { INVENTORY_PATH, TRANSFER_PROTOCOLS, componentJson, listComponents, startSimpleUpdate } from './firmware';
import { RedfishObject, notFound } from './messages';
import { Router } from './router';
import { SESSIONS_PATH, sessionJson } from './sessions';
import { MONITORS_PATH, TASKS_PATH, isTaskRunning, taskJson } from './tasks';

const ROOT = '/redfish/v1';
const UPDATE_SERVICE = `${ROOT}/UpdateService`;

export function addServiceRoutes(router: Router, ctx: EmulatorContext): void {
  router.add({ template: '/redfish', handlers: { GET: () => ({ status: 200, body: { v1: `${ROOT}/` } }) }, anonymous: ['GET'] });
  router.add({ template: ROOT, handlers: { GET: () => ({ status: 200, body: serviceRoot(ctx) }) }, anonymous: ['GET'] });
  addSessionRoutes(router, ctx);
  addTaskRoutes(router, ctx);
  addUpdateRoutes(router, ctx);
}

function serviceRoot(ctx: EmulatorContext): RedfishObject {
  return {
    '@odata.id': `${ROOT}/`,
    '@odata.type': '#ServiceRoot.v1_5_0.ServiceRoot',
    Id: 'RootService',
    Name: 'ironic-ts Redfish emulator',
    RedfishVersion: '1.11.0',
    UUID: ctx.serviceUuid,
    Product: 'ironic-ts Redfish BMC emulator',
    Systems: link(`${ROOT}/Systems`),
    Managers: link(`${ROOT}/Managers`),
    Chassis: link(`${ROOT}/Chassis`),
    SessionService: link(`${ROOT}/SessionService`),
    UpdateService: link(UPDATE_SERVICE),
    Tasks: link(`${ROOT}/TaskService`),
    Links: { Sessions: link(SESSIONS_PATH) },
  };
}

function addSessionRoutes(router: Router, ctx: EmulatorContext): void {
  router.add({
    template: `${ROOT}/SessionService`,
    handlers: {
      GET: () => ({
        status: 200,
        body: {
          '@odata.id': `${ROOT}/SessionService`,
          '@odata.type': '#SessionService.v1_1_8.SessionService',
          Id: 'SessionService',
          Name: 'Session Service',
          ServiceEnabled: ctx.sessions.sessionsEnabled,
          SessionTimeout: ctx.sessions.timeoutSec,
          Sessions: link(SESSIONS_PATH),
        },
      }),
    },
  });
  router.add({
    template: SESSIONS_PATH,
    anonymous: ['POST'],
    handlers: {
      GET: () => ({ status: 200, body: collection(SESSIONS_PATH, 'SessionCollection', 'Session Collection', [...ctx.sessions.sessions.keys()].map((id) => `${SESSIONS_PATH}/${id}`)) }),
      POST: (req) => {
        const body = req.body ?? {};
        const session = ctx.sessions.login(body.UserName, body.Password);
        return {
          status: 201,
          body: sessionJson(session),
          headers: { 'X-Auth-Token': session.token, Location: `${SESSIONS_PATH}/${session.id}` },
        };
      },
    },
  });
  router.add({
    template: `${SESSIONS_PATH}/:sid`,
    handlers: {
      GET: (req) => {
        const s = ctx.sessions.sessions.get(req.params.sid);
        if (!s) throw notFound(req.path);
        return { status: 200, body: sessionJson(s) };
      },
      DELETE: (req) => {
        if (!ctx.sessions.logout(req.params.sid)) throw notFound(req.path);
        return { status: 204 };
      },
    },
  });
}

function addTaskRoutes(router: Router, ctx: EmulatorContext): void {
  router.add({
    template: `${ROOT}/TaskService`,
    handlers: {
      GET: () => ({
        status: 200,
        body: {
          '@odata.id': `${ROOT}/TaskService`,
          '@odata.type': '#TaskService.v1_1_4.TaskService',
          Id: 'TaskService',
          Name: 'Task Service',
          ServiceEnabled: true,
          CompletedTaskOverWritePolicy: 'Oldest',
          LifeCycleEventOnTaskStateChange: false,
          Status: { State: 'Enabled', Health: 'OK' },
          Tasks: link(TASKS_PATH),
        },
      }),
    },
  });
  router.add({
    template: TASKS_PATH,
    handlers: { GET: () => ({ status: 200, body: collection(TASKS_PATH, 'TaskCollection', 'Task Collection', [...ctx.tasks.tasks.keys()].map((id) => `${TASKS_PATH}/${id}`)) }) },
  });
  router.add({
    template: `${TASKS_PATH}/:tid`,
    handlers: {
      GET: (req) => {
        const task = ctx.tasks.tasks.get(req.params.tid);
        if (!task) throw notFound(req.path);
        return { status: 200, body: taskJson(task) };
      },
    },
  });
  // The task monitor answers 202 while the operation runs and 200 with the finished task afterwards.
  router.add({
    template: `${MONITORS_PATH}/:tid`,
    handlers: {
      GET: (req) => {
        const task = ctx.tasks.tasks.get(req.params.tid);
        if (!task) throw notFound(req.path);
        return { status: isTaskRunning(task) ? 202 : 200, body: taskJson(task), headers: { Location: req.path } };
      },
    },
  });
}

function addUpdateRoutes(router: Router, ctx: EmulatorContext): void {
  router.add({
    template: UPDATE_SERVICE,
    handlers: {
      GET: () => ({
        status: 200,
        body: {
          '@odata.id': UPDATE_SERVICE,
          '@odata.type': '#UpdateService.v1_8_0.UpdateService',
          Id: 'UpdateService',
          Name: 'Update Service',
          ServiceEnabled: true,
          Status: { State: 'Enabled', Health: 'OK' },
          FirmwareInventory: link(INVENTORY_PATH),
          Actions: {
            '#UpdateService.SimpleUpdate': {
              target: `${UPDATE_SERVICE}/Actions/UpdateService.SimpleUpdate`,
              'TransferProtocol@Redfish.AllowableValues': [...TRANSFER_PROTOCOLS],
            },
          },
        },
      }),
    },
  });
  router.add({
    template: INVENTORY_PATH,
    handlers: {
      GET: () => {
        const members = listComponents(ctx.systems.values()).map((c) => `${INVENTORY_PATH}/${c.id}`);
        return { status: 200, body: collection(INVENTORY_PATH, 'SoftwareInventoryCollection', 'Firmware Inventory', members) };
      },
    },
  });
  router.add({
    template: `${INVENTORY_PATH}/:fid`,
    handlers: {
      GET: (req) => {
        const c = listComponents(ctx.systems.values()).find((x) => x.id === req.params.fid);
        if (!c) throw notFound(req.path);
        return { status: 200, body: componentJson(c) };
      },
    },
  });
  // Accepted with an empty body and a Location pointing at the task monitor, so that clients
  // which prefer a body's @odata.id (sushy) still poll the monitor rather than the Task.
  router.add({
    template: `${UPDATE_SERVICE}/Actions/UpdateService.SimpleUpdate`,
    handlers: {
      POST: (req) => {
        const task = startSimpleUpdate(req.body ?? {}, [...ctx.systems.values()], ctx.tasks);
        return { status: 202, headers: { Location: `${MONITORS_PATH}/${task.id}` } };
      },
    },
  });
}
