// Firmware inventory (one BIOS and one BMC component per system) and UpdateService.SimpleUpdate.

import { EmulatorHttpError, RedfishObject, badValue, isJsonObject, missingParameter } from './messages';
import { EmulatedSystem } from './system-state';
import { EmulatedTask, TaskStore } from './tasks';

export const INVENTORY_PATH = '/redfish/v1/UpdateService/FirmwareInventory';
export const TRANSFER_PROTOCOLS = ['HTTP', 'HTTPS', 'FTP', 'SFTP', 'SCP', 'TFTP', 'NFS', 'CIFS', 'OEM'] as const;

type ComponentKind = 'BIOS' | 'BMC';

interface FirmwareComponent {
  id: string;
  kind: ComponentKind;
  system: EmulatedSystem;
}

export function managerId(systemId: string): string {
  return `BMC-${systemId}`;
}

export function chassisId(systemId: string): string {
  return `Chassis-${systemId}`;
}

export function listComponents(systems: Iterable<EmulatedSystem>): FirmwareComponent[] {
  const out: FirmwareComponent[] = [];
  for (const system of systems) {
    out.push({ id: `BIOS-${system.id}`, kind: 'BIOS', system });
    out.push({ id: `BMC-${system.id}`, kind: 'BMC', system });
  }
  return out;
}

export function componentJson(c: FirmwareComponent): RedfishObject {
  const related = c.kind === 'BIOS' ? `/redfish/v1/Systems/${c.system.id}` : `/redfish/v1/Managers/${managerId(c.system.id)}`;
  return {
    '@odata.id': `${INVENTORY_PATH}/${c.id}`,
    '@odata.type': '#SoftwareInventory.v1_3_0.SoftwareInventory',
    Id: c.id,
    Name: c.kind === 'BIOS' ? `BIOS of ${c.system.name}` : `BMC of ${c.system.name}`,
    Version: componentVersion(c),
    Updateable: true,
    SoftwareId: c.kind,
    RelatedItem: [{ '@odata.id': related }],
    Status: { State: 'Enabled', Health: 'OK' },
  };
}

function componentVersion(c: FirmwareComponent): string {
  return c.kind === 'BIOS' ? c.system.biosVersion : c.system.bmcFirmwareVersion;
}

function setComponentVersion(c: FirmwareComponent, version: string): void {
  if (c.kind === 'BIOS') c.system.biosVersion = version;
  else c.system.bmcFirmwareVersion = version;
}

/** Validates a SimpleUpdate body and starts the task that flashes the targeted components. */
export function startSimpleUpdate(body: RedfishObject, systems: EmulatedSystem[], tasks: TaskStore): EmulatedTask {
  const imageUri = body.ImageURI;
  if (typeof imageUri !== 'string' || imageUri === '') throw missingParameter('ImageURI', 'UpdateService.SimpleUpdate');
  const protocol = body.TransferProtocol;
  if (protocol !== undefined && !(TRANSFER_PROTOCOLS as readonly unknown[]).includes(protocol)) {
    throw badValue('TransferProtocol', protocol, TRANSFER_PROTOCOLS);
  }
  const targets = resolveTargets(body.Targets, systems);
  return tasks.start(`SimpleUpdate ${imageUri}`, () => {
    // An image whose name says "fail" makes the task end in Exception, to exercise failure paths.
    if (/fail/i.test(imageUri)) throw new Error(`Image ${imageUri} failed verification.`);
    for (const c of targets) setComponentVersion(c, nextVersion(imageUri, componentVersion(c)));
    return `Updated ${targets.map((c) => c.id).join(', ')} from ${imageUri}.`;
  });
}

function resolveTargets(raw: unknown, systems: EmulatedSystem[]): FirmwareComponent[] {
  const all = listComponents(systems);
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) return all.filter((c) => c.kind === 'BIOS');
  if (!Array.isArray(raw)) throw badValue('Targets', raw);
  return raw.map((target) => {
    const path = typeof target === 'string' ? target : isJsonObject(target) ? target['@odata.id'] : undefined;
    const found = typeof path === 'string' ? findComponent(path.replace(/\/+$/, ''), all) : undefined;
    if (!found) throw new EmulatorHttpError(400, 'ActionParameterValueError', `The target ${JSON.stringify(target)} is not an updatable component.`, ['Targets']);
    return found;
  });
}

function findComponent(path: string, all: FirmwareComponent[]): FirmwareComponent | undefined {
  return all.find((c) => {
    if (path === `${INVENTORY_PATH}/${c.id}`) return true;
    if (c.kind === 'BIOS') return path === `/redfish/v1/Systems/${c.system.id}`;
    return path === `/redfish/v1/Managers/${managerId(c.system.id)}`;
  });
}

/** The version in the image file name (foo-1.2.3.bin) or, failing that, the old one with its last part bumped. */
function nextVersion(imageUri: string, current: string): string {
  const file = imageUri.split(/[?#]/)[0].split('/').pop() ?? '';
  const named = /(\d+(?:\.\d+)+)/.exec(file);
  if (named) return named[1];
  const parts = current.split('.');
  const last = Number(parts[parts.length - 1]);
  parts[parts.length - 1] = Number.isFinite(last) ? String(last + 1) : '1';
  return parts.join('.');
}
