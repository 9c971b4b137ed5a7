// Raw HTTP reply → RedfishResponse, or the typed error its status calls for (with the BMC's
// @Message.ExtendedInfo text).

import { IncomingHttpHeaders } from 'node:http';
import {
  RedfishAuthError,
  RedfishBadRequestError,
  RedfishHttpError,
  RedfishInvalidResponseError,
  RedfishNotFoundError,
  RedfishPreconditionError,
  RedfishServerError,
} from './errors';
import { RedfishObject, errorMessages, parseJsonObject } from './json';
import { HttpReply } from './transport';

export interface RedfishResponse {
  status: number;
  url: string;
  headers: IncomingHttpHeaders;
  json: RedfishObject | null;
}

export function toRedfishResponse(method: string, url: URL, reply: HttpReply): RedfishResponse {
  const text = reply.body.toString('utf8');
  let json: RedfishObject | null = null;
  if (text.trim() !== '') {
    try {
      json = parseJsonObject(text, url.href);
    } catch (err) {
      if (reply.status < 300) throw err;
    }
  }
  // Redirects are not followed: a BMC API that redirects is misconfigured, and following could leak credentials.
  if (reply.status >= 300) throw httpErrorFor(method, url.href, reply.status, json);
  if (reply.status < 200) throw new RedfishInvalidResponseError(`Unexpected HTTP ${reply.status} from ${url.href}`, url.href);
  return { status: reply.status, url: url.href, headers: reply.headers, json };
}

export function requireJson(res: RedfishResponse): RedfishObject {
  if (!res.json) throw new RedfishInvalidResponseError(`Expected a JSON body from ${res.url} (HTTP ${res.status})`, res.url);
  return res.json;
}

function httpErrorFor(method: string, url: string, status: number, body: RedfishObject | null): RedfishHttpError {
  const { code, messages } = errorMessages(body);
  const args = [method, url, status, messages, code] as const;
  if (status === 400) return new RedfishBadRequestError(...args);
  if (status === 401 || status === 403) return new RedfishAuthError(...args);
  if (status === 404) return new RedfishNotFoundError(...args);
  if (status === 412 || status === 428) return new RedfishPreconditionError(...args);
  if (status >= 500) return new RedfishServerError(...args);
  return new RedfishHttpError(...args);
}
