// ComputerSystem resources: Systems, Reset action, Boot override, IndicatorLED, Processors, EthernetInterfaces.

import { EmulatorContext, collection, link, systemOr404 } from './context';
import { chassisId, managerId } from './firmware';
import { EmulatorHttpError, RedfishObject, isJsonObject } from './messages';
import { Reply, RequestCtx, Router } from './router';
import { BOOT_MODES, EmulatedSystem, RESET_TYPES } from './system-state';

const SYSTEMS = '/redfish/v1/Systems';
const WRITABLE_SYSTEM_PROPERTIES = ['Boot', 'IndicatorLED', 'AssetTag'];

export function addSystemRoutes(router: Router, ctx: EmulatorContext): void {
  const sys = (req: RequestCtx): EmulatedSystem => systemOr404(ctx, req.params.id, req.path);
  router.add({
    template: SYSTEMS,
    handlers: { GET: () => ok(collection(SYSTEMS, 'ComputerSystemCollection', 'Computer System Collection', [...ctx.systems.keys()].map((id) => `${SYSTEMS}/${id}`))) },
  });
  router.add({
    template: `${SYSTEMS}/:id`,
    handlers: {
      GET: (req) => ok(systemJson(sys(req))),
      PATCH: (req) => {
        patchSystem(sys(req), req.body ?? {});
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/Settings`,
    handlers: {
      GET: (req) => ok(systemSettingsJson(settingsSystem(sys(req), req.path))),
      PATCH: (req) => {
        const s = settingsSystem(sys(req), req.path);
        const boot = (req.body ?? {}).Boot;
        if (!isJsonObject(boot) || Object.keys(boot).some((k) => k !== 'BootSourceOverrideMode')) {
          throw new EmulatorHttpError(400, 'PropertyNotWritable', 'Only Boot/BootSourceOverrideMode is pending-settable here.', ['Boot']);
        }
        s.stageBootMode(optionalString(boot.BootSourceOverrideMode, 'Boot/BootSourceOverrideMode'));
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/Actions/ComputerSystem.Reset`,
    handlers: {
      POST: (req) => {
        sys(req).reset((req.body ?? {}).ResetType);
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/Processors`,
    handlers: { GET: (req) => ok(collection(`${SYSTEMS}/${sys(req).id}/Processors`, 'ProcessorCollection', 'Processors', ['CPU1', 'CPU2'].map((c) => `${req.path}/${c}`))) },
  });
  router.add({
    template: `${SYSTEMS}/:id/Processors/:cpu`,
    handlers: { GET: (req) => ok(processorJson(sys(req), req.params.cpu, req.path)) },
  });
  router.add({
    template: `${SYSTEMS}/:id/SimpleStorage`,
    handlers: { GET: (req) => ok(collection(`${SYSTEMS}/${sys(req).id}/SimpleStorage`, 'SimpleStorageCollection', 'Simple Storage Collection', [`${req.path}/1`])) },
  });
  router.add({
    template: `${SYSTEMS}/:id/SimpleStorage/:sid`,
    handlers: { GET: (req) => ok(simpleStorageJson(sys(req), req.params.sid, req.path)) },
  });
  router.add({
    template: `${SYSTEMS}/:id/EthernetInterfaces`,
    handlers: { GET: (req) => ok(collection(req.path, 'EthernetInterfaceCollection', 'Ethernet Interfaces', sys(req).macAddresses.map((_, i) => `${req.path}/NIC${i + 1}`))) },
  });
  router.add({
    template: `${SYSTEMS}/:id/EthernetInterfaces/:nic`,
    handlers: { GET: (req) => ok(nicJson(sys(req), req.params.nic, req.path)) },
  });
}

function ok(body: RedfishObject): Reply {
  return { status: 200, body };
}

function systemJson(s: EmulatedSystem): RedfishObject {
  const path = `${SYSTEMS}/${s.id}`;
  return {
    '@odata.id': path,
    '@odata.type': '#ComputerSystem.v1_13_0.ComputerSystem',
    Id: s.id,
    Name: s.name,
    UUID: s.uuid,
    Manufacturer: s.manufacturer,
    Model: s.model,
    SerialNumber: s.serialNumber,
    SystemType: 'Physical',
    PowerState: s.powerState,
    IndicatorLED: s.indicatorLed,
    BiosVersion: s.biosVersion,
    Status: { State: 'Enabled', Health: 'OK' },
    Boot: {
      BootSourceOverrideTarget: s.boot.target,
      BootSourceOverrideEnabled: s.boot.enabled,
      BootSourceOverrideMode: s.boot.mode,
      'BootSourceOverrideTarget@Redfish.AllowableValues': [...s.allowableBootTargets],
      'BootSourceOverrideMode@Redfish.AllowableValues': [...BOOT_MODES],
    },
    ProcessorSummary: { Count: 2, Model: 'Emulated CPU', Status: { State: 'Enabled', Health: 'OK' } },
    MemorySummary: { TotalSystemMemoryGiB: 32, Status: { State: 'Enabled', Health: 'OK' } },
    Processors: link(`${path}/Processors`),
    EthernetInterfaces: link(`${path}/EthernetInterfaces`),
    SimpleStorage: link(`${path}/SimpleStorage`),
    Bios: link(`${path}/Bios`),
    SecureBoot: link(`${path}/SecureBoot`),
    ...(s.bootModeViaSettings ? { '@Redfish.Settings': { '@odata.type': '#Settings.v1_3_0.Settings', SettingsObject: link(`${path}/Settings`) } } : {}),
    Links: {
      Chassis: [link(`/redfish/v1/Chassis/${chassisId(s.id)}`)],
      ManagedBy: [link(`/redfish/v1/Managers/${managerId(s.id)}`)],
    },
    Actions: {
      '#ComputerSystem.Reset': {
        target: `${path}/Actions/ComputerSystem.Reset`,
        'ResetType@Redfish.AllowableValues': [...RESET_TYPES],
      },
    },
  };
}

function patchSystem(s: EmulatedSystem, body: RedfishObject): void {
  for (const key of Object.keys(body)) {
    if (!WRITABLE_SYSTEM_PROPERTIES.includes(key)) {
      throw new EmulatorHttpError(400, 'PropertyNotWritable', `The property ${key} is a read only property and cannot be assigned a value.`, [key]);
    }
  }
  if (body.Boot !== undefined) {
    if (!isJsonObject(body.Boot)) throw new EmulatorHttpError(400, 'PropertyValueTypeError', 'The property Boot must be an object.', ['Boot']);
    const b = body.Boot;
    s.setBoot({
      target: optionalString(b.BootSourceOverrideTarget, 'Boot/BootSourceOverrideTarget'),
      enabled: optionalString(b.BootSourceOverrideEnabled, 'Boot/BootSourceOverrideEnabled'),
      mode: optionalString(b.BootSourceOverrideMode, 'Boot/BootSourceOverrideMode'),
    });
  }
  if (body.IndicatorLED !== undefined) s.setIndicatorLed(body.IndicatorLED);
}

function optionalString(value: unknown, property: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new EmulatorHttpError(400, 'PropertyValueTypeError', `The value for the property ${property} is of a different type than the property can accept.`, [property]);
  }
  return value;
}

function processorJson(s: EmulatedSystem, cpu: string, path: string): RedfishObject {
  if (cpu !== 'CPU1' && cpu !== 'CPU2') throw new EmulatorHttpError(404, 'ResourceMissingAtURI', `The resource at the URI ${path} was not found.`);
  return {
    '@odata.id': path,
    '@odata.type': '#Processor.v1_7_0.Processor',
    Id: cpu,
    Name: `Processor ${cpu} of ${s.name}`,
    Socket: cpu,
    ProcessorType: 'CPU',
    ProcessorArchitecture: 'x86',
    InstructionSet: 'x86-64',
    Model: 'Emulated CPU',
    MaxSpeedMHz: 3000,
    TotalCores: 4,
    TotalThreads: 8,
    Status: { State: 'Enabled', Health: 'OK' },
  };
}

function nicJson(s: EmulatedSystem, nic: string, path: string): RedfishObject {
  const index = /^NIC(\d+)$/.exec(nic);
  const mac = index ? s.macAddresses[Number(index[1]) - 1] : undefined;
  if (mac === undefined) throw new EmulatorHttpError(404, 'ResourceMissingAtURI', `The resource at the URI ${path} was not found.`);
  return {
    '@odata.id': path,
    '@odata.type': '#EthernetInterface.v1_6_0.EthernetInterface',
    Id: nic,
    Name: `Ethernet interface ${nic}`,
    MACAddress: mac,
    PermanentMACAddress: mac,
    SpeedMbps: 10000,
    Status: { State: 'Enabled', Health: 'OK' },
  };
}

/** One controller with the system's disks, for Ironic inspection's local_gb. */
function simpleStorageJson(s: EmulatedSystem, sid: string, path: string): RedfishObject {
  if (sid !== '1') throw new EmulatorHttpError(404, 'ResourceMissingAtURI', `The resource at the URI ${path} was not found.`);
  return {
    '@odata.id': path,
    '@odata.type': '#SimpleStorage.v1_2_0.SimpleStorage',
    Id: sid,
    Name: 'Simple Storage Controller',
    Status: { State: 'Enabled', Health: 'OK' },
    Devices: s.diskSizesGiB.map((gib, i) => ({
      Name: `Disk ${i}`,
      CapacityBytes: gib * 1024 ** 3,
      Status: { State: 'Enabled', Health: 'OK' },
    })),
  };
}

function settingsSystem(s: EmulatedSystem, path: string): EmulatedSystem {
  if (!s.bootModeViaSettings) throw new EmulatorHttpError(404, 'ResourceMissingAtURI', `The resource at the URI ${path} was not found.`);
  return s;
}

function systemSettingsJson(s: EmulatedSystem): RedfishObject {
  return {
    '@odata.id': `${SYSTEMS}/${s.id}/Settings`,
    '@odata.type': '#ComputerSystem.v1_13_0.ComputerSystem',
    Id: 'Settings',
    Name: `Pending settings of ${s.name}`,
    Boot: { BootSourceOverrideMode: s.pendingBootMode ?? s.boot.mode },
  };
}
