/**
 * HttpImageService.validate_href: a HEAD request to an http(s) image URL before the agent is sent
 * to it, with [DEFAULT]webserver_verify_ca and [DEFAULT]webserver_connection_timeout. Redirects are
 * not followed but reported (ImageRefIsARedirect) for the caller to retry once at the target; a 403
 * on a URL ending in '/' passes (a directory without an index); any other answer than 200 fails.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { ImageRefIsARedirect, ImageRefValidationFailed } from '../common/errors';
import { log } from '../common/log';
import { strictBoolFromString } from '../common/python/bool-from-string';
import { splitUrlCredentials } from '../common/url-credentials';
import type { Config } from '../conf/config';

const REDIRECTS = new Set([301, 302, 307, 308]);

/** ImageRefIsARedirect, carrying the target for the caller that follows it. */
export class ImageHrefRedirect extends ImageRefIsARedirect {
  constructor(imageRef: string, readonly redirectUrl: string) {
    super({ image_ref: imageRef, redirect_url: redirectUrl });
  }
}

interface HeadAnswer {
  status: number;
  location: string | null;
}

function tlsOptions(conf: Config): https.RequestOptions {
  const raw = conf.str('DEFAULT', 'webserver_verify_ca');
  const verify = strictBoolFromString(raw);
  if (verify === true) return {};
  if (verify === false) return { rejectUnauthorized: false };
  return { ca: readFileSync(raw, 'utf8'), rejectUnauthorized: true };
}

function head(conf: Config, url: string): Promise<HeadAnswer> {
  const plain = splitUrlCredentials(url);
  const target = new URL(plain.href);
  const secure = target.protocol === 'https:';
  const timeoutMs = conf.int('DEFAULT', 'webserver_connection_timeout') * 1000;
  return new Promise((resolve, reject) => {
    const req = (secure ? https.request : http.request)(target, {
      method: 'HEAD', headers: plain.headers, agent: false, signal: AbortSignal.timeout(timeoutMs),
      ...(secure ? tlsOptions(conf) : {}),
    }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * validate_href(url, secret): resolves when the URL answers 200 (or 403 on a directory URL).
 * `secret` URLs (Swift temporary URLs) are named 'secreturl' in the failure.
 */
export async function validateHttpHref(conf: Config, url: string, secret = false): Promise<void> {
  const shown = secret ? 'secreturl' : url;
  let answer: HeadAnswer;
  try {
    answer = await head(conf, url);
  } catch (err) {
    throw new ImageRefValidationFailed({ image_href: shown, reason: (err as Error).message });
  }
  if (REDIRECTS.has(answer.status) && answer.location) {
    throw new ImageHrefRedirect(url, new URL(answer.location, url).href);
  }
  if (answer.status === 403 && url.endsWith('/')) {
    log.warning(`Attempted to validate a URL ${url}, however we received an HTTP Forbidden response and the url ends ` +
      'with trailing slash (/), suggesting non-image deploy may be in progress with a webserver which is not ' +
      'permitting an index to be generated. We will treat this as valid, but return the response.');
    return;
  }
  if (answer.status !== 200) {
    throw new ImageRefValidationFailed({ image_href: shown,
      reason: `Got HTTP code ${answer.status} instead of 200 in response to HEAD request.` });
  }
}
