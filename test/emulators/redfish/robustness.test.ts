// The emulator under seeded random writes: every odd body gets a Redfish 4xx error (or success),
// never a 500, a crash or a hang; and it keeps serving afterwards.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedfishEmulator, startRedfishEmulator } from '../../../src/emulators/redfish';
import { seededRandom } from '../../protocols/seeded-random';

const TARGETS: [string, string][] = [
  ['PATCH', '/redfish/v1/Systems/1'],
  ['POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset'],
  ['PATCH', '/redfish/v1/Systems/1/Bios/Settings'],
  ['POST', '/redfish/v1/Systems/1/Bios/Actions/Bios.ResetBios'],
  ['POST', '/redfish/v1/Systems/1/Bios/Actions/Bios.ChangePassword'],
  ['PATCH', '/redfish/v1/Systems/1/SecureBoot'],
  ['POST', '/redfish/v1/Systems/1/SecureBoot/Actions/SecureBoot.ResetKeys'],
  ['PATCH', '/redfish/v1/Managers/BMC-1/VirtualMedia/Cd'],
  ['POST', '/redfish/v1/Managers/BMC-1/VirtualMedia/Cd/Actions/VirtualMedia.InsertMedia'],
  ['POST', '/redfish/v1/Managers/BMC-1/VirtualMedia/Floppy/Actions/VirtualMedia.EjectMedia'],
  ['POST', '/redfish/v1/Managers/BMC-1/Actions/Manager.Reset'],
  ['PATCH', '/redfish/v1/Chassis/Chassis-1'],
  ['POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate'],
  ['POST', '/redfish/v1/SessionService/Sessions'],
];
const KEYS = ['Boot', 'BootSourceOverrideTarget', 'ResetType', 'Attributes', 'SecureBootEnable', 'Image', 'Inserted', 'IndicatorLED',
  'ImageURI', 'Targets', 'UserName', 'Password', 'NewPassword', 'PasswordName', 'ResetKeysType', 'TransferMethod', 'WriteProtected', 'NumCores'];

function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0: return null;
    case 1: return rand() > 0.5;
    case 2: return Math.floor(rand() * 2000) - 1000;
    case 3: return ['On', 'Pxe', 'Once', 'http://127.0.0.1/x.iso', 'Lit', '', 'ForceOff', 'ResetAllKeysToDefault'][Math.floor(rand() * 8)];
    case 4: return 'x'.repeat(Math.floor(rand() * 300));
    case 5: return rand() * 1e308;
    case 6: return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    default: return randomObject(rand, depth + 1);
  }
}

function randomObject(rand: () => number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--) out[KEYS[Math.floor(rand() * KEYS.length)]] = randomValue(rand, depth);
  return out;
}

function randomBody(rand: () => number): string {
  const pick = Math.floor(rand() * 5);
  if (pick === 0) return '';
  if (pick === 1) return JSON.stringify(randomValue(rand, 0));
  if (pick === 2) return JSON.stringify(randomObject(rand, 0)).slice(0, Math.floor(rand() * 40));
  return JSON.stringify(randomObject(rand, 0));
}

let emu: RedfishEmulator;
before(async () => {
  emu = await startRedfishEmulator({ systems: 1, auth: { username: 'u', password: 'p' }, taskDurationMs: 10 });
});
after(() => emu.stop());

describe('emulator robustness', () => {
  it('answers 300 seeded random writes with Redfish errors or success, never a 500', async () => {
    const rand = seededRandom(0xbadf00d);
    const auth = `Basic ${Buffer.from('u:p').toString('base64')}`;
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const [method, path] = TARGETS[Math.floor(rand() * TARGETS.length)];
      const body = randomBody(rand);
      const res = await fetch(`${emu.url}${path}`, { method, body: body || undefined, headers: { Authorization: auth, 'Content-Type': 'application/json' } });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok(res.status < 500, `case ${i}: ${method} ${path} ${body} -> ${res.status} ${text}`);
      if (res.status >= 400) {
        const parsed = JSON.parse(text) as { error?: { '@Message.ExtendedInfo'?: unknown[] } };
        assert.ok(Array.isArray(parsed.error?.['@Message.ExtendedInfo']), `case ${i}: Redfish error body`);
      }
    }
    assert.ok((statuses.get(400) ?? 0) > 0 && [...statuses.keys()].some((s) => s < 300), JSON.stringify([...statuses]));
    const root = await fetch(`${emu.url}/redfish/v1/Systems/1`, { headers: { Authorization: auth } });
    assert.equal(root.status, 200);
  });
});
