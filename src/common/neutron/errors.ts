/**
 * What a failed Networking API call raises, worded as openstacksdk words it, since Ironic puts
 * `str(exc)` of those exceptions into its NetworkError messages (and so into last_error).
 */

/** openstacksdk's OpenStackCloudException (SDKException): any failed call. */
export class NeutronApiError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'NeutronApiError';
  }
}

/** ResourceNotFound (NotFoundException): a 404, or find_* with nothing matching. */
export class NeutronNotFound extends NeutronApiError {
  constructor(message: string) {
    super(message, 404);
    this.name = 'NeutronNotFound';
  }
}

/** DuplicateResource: find_* matched more than one resource by name. */
export class NeutronDuplicate extends NeutronApiError {
  constructor(message: string) {
    super(message);
    this.name = 'NeutronDuplicate';
  }
}

/**
 * keystoneauth's ConnectFailure, or its DiscoveryFailure when the endpoint has no version: Neutron
 * did not answer at all. Not an openstacksdk exception, so, as in Ironic, no `except
 * OpenStackCloudException` catches it and the operation fails with its bare message.
 */
export class NeutronUnreachable extends Error {
  /** name: keystoneauth's class, which Ironic names in messages such as `%(cls)s: %(error)s`. */
  constructor(name: 'ConnectFailure' | 'ConnectTimeout' | 'DiscoveryFailure', message: string) {
    super(message);
    this.name = name;
  }
}

/** DiscoveryFailure's message: the unversioned endpoint could not be asked for its versions. */
export function discoveryFailure(endpoint: string): NeutronUnreachable {
  return new NeutronUnreachable('DiscoveryFailure', `Unable to find a version discovery document at ${endpoint}, the service is unavailable or misconfigured. ` +
    'Required version range (any - any), version hack disabled.');
}

const CLASS_BY_STATUS: ReadonlyMap<number, string> = new Map([
  [400, 'BadRequestException'], [403, 'ForbiddenException'], [404, 'NotFoundException'],
  [409, 'ConflictException'], [412, 'PreconditionFailedException'],
]);

/** The `message` fields of Neutron's error body ({"NeutronError": {"message": ...}}), else the reason. */
function details(body: string, contentType: string, reason: string): string {
  if (body && contentType.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object') {
        const messages = Object.values(parsed as Record<string, unknown>)
          .map((v) => (v && typeof v === 'object' && typeof (v as Record<string, unknown>).message === 'string' ? (v as Record<string, string>).message : ''))
          .filter(Boolean);
        const top = (parsed as Record<string, unknown>).message;
        if (messages.length) return messages.join('\n');
        if (typeof top === 'string' && top) return top;
      }
    } catch {
      return body;
    }
  }
  if (body && contentType.includes('text/html')) {
    const lines: string[] = [];
    for (const line of body.split('\n')) {
      const text = line.trim().replace(/<.+?>/g, '');
      if (text && !lines.includes(text)) lines.push(text);
    }
    if (lines.length) return lines.join(': ');
  }
  return reason || body;
}

/** openstacksdk's raise_from_response: `NotFoundException: 404: Client Error for url: URL, details`. */
export function errorFromResponse(url: string, status: number, reason: string, contentType: string, body: string): NeutronApiError {
  const cls = CLASS_BY_STATUS.get(status) ?? 'HttpException';
  const source = status >= 400 && status < 500 ? 'Client' : 'Server';
  const detail = details(body, contentType, reason);
  const message = `${cls}: ${status}: ${source} Error for url: ${url}${detail ? `, ${detail}` : ''}`;
  return status === 404 ? new NeutronNotFound(message) : new NeutronApiError(message, status);
}
