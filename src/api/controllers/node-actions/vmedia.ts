/**
 * /v1/nodes/{ident}/vmedia (NodeVmediaController): attach (POST, 1.89), detach (DELETE, 1.89) and
 * the device list (GET, 1.93), all through the conductor. Attach and detach answer 204 once the
 * conductor holds the node; their outcome shows in the node's last_error.
 */
import type Router from '@koa/router';
import { VMEDIA_DEVICES, isVmediaDevice, type VmediaDevice } from '../../../common/boot-devices';
import { HTTPNotFound, Invalid } from '../../../common/errors';
import { checkPathIdent, getNodeByIdent, routingNotFound } from '../../node-lookup';
import * as args from '../../schemas/args';
import { VMEDIA_ATTACH_SCHEMA, urlScheme } from '../../schemas/vmedia';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { bodyOrEmpty, conductorTopic, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

interface AttachBody {
  device_type: VmediaDevice;
  image_url: string;
  image_download_source?: string;
}

/** NodesController._lookup: the ident's form, then the sub-resource's version (1.89). */
function gate(ctx: Ctx): string {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (ctx.state.version < V.ATTACH_DETACH_VMEDIA) throw routingNotFound();
  return ident;
}

/** _get_node_and_topic: the node (policy checked) and a conductor for it, NoValidHost as a 400. */
async function nodeAndTopic(ctx: Ctx, ident: string) {
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node, true);
  return node;
}

async function getVmedia(ctx: Ctx): Promise<void> {
  const ident = gate(ctx);
  // pecan.abort inside the handler: a fault with webob's text, unlike _lookup's bare 404.
  if (ctx.state.version < V.GET_VMEDIA) throw new HTTPNotFound('The resource could not be found.');
  const node = await nodeAndTopic(ctx, ident);
  ctx.body = await ctx.state.deps.conductor.getVirtualMedia(node.uuid);
}

async function attachVmedia(ctx: Ctx): Promise<void> {
  const ident = gate(ctx);
  const body = bodyOrEmpty(ctx);
  args.schema(VMEDIA_ATTACH_SCHEMA)('vmedia', body);
  const vmedia = args.requiredBody('vmedia', body as AttachBody | null);
  // Only HTTP(S) images for now, as Ironic: no Glance images.
  const scheme = urlScheme(vmedia.image_url);
  if (scheme !== 'http' && scheme !== 'https') throw new Invalid(`Unsupported or missing URL scheme: ${scheme}`);
  const node = await nodeAndTopic(ctx, ident);
  await ctx.state.deps.conductor.attachVirtualMedia(node.uuid, vmedia.device_type, vmedia.image_url);
  ctx.status = 204;
}

/** The device_types argument: each one a VMEDIA_DEVICES name, else Invalid listing them. */
function deviceTypes(ctx: Ctx): VmediaDevice[] | null {
  const given = readArgs(ctx, [{ name: 'device_types', validate: args.stringList }]).device_types as string[] | null
    | undefined;
  if (given === undefined || given === null) return null;
  const invalid = given.filter((d) => !isVmediaDevice(d));
  if (invalid.length > 0) {
    throw new Invalid(`Invalid device type(s) ${invalid.join(', ')} (valid are ${VMEDIA_DEVICES.join(', ')})`);
  }
  return given as VmediaDevice[];
}

async function detachVmedia(ctx: Ctx): Promise<void> {
  const ident = gate(ctx);
  const devices = deviceTypes(ctx);
  const node = await nodeAndTopic(ctx, ident);
  await ctx.state.deps.conductor.detachVirtualMedia(node.uuid, devices);
  ctx.status = 204;
}

export function addVmediaRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/vmedia', getVmedia);
  router.post('/v1/nodes/:node_ident/vmedia', attachVmedia);
  router.delete('/v1/nodes/:node_ident/vmedia', detachVmedia);
}
