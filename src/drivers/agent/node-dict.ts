/** What the agent's step commands receive of the node. */
import type { DriverTask, JsonObject } from '../base';

/** node.as_dict(secure=True) as far as the agent's step calls use it. */
export function agentNodeDict(task: DriverTask): JsonObject {
  const n = task.node;
  const { configdrive: _configdrive, ...instanceInfo } = n.instance_info ?? {};
  return { uuid: n.uuid, name: n.name, properties: n.properties ?? {}, instance_info: instanceInfo,
    driver_internal_info: { ...(n.driver_internal_info ?? {}), agent_secret_token: undefined } };
}
