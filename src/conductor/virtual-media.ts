/**
 * Virtual media calls (manager.py get_virtual_media / attach_virtual_media / detach_virtual_media,
 * API 1.89 and 1.93). Each takes the node (attach and detach exclusively), validates the management
 * interface, and answers; attach and detach then run in a worker, a failure ending in the node's
 * last_error and history as utils.run_node_action records it. No provision state restricts them.
 */
import type { VirtualMediaInfo, VmediaDevice } from '../common/boot-devices';
import { UnsupportedDriverExtension } from '../common/errors';
import { log } from '../common/log';
import { pyRepr } from '../common/python/repr';
import { publishRemoteImage, unpublishRemoteImage } from '../drivers/image-publishing';
import { errorText, spawnErrorHandler } from './error-handlers';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

function unsupported(task: Task, extension: string): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension });
}

/** The name the attached image is published under (_virtual_media_file_name). */
function publishedName(task: Task, device: VmediaDevice): string {
  return `${device}-${task.node.uuid}.${device === 'cdrom' ? 'iso' : 'img'}`;
}

/** run_node_action's failure: the message becomes an error history event (and last_error), then the node is saved. */
async function recordFailure(task: Task, message: string): Promise<void> {
  await task.recordHistory(message, '', true);
  log.error(message);
  await task.saveNode();
}

/** do_attach_virtual_media: the image is re-published (the previous copy withdrawn) and handed to the BMC. */
async function doAttach(task: Task, device: VmediaDevice, imageUrl: string): Promise<void> {
  const fail = (err: unknown) => `Could not attach device ${device} to node ${task.node.uuid}: ${errorText(err)}`;
  try {
    const mgmt = task.driver.management;
    const name = publishedName(task, device);
    await unpublishRemoteImage(task, name);
    const published = await publishRemoteImage(task, imageUrl, name);
    try {
      if (!mgmt.attachVirtualMedia) unsupported(task, 'attach_virtual_media');
      await mgmt.attachVirtualMedia(task, device, published);
    } catch (err) {
      await recordFailure(task, fail(err));
      return;
    }
    await task.saveNode();
    log.info(`Device ${device} attached to node ${task.node.uuid}`);
  } catch (err) {
    await recordFailure(task, fail(err));
  }
}

async function doDetach(task: Task, devices: VmediaDevice[] | null): Promise<void> {
  const shown = devices === null ? 'None' : pyRepr(devices);
  try {
    const mgmt = task.driver.management;
    if (!mgmt.detachVirtualMedia) unsupported(task, 'detach_virtual_media');
    await mgmt.detachVirtualMedia(task, devices);
  } catch (err) {
    await recordFailure(task, `Could not detach device(s) ${shown} from node ${task.node.uuid}: ${errorText(err)}`);
    return;
  }
  await task.saveNode();
  log.info(`Device(s) ${shown} detached from node ${task.node.uuid}`);
}

export async function getVirtualMedia(tasks: TaskManager, nodeId: string): Promise<VirtualMediaInfo[]> {
  return tasks.run(nodeId, { purpose: 'get virtual media devices' }, async (task) => {
    const mgmt = task.driver.management;
    await mgmt.validate(task);
    if (!mgmt.getVirtualMedia) return unsupported(task, 'get_virtual_media');
    return mgmt.getVirtualMedia(task);
  });
}

export async function attachVirtualMedia(tasks: TaskManager, nodeId: string, device: VmediaDevice, imageUrl: string):
  Promise<void> {
  await tasks.run(nodeId, { purpose: 'attaching virtual media' }, async (task) => {
    await task.driver.management.validate(task);
    // A new operation: the previous error goes now, a new one may come from the worker.
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter((t) => doAttach(t, device, imageUrl), spawnErrorHandler('attaching virtual media'));
  });
}

export async function detachVirtualMedia(tasks: TaskManager, nodeId: string, devices: VmediaDevice[] | null):
  Promise<void> {
  await tasks.run(nodeId, { purpose: 'detaching virtual media' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter((t) => doDetach(t, devices), spawnErrorHandler('detaching virtual media'));
  });
}
