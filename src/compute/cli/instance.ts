/** Instance life: boot (spawn), rebuild and delete (destroy). */
import { randomUUID } from 'node:crypto';
import { required, Values } from './args';
import type { ComputeDriver } from '../driver';
import { Command, spawnRequest, targetInstance } from './context';
import { nodeSummary, write } from './output';

async function boot(driver: ComputeDriver, v: Values): Promise<void> {
  const node = await driver.client.getNode(required(v, 'node'));
  const instanceUuid = v['instance-uuid'] ?? randomUUID();
  const req = spawnRequest(node, instanceUuid, v);
  write(`boot: instance ${instanceUuid} (${req.name}) on node ${node.uuid}`);
  const done = await driver.spawn(req);
  write(`active: node ${done.uuid} instance ${done.instance_uuid}`);
}

async function rebuild(driver: ComputeDriver, v: Values): Promise<void> {
  const instanceUuid = await targetInstance(driver, v);
  const node = await driver.instanceNode(instanceUuid);
  const info = node.instance_info ?? {};
  const req = spawnRequest(node, instanceUuid, v, {
    name: typeof info.display_name === 'string' ? info.display_name : undefined,
    image: typeof info.image_source === 'string' ? info.image_source : undefined,
  });
  write(`rebuild: instance ${instanceUuid} on node ${node.uuid} image ${req.image}`);
  const done = await driver.rebuild(req, Boolean(v['preserve-ephemeral']));
  write(`active: node ${done.uuid} instance ${done.instance_uuid}`);
}

async function remove(driver: ComputeDriver, v: Values): Promise<void> {
  const instanceUuid = await targetInstance(driver, v);
  const node = await driver.client.nodeByInstance(instanceUuid);
  // Without Nova's network_info, the VIFs to unplug are the ones Ironic has on the node.
  const vifs = node ? await driver.client.listVifs(node.uuid) : [];
  const n = await driver.destroy(instanceUuid, vifs);
  if (!n) write(`deleted: instance ${instanceUuid} was on no node`);
  else write(`deleted: node ${n.uuid} provision_state=${n.provision_state ?? 'None'}`);
  if (n) write(`node: ${nodeSummary(n)}`);
}

export const instanceCommands: Command[] = [
  { name: 'boot', usage: 'boot --node N --image URL [--name NAME] [--instance-uuid UUID] [--ssh-key FILE] [--user-data FILE] [--admin-pass P] [--file DEST=SRC]... [--network vif=ID,ip=ADDR/PREFIX,...]... [--trait T]... [--capability K=V]... [--property K=V]...', run: boot },
  { name: 'rebuild', usage: 'rebuild (--instance UUID | --node N) [--image URL] [same instance options as boot] [--preserve-ephemeral]', run: rebuild },
  { name: 'delete', usage: 'delete (--instance UUID | --node N)', run: remove },
];
