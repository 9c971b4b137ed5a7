/**
 * The instance_info PATCH Nova sends before a deploy (patcher.GenericDriverFields.get_deploy_patch):
 * every op is an `add` under /instance_info/, in Nova's order; numbers go as strings, capabilities
 * as a JSON string in Python's spelling, traits as a JSON list.
 */
import * as os from 'node:os';
import { pythonJsonDumps } from '../common/python/json-dumps';
import type { IronicNode, PatchOp } from './client';
import type { SpawnRequest } from './types';

export function deployPatch(node: IronicNode, req: SpawnRequest, preserveEphemeral?: boolean): PatchOp[] {
  const f = req.flavor;
  const info: Array<[string, unknown]> = [
    ['image_source', req.image],
    ['root_gb', String(f.rootGb)],
    ['swap_mb', String(f.swapMb ?? 0)],
    ['display_name', req.name],
    ['vcpus', String(f.vcpus)],
    ['nova_host_id', req.host ?? os.hostname()],
    ['memory_mb', String(f.memoryMb)],
    ['local_gb', String(node.properties?.local_gb ?? 0)],
  ];
  // [DEFAULT]default_ephemeral_format is unset by default, so Nova sends no ephemeral_format.
  if (f.ephemeralGb) info.push(['ephemeral_gb', String(f.ephemeralGb)]);
  if (preserveEphemeral !== undefined) info.push(['preserve_ephemeral', preserveEphemeral ? 'True' : 'False']);
  if (f.capabilities && Object.keys(f.capabilities).length) info.push(['capabilities', pythonJsonDumps(f.capabilities)]);
  if (f.traits && f.traits.length) info.push(['traits', [...f.traits]]);
  return info.map(([key, value]) => ({ op: 'add', path: `/instance_info/${key}`, value }));
}
