/**
 * An inspection hook (drivers/modules/inspector/hooks/base.py): `preprocess` runs on the raw data
 * before any processing, `run` (Python's __call__) afterwards; both may change plugin_data, never
 * the inventory. `dependencies` name hooks that must be enabled before this one.
 */
import type { DriverTask, JsonObject } from '../../base';

export interface InspectionHook {
  readonly name: string;
  readonly dependencies?: readonly string[];
  preprocess?(task: DriverTask, inventory: JsonObject, pluginData: JsonObject): Promise<void>;
  run?(task: DriverTask, inventory: JsonObject, pluginData: JsonObject): Promise<void>;
}

/** A member of a JSON object, as a dict (or an empty one). */
export function dictAt(value: unknown, key: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const found = Object.hasOwn(value, key) ? (value as JsonObject)[key] : undefined;
  return found !== null && typeof found === 'object' && !Array.isArray(found) ? found as JsonObject : {};
}

/** The node's properties with one key set (Node.set_property), saved. */
export async function setProperty(task: DriverTask, key: string, value: unknown): Promise<void> {
  task.node.properties = { ...(task.node.properties ?? {}), [key]: value };
  await task.saveNode();
}
