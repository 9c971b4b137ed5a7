/** Discovery documents: `GET /` (the API's versions) and `GET /v1` (the v1 resources visible at the request's version). */
import Router from '@koa/router';
import type { ApiState } from '../state';
import { baseUrl, selfAndBookmark, Link } from '../links';
import { MIN_MINOR, V, versionString } from '../versions';
import { ClientSideError } from '../../common/errors';

function versionDoc(base: string, maxMinor: number) {
  return {
    id: 'v1',
    links: [{ href: `${base}/v1/`, rel: 'self' }],
    status: 'CURRENT',
    min_version: versionString(MIN_MINOR),
    version: versionString(maxMinor),
  };
}

function rootDocument(base: string, maxMinor: number) {
  return {
    name: 'OpenStack Ironic API',
    description: 'Ironic is an OpenStack project which enables the provision and management of baremetal machines.',
    default_version: versionDoc(base, maxMinor),
    versions: [versionDoc(base, maxMinor)],
  };
}

/** Resources linked from /v1 after the base four, each with the version that reveals it. */
const GATED_RESOURCES: [string, number][] = [
  ['portgroups', V.PORTGROUP],
  ['volume', V.VOLUME],
  ['lookup', V.LOOKUP_HEARTBEAT],
  ['heartbeat', V.LOOKUP_HEARTBEAT],
  ['conductors', V.CONDUCTORS],
  ['allocations', V.ALLOCATIONS],
  ['events', V.EVENTS],
  ['deploy_templates', V.DEPLOY_TEMPLATES],
  ['shards', V.SHARDS],
  ['runbooks', V.RUNBOOKS],
  ['inspection_rules', V.INSPECTION_RULES],
  ['continue_inspection', V.CONTINUE_INSPECTION],
];

function v1Document(base: string, minor: number, maxMinor: number): Record<string, unknown> {
  const links: Link[] = [
    { href: `${base}/v1/`, rel: 'self' },
    { href: 'https://docs.openstack.org//ironic/latest/contributor//webapi.html', rel: 'describedby', type: 'text/html' },
  ];
  const doc: Record<string, unknown> = {
    id: 'v1',
    links,
    media_types: { base: 'application/json', type: 'application/vnd.openstack.ironic.v1+json' },
    chassis: selfAndBookmark(base, 'chassis', ''),
    nodes: selfAndBookmark(base, 'nodes', ''),
    ports: selfAndBookmark(base, 'ports', ''),
    drivers: selfAndBookmark(base, 'drivers', ''),
    version: versionDoc(base, maxMinor),
  };
  for (const [resource, min] of GATED_RESOURCES) {
    if (minor >= min) doc[resource] = selfAndBookmark(base, resource, '');
  }
  return doc;
}

export function rootRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  // Ironic answers any method on `/` with the document.
  router.all('/', (ctx) => {
    ctx.body = rootDocument(baseUrl(ctx), ctx.state.deps.maxMinor);
  });
  return router;
}

export function v1IndexRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get(['/v1', '/v1/'], (ctx) => {
    ctx.body = v1Document(baseUrl(ctx), ctx.state.version, ctx.state.deps.maxMinor);
  });
  // The v1 controller itself refuses other methods (a fault, unlike routing's 405).
  for (const verb of ['post', 'put', 'patch', 'delete'] as const) {
    router[verb](['/v1', '/v1/'], () => {
      throw new ClientSideError(
        'The server could not comply with the request since it is either malformed or otherwise incorrect.', 405);
    });
  }
  return router;
}
