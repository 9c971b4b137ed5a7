/** Parsers for the text ipmitool 1.8.x prints, and its error messages mapped to typed errors. */
import { completionCodeName } from './completion-codes';
import { IpmiAuthError, IpmiCompletionCodeError, IpmiError, IpmiProtocolError, IpmiTimeoutError, IpmitoolError } from './errors';
import type { BootDevice, BootDeviceInfo, DeviceId, PowerState } from './types';

export function parsePowerStatus(out: string): PowerState {
  const m = /Chassis Power is (on|off)/.exec(out);
  if (!m) throw new IpmiProtocolError(`unexpected ipmitool power status output: ${out.trim()}`);
  return m[1] as PowerState;
}

/** Order matters: the safe-mode selector text contains the plain hard-drive text. */
const SELECTORS: ReadonlyArray<[RegExp, BootDevice]> = [
  [/Safe-Mode/, 'safe'],
  [/PXE/, 'pxe'],
  [/Hard-Drive/, 'disk'],
  [/CD\/DVD/, 'cdrom'],
  [/BIOS Setup/, 'bios'],
];

export function parseBootParam5(out: string): BootDeviceInfo {
  const m = /Boot Device Selector : (.*)/.exec(out);
  if (!m) throw new IpmiProtocolError(`unexpected ipmitool bootparam output: ${out.trim()}`);
  const found = SELECTORS.find(([re]) => re.test(m[1]));
  return {
    device: found ? found[1] : null,
    persistent: out.includes('Options apply to all future boots'),
    efi: out.includes('BIOS EFI boot'),
  };
}

function field(out: string, name: string): string {
  const m = new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(out);
  if (!m) throw new IpmiProtocolError(`ipmitool mc info output lacks "${name}"`);
  return m[1].trim();
}

export function parseMcInfo(out: string): DeviceId {
  const [major, minor] = field(out, 'Firmware Revision').split('.');
  return {
    deviceId: Number(field(out, 'Device ID')),
    deviceRevision: Number(field(out, 'Device Revision')),
    firmwareMajor: Number(major),
    firmwareMinor: Number(minor ?? 0),
    ipmiVersion: field(out, 'IPMI Version'),
    manufacturerId: Number(field(out, 'Manufacturer ID')),
    productId: Number(field(out, 'Product ID').split(' ')[0]),
  };
}

const AUTH_PATTERNS = [
  /RAKP 2 HMAC is invalid/i,
  /RAKP 4 .*invalid/i,
  /RAKP \d message indicates an error/i,
  /unauthorized name/i,
  /Activate Session (command failed|error)/i,
  /Invalid user name/i,
  /insufficient privilege/i,
  /Set Session Privilege Level to .* failed/i,
];

const TIMEOUT_PATTERNS = [/Get Auth Capabilities error/i, /No response from remote controller/i, /Unable to establish .*session/i];

/** Maps a failed run's stderr to the same error classes the native client raises. */
export function errorFromIpmitool(what: string, exitCode: number | null, stderr: string, timeoutMs: number): IpmiError {
  if (AUTH_PATTERNS.some((re) => re.test(stderr))) return new IpmiAuthError(`ipmitool ${what}: ${lastLine(stderr)}`);
  const raw = /rsp=0x([0-9a-f]{2})/i.exec(stderr);
  if (raw) return new IpmiCompletionCodeError(what, parseInt(raw[1], 16));
  const named = /failed: (.+)$/m.exec(stderr);
  if (named) {
    const code = codeByName(named[1].trim());
    if (code !== undefined) return new IpmiCompletionCodeError(what, code);
  }
  if (TIMEOUT_PATTERNS.some((re) => re.test(stderr))) return new IpmiTimeoutError(`ipmitool ${what}`, timeoutMs, 1);
  return new IpmitoolError(`ipmitool ${what} failed (exit ${exitCode}): ${lastLine(stderr)}`, exitCode, stderr);
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

function codeByName(name: string): number | undefined {
  const wanted = name.toLowerCase();
  for (let code = 0x80; code <= 0xff; code++) {
    if (completionCodeName(code).toLowerCase() === wanted) return code;
  }
  return undefined;
}
