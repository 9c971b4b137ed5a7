// Typed errors of the Redfish client. Every failure the client can report is one of these.

/** One entry of a BMC's @Message.ExtendedInfo (or the top-level error message). */
export interface RedfishMessage {
  messageId: string | null;
  message: string;
  severity: string | null;
  resolution: string | null;
  relatedProperties: string[];
}

export class RedfishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad client options: unparsable redfish_address, unknown auth type, missing CA bundle... */
export class RedfishConfigError extends RedfishError {}

/** The BMC could not be reached or dropped the connection (refused, reset, DNS, truncated body). */
export class RedfishConnectionError extends RedfishError {
  constructor(
    message: string,
    readonly url: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** TLS handshake or certificate verification failed (verify_ca). */
export class RedfishTlsError extends RedfishConnectionError {}

/** No complete response within the request timeout. */
export class RedfishTimeoutError extends RedfishConnectionError {
  constructor(url: string, readonly timeoutMs: number) {
    super(`Redfish request to ${url} timed out after ${timeoutMs} ms`, url, 'ETIMEDOUT');
  }
}

/** The response body exceeded the client's size cap; reading stopped there. */
export class RedfishResponseTooLargeError extends RedfishError {
  constructor(readonly url: string, readonly limitBytes: number) {
    super(`Redfish response from ${url} exceeds the ${limitBytes} byte limit`);
  }
}

/** The BMC answered with something that is not the Redfish it promised (bad JSON, wrong shape, missing header). */
export class RedfishInvalidResponseError extends RedfishError {
  constructor(message: string, readonly url: string) {
    super(message);
  }
}

/** An HTTP error status from the BMC, with its extended messages when it sent any. */
export class RedfishHttpError extends RedfishError {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly messages: RedfishMessage[],
    readonly code: string | null,
  ) {
    super(describeHttpError(method, url, status, messages));
  }
}

export class RedfishBadRequestError extends RedfishHttpError {}
/** 401/403: wrong credentials or insufficient privilege. */
export class RedfishAuthError extends RedfishHttpError {}
export class RedfishNotFoundError extends RedfishHttpError {}
/** 412: the resource changed under us (ETag mismatch) and retrying did not help. */
export class RedfishPreconditionError extends RedfishHttpError {}
export class RedfishServerError extends RedfishHttpError {}

/** redfish_system_id was not given and the Systems collection does not have exactly one member. */
export class RedfishSystemResolutionError extends RedfishError {
  constructor(readonly memberCount: number) {
    super(`Cannot choose a ComputerSystem automatically: the Systems collection has ${memberCount} members (set redfish_system_id)`);
  }
}

/** The BMC does not offer what was asked (no SecureBoot resource, no virtual media of that type...). */
export class RedfishUnsupportedError extends RedfishError {}

/** An asynchronous operation ended in a failed state. */
export class RedfishTaskError extends RedfishError {
  constructor(
    readonly monitorUri: string,
    readonly taskState: string,
    readonly messages: RedfishMessage[],
  ) {
    super(`Redfish task ${monitorUri} ended in state ${taskState}${messages.length ? `: ${messages.map((m) => m.message).join('; ')}` : ''}`);
  }
}

export class RedfishTaskTimeoutError extends RedfishError {
  constructor(readonly monitorUri: string, readonly timeoutMs: number) {
    super(`Redfish task ${monitorUri} did not finish within ${timeoutMs} ms`);
  }
}

function describeHttpError(method: string, url: string, status: number, messages: RedfishMessage[]): string {
  const detail = messages.map((m) => m.message).filter((m) => m !== '').join('; ');
  return `Redfish ${method} ${url} failed with HTTP ${status}${detail ? `: ${detail}` : ''}`;
}
