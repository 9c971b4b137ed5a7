/**
 * Typed failures of the IPMI client. Every failure path of the protocol code ends in one of these,
 * so callers (the Ironic power/management interfaces) can map them without parsing messages.
 */
import { completionCodeName } from './completion-codes';

export class IpmiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** No (valid) answer within the per-request timeout after all retries. */
export class IpmiTimeoutError extends IpmiError {
  constructor(readonly what: string, readonly timeoutMs: number, readonly attempts: number) {
    super(`IPMI ${what}: no response after ${attempts} attempt(s) of ${timeoutMs} ms`);
  }
}

/** The BMC rejected our credentials (wrong user/password/Kg, or privilege not allowed). */
export class IpmiAuthError extends IpmiError {
  constructor(message: string, readonly statusCode?: number) {
    super(message);
  }
}

/** An authentication code or integrity HMAC from the BMC did not verify. */
export class IpmiIntegrityError extends IpmiError {}

/** The BMC answered with something we cannot use: truncated, malformed, or the wrong payload. */
export class IpmiProtocolError extends IpmiError {}

/** The command was delivered and answered with a non-zero completion code. */
export class IpmiCompletionCodeError extends IpmiError {
  readonly codeName: string;
  constructor(readonly command: string, readonly code: number) {
    const name = completionCodeName(code);
    super(`IPMI ${command} failed: completion code 0x${code.toString(16).padStart(2, '0')} (${name})`);
    this.codeName = name;
  }
}

/** The client or session was closed while (or before) a request was made. */
export class IpmiClosedError extends IpmiError {}

/** The ipmitool binary exited non-zero or printed output we could not parse. */
export class IpmitoolError extends IpmiError {
  constructor(message: string, readonly exitCode: number | null, readonly stderr: string) {
    super(message);
  }
}

/** Options given to the client are not usable (unknown cipher suite, bad Kg hex, ...). */
export class IpmiConfigError extends IpmiError {}
