/**
 * GlanceImageService for one conductor's configuration: the [glance] session and endpoint
 * (keystone.get_session/get_auth/get_endpoint), `GET /v2/images/{id}` through show() and the
 * request for `GET /v2/images/{id}/file`, with Ironic's error translation and its retries:
 * a 503 or a connection failure is retried [glance]num_retries times a second apart, then
 * raised as GlanceConnectionFailed.
 */
import { GlanceConnectionFailed, ImageNotAuthorized, ImageNotFound, Invalid, IronicError } from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import { adapterFor, ServiceConnectFailure, type ServiceAdapter } from '../../common/keystone/adapter';
import { imageApiRoot } from './endpoint';
import { checkImageUsable, translateFromGlance, type GlanceImageMeta, type ImageContext } from './image-meta';
import { parseImageId } from './image-ref';
import { setTimeout as sleep } from 'node:timers/promises';

const GROUP = 'glance';
const RETRY_WAIT_MS = 1000;

interface GlanceRequest {
  url: string;
  headers: Record<string, string>;
}

class RetryableGlanceError extends Error {}

export class GlanceImageService {
  private readonly adapter: ServiceAdapter;
  private readonly retries: number;

  constructor(conf: Config) {
    this.adapter = adapterFor(conf, GROUP);
    this.retries = Math.max(0, conf.int(GROUP, 'num_retries'));
  }

  /** The caller as Glance sees it: the service user when [glance] authenticates, else anonymous. */
  get context(): ImageContext {
    return { authenticated: this.adapter.session !== null, projectId: null };
  }

  /** keystone.get_endpoint('glance'): the override, else the catalog of the service token. */
  async endpoint(): Promise<string> {
    return imageApiRoot(await this.adapter.endpoint());
  }

  /** Builds the authenticated request for an Image API path. */
  async request(apiPath: string): Promise<GlanceRequest> {
    return { url: `${await this.endpoint()}${apiPath}`, headers: await this.adapter.authHeaders() };
  }

  /** GlanceImageService.call: one GET with the retry policy and error translation. */
  private async call(imageId: string, apiPath: string): Promise<Response> {
    let lastReason = '';
    let endpoint = this.adapter.override ?? '';
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(RETRY_WAIT_MS);
      try {
        endpoint = await this.endpoint();
        return await this.getOnce(imageId, `${endpoint}${apiPath}`);
      } catch (err) {
        if (!(err instanceof RetryableGlanceError)) throw err;
        lastReason = err.message;
        log.warning(`Error contacting glance endpoint ${endpoint} for 'get' (attempt ${attempt + 1}): ${lastReason}`);
      }
    }
    throw new GlanceConnectionFailed({ endpoint, reason: lastReason });
  }

  private async getOnce(imageId: string, url: string): Promise<Response> {
    const res = await this.adapter.fetch(url, { headers: { Accept: 'application/json' } }).catch((err: unknown) => {
      throw err instanceof ServiceConnectFailure ? new RetryableGlanceError(err.reason) : err;
    });
    if (res.ok) return res;
    const detail = (await res.text().catch(() => '')).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
    if (res.status === 401 || res.status === 403) throw new ImageNotAuthorized({ image_id: imageId });
    if (res.status === 404) throw new ImageNotFound({ image_id: imageId });
    if (res.status === 400) throw new Invalid(detail || 'HTTP 400');
    if (res.status === 503) throw new RetryableGlanceError(`HTTP 503 ${detail}`.trim());
    throw new IronicError(`Glance answered HTTP ${res.status} for ${url}: ${detail}`);
  }

  /** GlanceImageService.show: the translated record of an active image the caller may use. */
  async show(imageHref: string): Promise<GlanceImageMeta> {
    const imageId = parseImageId(imageHref);
    log.debug(`Getting image metadata from glance. Image: ${imageHref}`);
    const res = await this.call(imageId, `/v2/images/${imageId}`);
    const image = translateFromGlance(await res.json() as Record<string, unknown>);
    checkImageUsable(this.context, image);
    return image;
  }

  /** The request that streams the image data (GlanceImageService.download). */
  async dataRequest(imageHref: string): Promise<GlanceRequest> {
    return this.request(`/v2/images/${parseImageId(imageHref)}/file`);
  }
}

const services = new WeakMap<Config, GlanceImageService>();

/** One service (and so one cached token) per configuration, as Ironic's module-level session. */
export function glanceServiceFor(conf: Config): GlanceImageService {
  let service = services.get(conf);
  if (!service) {
    service = new GlanceImageService(conf);
    services.set(conf, service);
  }
  return service;
}
