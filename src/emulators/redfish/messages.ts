// Redfish error bodies ("error" object with @Message.ExtendedInfo), as DSP0266 describes them.

import type { RedfishObject } from '../../protocols/redfish/json';

export type { RedfishObject };

const BASE_REGISTRY = 'Base.1.8';

/** Thrown by emulator handlers; the server turns it into a Redfish error response. */
export class EmulatorHttpError extends Error {
  constructor(
    readonly status: number,
    readonly messageId: string,
    message: string,
    readonly relatedProperties: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'EmulatorHttpError';
  }
}

export function errorBody(messageId: string, message: string, relatedProperties: string[] = []): RedfishObject {
  const fullId = `${BASE_REGISTRY}.${messageId}`;
  return {
    error: {
      code: fullId,
      message,
      '@Message.ExtendedInfo': [
        {
          '@odata.type': '#Message.v1_1_1.Message',
          MessageId: fullId,
          Message: message,
          RelatedProperties: relatedProperties.map((p) => `#/${p}`),
          MessageArgs: [],
          Severity: 'Critical',
          Resolution: 'Correct the request and resubmit it.',
        },
      ],
    },
  };
}

export function notFound(path: string): EmulatorHttpError {
  return new EmulatorHttpError(404, 'ResourceMissingAtURI', `The resource at the URI ${path} was not found.`);
}

export function badValue(property: string, value: unknown, allowed?: readonly string[]): EmulatorHttpError {
  const tail = allowed ? ` Allowed values: ${allowed.join(', ')}.` : '';
  return new EmulatorHttpError(
    400,
    'PropertyValueNotInList',
    `The value ${JSON.stringify(value)} for the property ${property} is not in the list of acceptable values.${tail}`,
    [property],
  );
}

export function missingParameter(parameter: string, action: string): EmulatorHttpError {
  return new EmulatorHttpError(
    400,
    'ActionParameterMissing',
    `The action ${action} requires the parameter ${parameter} to be present in the request body.`,
    [parameter],
  );
}

export function conflict(message: string): EmulatorHttpError {
  return new EmulatorHttpError(409, 'ResourceInUse', message);
}

export function isJsonObject(value: unknown): value is RedfishObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
