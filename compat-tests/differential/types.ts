import type { ReferenceRelease } from '../support/reference-ironic';
// Data model of the differential test: cases are plain data so that they read like a request log.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** One HTTP request sent identically to both servers; its response is compared. */
export interface RequestCase {
  kind?: 'request';
  name: string;
  method: HttpMethod;
  /** Path with `{VAR}` substitutions, e.g. `/v1/nodes/{N1}`. */
  path: string;
  /** Value of X-OpenStack-Ironic-API-Version; omitted = header not sent (server default 1.1). */
  version?: string;
  headers?: Record<string, string>;
  /** Serialised as JSON (after `{VAR}` substitution in strings) with Content-Type application/json. */
  body?: unknown;
  /** Sent byte-for-byte (after substitution); Content-Type application/json unless headers say otherwise. */
  rawBody?: string;
  /** How rawBody becomes bytes: latin1 maps each char to one byte, to send bytes that are not UTF-8. */
  rawBodyEncoding?: 'utf8' | 'latin1';
  /** Remember values from the response body: variable name -> dotted path (`uuid`, `nodes.0.uuid`). */
  capture?: Record<string, string>;
  /**
   * The case asks for the newest version ("latest" or the server's maximum): version numbers equal to the
   * server's own maximum are replaced by `<max>` before comparing.
   */
  maxVersionNormalized?: boolean;
}

/** Poll a GET until the listed body fields take one of the allowed values; the last response is compared. */
export interface WaitForCase {
  kind: 'waitFor';
  name: string;
  path: string;
  version?: string;
  until: Record<string, ReadonlyArray<string | null>>;
  timeoutMs?: number;
}

export type Case = RequestCase | WaitForCase;

export interface CaseGroup {
  group: string;
  cases: Case[];
  /**
   * Only against this reference release (features of microversions the older reference lacks);
   * without it the group runs against every release.
   */
  onlyRelease?: ReferenceRelease;
}

/** What a response looks like after normalisation: only the things we compare. */
export interface NormalizedResponse {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

export interface Difference {
  path: string;
  reference: string;
  candidate: string;
}

export interface CaseResult {
  group: string;
  name: string;
  request: string;
  differences: Difference[];
  /** Set when the difference is listed as known-acceptable; it does not fail the run. */
  acceptedReason?: string;
}
