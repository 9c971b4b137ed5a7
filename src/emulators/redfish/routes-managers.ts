// Managers (one BMC per system) with VirtualMedia insert/eject, and Chassis.

import { EmulatorContext, collection, link, systemByPrefixedId } from './context';
import { chassisId, managerId } from './firmware';
import { EmulatorHttpError, RedfishObject, badValue, notFound } from './messages';
import { RequestCtx, Router } from './router';
import { EmulatedSystem } from './system-state';
import { VirtualMediaSlot } from './virtual-media-state';

const MANAGERS = '/redfish/v1/Managers';
const CHASSIS = '/redfish/v1/Chassis';

export function addManagerRoutes(router: Router, ctx: EmulatorContext): void {
  const mgr = (req: RequestCtx): EmulatedSystem => systemByPrefixedId(ctx, 'BMC-', req.params.mid, req.path);
  const slot = (req: RequestCtx): VirtualMediaSlot => {
    const found = mgr(req).virtualMedia.get(req.params.vid);
    if (!found) throw notFound(req.path);
    return found;
  };
  router.add({
    template: MANAGERS,
    handlers: { GET: () => ({ status: 200, body: collection(MANAGERS, 'ManagerCollection', 'Manager Collection', [...ctx.systems.keys()].map((id) => `${MANAGERS}/${managerId(id)}`)) }) },
  });
  router.add({ template: `${MANAGERS}/:mid`, handlers: { GET: (req) => ({ status: 200, body: managerJson(mgr(req)) }) } });
  router.add({
    template: `${MANAGERS}/:mid/Actions/Manager.Reset`,
    handlers: {
      POST: (req) => {
        mgr(req);
        const type = (req.body ?? {}).ResetType;
        if (type !== 'GracefulRestart' && type !== 'ForceRestart') throw badValue('ResetType', type, ['GracefulRestart', 'ForceRestart']);
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${MANAGERS}/:mid/VirtualMedia`,
    handlers: {
      GET: (req) => {
        const s = mgr(req);
        const members = [...s.virtualMedia.keys()].map((v) => `${MANAGERS}/${managerId(s.id)}/VirtualMedia/${v}`);
        return { status: 200, body: collection(req.path, 'VirtualMediaCollection', 'Virtual Media Services', members) };
      },
    },
  });
  router.add({
    template: `${MANAGERS}/:mid/VirtualMedia/:vid`,
    handlers: {
      GET: (req) => ({ status: 200, body: virtualMediaJson(mgr(req), slot(req)) }),
      // Older BMCs insert/eject by PATCHing Image/Inserted instead of the actions.
      PATCH: (req) => {
        patchVirtualMedia(slot(req), req.body ?? {});
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${MANAGERS}/:mid/VirtualMedia/:vid/Actions/VirtualMedia.InsertMedia`,
    handlers: {
      POST: (req) => {
        const body = req.body ?? {};
        slot(req).insert({
          image: body.Image as string,
          inserted: optionalBool(body.Inserted, 'Inserted'),
          writeProtected: optionalBool(body.WriteProtected, 'WriteProtected'),
          userName: typeof body.UserName === 'string' ? body.UserName : undefined,
          transferMethod: typeof body.TransferMethod === 'string' ? body.TransferMethod : undefined,
        });
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${MANAGERS}/:mid/VirtualMedia/:vid/Actions/VirtualMedia.EjectMedia`,
    handlers: {
      POST: (req) => {
        slot(req).eject();
        return { status: 204 };
      },
    },
  });
  addChassisRoutes(router, ctx);
}

function addChassisRoutes(router: Router, ctx: EmulatorContext): void {
  const ch = (req: RequestCtx): EmulatedSystem => systemByPrefixedId(ctx, 'Chassis-', req.params.cid, req.path);
  router.add({
    template: CHASSIS,
    handlers: { GET: () => ({ status: 200, body: collection(CHASSIS, 'ChassisCollection', 'Chassis Collection', [...ctx.systems.keys()].map((id) => `${CHASSIS}/${chassisId(id)}`)) }) },
  });
  router.add({
    template: `${CHASSIS}/:cid`,
    handlers: {
      GET: (req) => ({ status: 200, body: chassisJson(ch(req)) }),
      PATCH: (req) => {
        const s = ch(req);
        const body = req.body ?? {};
        if (body.IndicatorLED === undefined) throw new EmulatorHttpError(400, 'PropertyMissing', 'Only IndicatorLED can be changed on a chassis.', ['IndicatorLED']);
        s.setIndicatorLed(body.IndicatorLED);
        return { status: 204 };
      },
    },
  });
}

function managerJson(s: EmulatedSystem): RedfishObject {
  const path = `${MANAGERS}/${managerId(s.id)}`;
  return {
    '@odata.id': path,
    '@odata.type': '#Manager.v1_10_0.Manager',
    Id: managerId(s.id),
    Name: `BMC of ${s.name}`,
    ManagerType: 'BMC',
    Model: 'Emulated BMC',
    FirmwareVersion: s.bmcFirmwareVersion,
    Status: { State: 'Enabled', Health: 'OK' },
    VirtualMedia: link(`${path}/VirtualMedia`),
    Links: {
      ManagerForServers: [link(`/redfish/v1/Systems/${s.id}`)],
      ManagerForChassis: [link(`${CHASSIS}/${chassisId(s.id)}`)],
    },
    Actions: {
      '#Manager.Reset': { target: `${path}/Actions/Manager.Reset`, 'ResetType@Redfish.AllowableValues': ['GracefulRestart', 'ForceRestart'] },
    },
  };
}

function virtualMediaJson(s: EmulatedSystem, v: VirtualMediaSlot): RedfishObject {
  const path = `${MANAGERS}/${managerId(s.id)}/VirtualMedia/${v.id}`;
  return {
    '@odata.id': path,
    '@odata.type': '#VirtualMedia.v1_3_0.VirtualMedia',
    Id: v.id,
    Name: `Virtual ${v.id}`,
    MediaTypes: [...v.mediaTypes],
    Image: v.image,
    ImageName: v.imageName,
    Inserted: v.inserted,
    WriteProtected: v.writeProtected,
    ConnectedVia: v.image ? 'URI' : 'NotConnected',
    TransferMethod: v.transferMethod,
    UserName: v.userName,
    Actions: {
      '#VirtualMedia.InsertMedia': { target: `${path}/Actions/VirtualMedia.InsertMedia` },
      '#VirtualMedia.EjectMedia': { target: `${path}/Actions/VirtualMedia.EjectMedia` },
    },
  };
}

function patchVirtualMedia(v: VirtualMediaSlot, body: RedfishObject): void {
  if (body.Image === null || body.Inserted === false) {
    v.eject();
    return;
  }
  if (typeof body.Image === 'string') {
    v.insert({ image: body.Image, writeProtected: optionalBool(body.WriteProtected, 'WriteProtected') });
    return;
  }
  throw new EmulatorHttpError(400, 'PropertyMissing', 'PATCH of virtual media needs Image (string or null) or Inserted: false.', ['Image']);
}

function chassisJson(s: EmulatedSystem): RedfishObject {
  return {
    '@odata.id': `${CHASSIS}/${chassisId(s.id)}`,
    '@odata.type': '#Chassis.v1_11_0.Chassis',
    Id: chassisId(s.id),
    Name: `Chassis of ${s.name}`,
    ChassisType: 'RackMount',
    Manufacturer: s.manufacturer,
    SerialNumber: s.serialNumber,
    PowerState: s.powerState,
    IndicatorLED: s.indicatorLed,
    Status: { State: 'Enabled', Health: 'OK' },
    Links: {
      ComputerSystems: [link(`/redfish/v1/Systems/${s.id}`)],
      ManagedBy: [link(`${MANAGERS}/${managerId(s.id)}`)],
    },
  };
}

function optionalBool(value: unknown, property: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badValue(property, value);
  return value;
}
