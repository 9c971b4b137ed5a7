/** What a command works on: the instance, named by --instance or found on --node. */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { IronicNode } from '../client';
import type { ComputeDriver } from '../driver';
import { InstanceGoneError } from '../errors';
import type { Flavor, SpawnRequest } from '../types';
import { injectedFiles, networkInfo, pairs, readText, UsageError, Values } from './args';

export interface Command {
  name: string;
  usage: string;
  run(driver: ComputeDriver, v: Values): Promise<void>;
}

/** The instance uuid of --instance, or of the instance on --node. */
export async function targetInstance(driver: ComputeDriver, v: Values): Promise<string> {
  if (v.instance) return v.instance;
  if (!v.node) throw new UsageError('--instance or --node is required');
  const n = await driver.client.getNode(v.node);
  if (!n.instance_uuid) throw new InstanceGoneError(`Node ${n.uuid} has no instance.`);
  return n.instance_uuid;
}

/** The "flavor" is the whole node, as with Nova's one-resource-class bare-metal flavors. */
function flavorFor(node: IronicNode, v: Values): Flavor {
  const p = node.properties ?? {};
  return {
    name: v.flavor ?? node.resource_class ?? 'baremetal',
    vcpus: Number(p.cpus ?? 0), memoryMb: Number(p.memory_mb ?? 0), rootGb: Number(p.local_gb ?? 0),
    capabilities: pairs(v.capability, 'capability'), traits: v.trait ?? [],
  };
}

/** The instance as boot and rebuild describe it on the command line. */
export function spawnRequest(node: IronicNode, instanceUuid: string, v: Values, defaults: { name?: string; image?: string } = {}): SpawnRequest {
  const image = v.image ?? defaults.image;
  if (!image) throw new UsageError('--image is required');
  const name = v.name ?? defaults.name ?? node.name ?? `instance-${instanceUuid.slice(0, 8)}`;
  const key = readText(v['ssh-key'])?.trim();
  return {
    node: node.uuid, instanceUuid, name, image, flavor: flavorFor(node, v),
    keyPair: key ? { name: v['key-name'] ?? keyNameOf(v['ssh-key'] as string), publicKey: key, type: 'ssh' } : undefined,
    userData: readText(v['user-data']), adminPass: v['admin-pass'], files: injectedFiles(v.file),
    networkInfo: networkInfo(v.network), metadata: pairs(v.property, 'property'), projectId: v.project,
    hostname: v.hostname, dhcpDomain: v['dhcp-domain'], host: v.host,
    reservationId: `r-${randomBytes(4).toString('hex')}`,
  };
}

/** `id_ed25519.pub` -> `id_ed25519`. */
function keyNameOf(file: string): string {
  return path.basename(file).replace(/\.pub$/, '') || 'default';
}
