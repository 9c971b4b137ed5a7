/** Generic completion codes from IPMI 2.0 table 5-2, plus the RMCP+ status codes of table 13-15. */
const COMPLETION_CODES: Readonly<Record<number, string>> = {
  0x00: 'Command Completed Normally',
  0xc0: 'Node Busy',
  0xc1: 'Invalid Command',
  0xc2: 'Invalid Command on LUN',
  0xc3: 'Timeout',
  0xc4: 'Out of Space',
  0xc5: 'Reservation Canceled or Invalid',
  0xc6: 'Request Data Truncated',
  0xc7: 'Request Data Length Invalid',
  0xc8: 'Request Data Field Length Exceeded',
  0xc9: 'Parameter Out of Range',
  0xca: 'Cannot Return Number of Requested Data Bytes',
  0xcb: 'Requested Sensor, Data, or Record Not Present',
  0xcc: 'Invalid Data Field in Request',
  0xcd: 'Command Illegal for Specified Sensor or Record Type',
  0xce: 'Command Response Could Not Be Provided',
  0xcf: 'Cannot Execute Duplicated Request',
  0xd0: 'SDR Repository in Update Mode',
  0xd1: 'Device in Firmware Update Mode',
  0xd2: 'BMC Initialization in Progress',
  0xd3: 'Destination Unavailable',
  0xd4: 'Insufficient Privilege Level',
  0xd5: 'Command Not Supported in Present State',
  0xd6: 'Cannot Execute Command, Sub-function Disabled',
  0xff: 'Unspecified Error',
};

/** Command-specific codes that matter for session setup (0x80-0x8x vary per command). */
const SESSION_CODES: Readonly<Record<number, string>> = {
  0x80: 'Command-specific (e.g. parameter not supported / invalid session ID)',
  0x81: 'Command-specific (e.g. invalid user name / set in progress)',
  0x82: 'Command-specific (e.g. null user name not enabled / read only)',
  0x83: 'Command-specific (e.g. no session slot available)',
  0x84: 'Command-specific (e.g. no slot available for user)',
  0x85: 'Command-specific (e.g. privilege level exceeds limit)',
  0x86: 'Command-specific (e.g. privilege level exceeds user limit)',
};

export function completionCodeName(code: number): string {
  return COMPLETION_CODES[code] ?? SESSION_CODES[code] ?? (code >= 0x01 && code <= 0x7e ? 'OEM' : 'Unknown');
}

const RMCPPLUS_STATUS: Readonly<Record<number, string>> = {
  0x00: 'No errors',
  0x01: 'Insufficient resources to create a session',
  0x02: 'Invalid Session ID',
  0x03: 'Invalid payload type',
  0x04: 'Invalid authentication algorithm',
  0x05: 'Invalid integrity algorithm',
  0x06: 'No matching authentication payload',
  0x07: 'No matching integrity payload',
  0x08: 'Inactive Session ID',
  0x09: 'Invalid role',
  0x0a: 'Unauthorized role or privilege level requested',
  0x0b: 'Insufficient resources to create a session at the requested role',
  0x0c: 'Invalid name length',
  0x0d: 'Unauthorized name',
  0x0e: 'Unauthorized GUID',
  0x0f: 'Invalid integrity check value',
  0x10: 'Invalid confidentiality algorithm',
  0x11: 'No Cipher Suite match with proposed security algorithms',
  0x12: 'Illegal or Unrecognized parameter',
};

export function rmcpPlusStatusName(code: number): string {
  return RMCPPLUS_STATUS[code] ?? 'Unknown status';
}
