/**
 * Node vendor passthru (manager.py vendor_passthru / get_node_vendor_passthru_methods). A call
 * starts under a shared lock and upgrades to exclusive only when the method asks for it (the
 * default); asynchronous methods run in the background after the reply, holding that lock.
 */
import { InvalidParameterValue, UnsupportedDriverExtension } from '../common/errors';
import { log } from '../common/log';
import type { JsonObject, VendorRoute } from '../drivers/base';
import type { VendorMethodInfo, VendorPassthruResult } from '../rpc/conductor-api';
import { errorText } from './error-handlers';
import type { TaskManager } from './task-manager';

/** get_vendor_passthru_metadata: each route's facts, in the decorator's key order. */
export function vendorMethodsMetadata(routes: Readonly<Record<string, VendorRoute>>): Record<string, VendorMethodInfo> {
  return Object.fromEntries(Object.entries(routes).map(([name, r]) => [name, {
    http_methods: [...r.httpMethods], async: r.async, description: r.description, attach: r.attach ?? false,
    require_exclusive_lock: r.requireExclusiveLock ?? true,
  }]));
}

export async function getNodeVendorPassthruMethods(tasks: TaskManager, nodeId: string):
  Promise<Record<string, VendorMethodInfo>> {
  return tasks.run(nodeId, { shared: true, purpose: 'listing vendor passthru methods' }, async (task) =>
    vendorMethodsMetadata(task.driver.vendor.routes));
}

function asArgs(data: unknown): JsonObject {
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? { ...(data as JsonObject) } : {};
}

export async function vendorPassthru(tasks: TaskManager, nodeId: string, method: string, httpMethod: string,
  data: unknown): Promise<VendorPassthruResult> {
  return tasks.run(nodeId, { shared: true, purpose: 'calling vendor passthru' }, async (task) => {
    const vendor = task.driver.vendor;
    const route = Object.hasOwn(vendor.routes, method) ? vendor.routes[method] : undefined;
    if (!route) throw new InvalidParameterValue(`No handler for method ${method}`);
    const http = httpMethod.toUpperCase();
    if (!route.httpMethods.includes(http)) {
      throw new InvalidParameterValue(`The method ${method} does not support HTTP ${http}`);
    }
    if (route.requireExclusiveLock ?? true) await tasks.upgrade(task);
    const invoke = vendor.invoke?.bind(vendor);
    if (!invoke) throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: `vendor passthru ${method}` });
    const args = asArgs(data);
    await vendor.validateMethod?.(task, method, { ...args, http_method: http });
    args.http_method = http;
    const attach = route.attach ?? false;
    if (!route.async) return { return: await invoke(task, method, args), async: false, attach };
    task.spawnAfter(async (t) => {
      try {
        await invoke(t, method, args);
      } catch (err) {
        log.error(`vendor_passthru failed with method ${method}: ${errorText(err)}`);
      }
    });
    return { return: null, async: true, attach };
  });
}
