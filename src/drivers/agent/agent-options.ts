/**
 * build_agent_options: the kernel parameters every agent ramdisk boot gets, whatever it boots
 * for (deploy, cleaning, rescue): where to call Ironic back.
 */
import type { DriverTask, JsonObject } from '../base';

/** get_ironic_api_url: the URL the ramdisk calls back, passed as ipa-api-url. */
export function ironicApiUrl(task: DriverTask): string {
  const conf = task.ctx.conf;
  const url = conf.optStr('service_catalog', 'endpoint_override') ?? conf.optStr('api', 'public_endpoint');
  if (url) return url.replace(/\/+$/, '');
  const host = conf.str('api', 'host_ip');
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${conf.int('api', 'port')}`;
}

export function agentBootOptions(task: DriverTask): JsonObject {
  return { 'ipa-api-url': ironicApiUrl(task) };
}

/** [agent]manage_agent_boot: whether Ironic prepares the ramdisk boot itself. */
export const manageAgentBoot = (task: DriverTask): boolean => task.ctx.conf.bool('agent', 'manage_agent_boot');
