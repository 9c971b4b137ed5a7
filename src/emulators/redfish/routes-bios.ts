// Bios, Bios/Settings (pending attributes, applied on reset) and SecureBoot of each system.

import { EmulatorContext, link, systemOr404 } from './context';
import { EmulatorHttpError, RedfishObject, badValue } from './messages';
import { RequestCtx, Router } from './router';
import { EmulatedSystem } from './system-state';

const SYSTEMS = '/redfish/v1/Systems';
const RESET_KEYS_TYPES = ['ResetAllKeysToDefault', 'DeleteAllKeys', 'DeletePK'];

export function addBiosRoutes(router: Router, ctx: EmulatorContext): void {
  const sys = (req: RequestCtx): EmulatedSystem => systemOr404(ctx, req.params.id, req.path);
  router.add({ template: `${SYSTEMS}/:id/Bios`, handlers: { GET: (req) => ({ status: 200, body: biosJson(sys(req)) }) } });
  router.add({
    template: `${SYSTEMS}/:id/Bios/Settings`,
    handlers: {
      GET: (req) => ({ status: 200, body: biosSettingsJson(sys(req)) }),
      PATCH: (req) => {
        sys(req).bios.stage(req.body ?? {});
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/Bios/Actions/Bios.ResetBios`,
    handlers: {
      POST: (req) => {
        sys(req).bios.stageDefaults();
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/Bios/Actions/Bios.ChangePassword`,
    handlers: {
      POST: (req) => {
        sys(req);
        const body = req.body ?? {};
        if (typeof body.NewPassword !== 'string' || typeof body.PasswordName !== 'string') {
          throw new EmulatorHttpError(400, 'ActionParameterMissing', 'Bios.ChangePassword requires NewPassword and PasswordName.', ['NewPassword', 'PasswordName']);
        }
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/SecureBoot`,
    handlers: {
      GET: (req) => ({ status: 200, body: secureBootJson(sys(req)) }),
      PATCH: (req) => {
        const body = req.body ?? {};
        const unknown = Object.keys(body).filter((k) => k !== 'SecureBootEnable');
        if (unknown.length > 0) {
          throw new EmulatorHttpError(400, 'PropertyNotWritable', `The property ${unknown[0]} is a read only property and cannot be assigned a value.`, [unknown[0]]);
        }
        if (body.SecureBootEnable !== undefined) sys(req).setSecureBoot(body.SecureBootEnable);
        return { status: 204 };
      },
    },
  });
  router.add({
    template: `${SYSTEMS}/:id/SecureBoot/Actions/SecureBoot.ResetKeys`,
    handlers: {
      POST: (req) => {
        sys(req);
        const type = (req.body ?? {}).ResetKeysType;
        if (typeof type !== 'string' || !RESET_KEYS_TYPES.includes(type)) throw badValue('ResetKeysType', type, RESET_KEYS_TYPES);
        return { status: 204 };
      },
    },
  });
}

function biosJson(s: EmulatedSystem): RedfishObject {
  const path = `${SYSTEMS}/${s.id}/Bios`;
  const settings: RedfishObject = {
    '@odata.type': '#Settings.v1_3_0.Settings',
    SettingsObject: link(`${path}/Settings`),
    SupportedApplyTimes: ['OnReset'],
  };
  if (s.bios.lastApplied) {
    settings.Time = s.bios.lastApplied;
    settings.Messages = [];
  }
  return {
    '@odata.id': path,
    '@odata.type': '#Bios.v1_1_0.Bios',
    Id: 'BIOS',
    Name: 'BIOS Configuration Current Settings',
    AttributeRegistry: 'BiosAttributeRegistry.v1_0_0',
    Attributes: { ...s.bios.current },
    '@Redfish.Settings': settings,
    Actions: {
      '#Bios.ResetBios': { target: `${path}/Actions/Bios.ResetBios` },
      '#Bios.ChangePassword': { target: `${path}/Actions/Bios.ChangePassword` },
    },
  };
}

function biosSettingsJson(s: EmulatedSystem): RedfishObject {
  return {
    '@odata.id': `${SYSTEMS}/${s.id}/Bios/Settings`,
    '@odata.type': '#Bios.v1_1_0.Bios',
    Id: 'Settings',
    Name: 'BIOS Configuration Pending Settings',
    AttributeRegistry: 'BiosAttributeRegistry.v1_0_0',
    Attributes: { ...s.bios.pending },
    '@Redfish.SettingsApplyTime': {
      '@odata.type': '#Settings.v1_3_0.PreferredApplyTime',
      ApplyTime: 'OnReset',
      'ApplyTime@Redfish.AllowableValues': ['OnReset'],
    },
  };
}

function secureBootJson(s: EmulatedSystem): RedfishObject {
  const path = `${SYSTEMS}/${s.id}/SecureBoot`;
  return {
    '@odata.id': path,
    '@odata.type': '#SecureBoot.v1_1_0.SecureBoot',
    Id: 'SecureBoot',
    Name: 'UEFI Secure Boot',
    SecureBootEnable: s.secureBootEnable,
    SecureBootCurrentBoot: s.secureBootCurrentBoot,
    SecureBootMode: 'DeployedMode',
    Actions: {
      '#SecureBoot.ResetKeys': {
        target: `${path}/Actions/SecureBoot.ResetKeys`,
        'ResetKeysType@Redfish.AllowableValues': RESET_KEYS_TYPES,
      },
    },
  };
}
