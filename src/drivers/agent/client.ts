/**
 * Client of ironic-python-agent's HTTP API as Ironic's agent_client.py uses it:
 * `POST {agent_url}/{[agent]agent_api_version}/commands/?wait=..&agent_token=..` with
 * `{"name": "<extension>.<command>", "params": {...}}`, and `GET .../commands/` for the
 * status of every command the agent ran. Connection problems are retried
 * [agent]max_command_attempts times and become AgentConnectionFailed; HTTP errors become
 * AgentAPIError with the agent's faultstring.
 */
import { MetricLogger } from '../../metrics/ironic-metrics';
import {
  AgentAPIError, AgentCommandTimeout, AgentConnectionFailed, AgentInProgress, IronicError,
} from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import type { NodeRecord, PortRecord } from '../../db/models';
import type { JsonObject } from '../base';
import { setTimeout as sleep } from 'node:timers/promises';
import { agentHttp, agentVerify } from './transport';

/** One entry of the agent's command list (get_commands_status). */
export interface AgentCommand {
  id?: string;
  command_name: string;
  command_params?: JsonObject;
  command_status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'VERSION_MISMATCH' | 'CLEAN_VERSION_MISMATCH' | string;
  command_error: unknown;
  command_result: unknown;
}

type AgentNode = Pick<NodeRecord, 'uuid' | 'driver_internal_info' | 'driver_info'>;

/** The flows whose steps the agent runs in band, each through its own IPA extension. */
export type InbandStepKind = 'clean' | 'service';

interface CommandOptions {
  /** ?wait=true: the agent answers once the command finished. */
  wait?: boolean;
  /** Poll the command list until the command left RUNNING ([agent]command_wait_*). */
  poll?: boolean;
}


/** get_command_error: the text of a failed command's error. */
export function commandErrorText(command: { command_error?: unknown }): string {
  const error = command.command_error;
  if (error === null || error === undefined) return 'Invalid agent response';
  if (typeof error === 'object') {
    const e = error as Record<string, unknown>;
    return String(e.details || e.message || JSON.stringify(e));
  }
  return String(error);
}

const AGENT_CLIENT_METRICS = new MetricLogger('ironic.drivers.modules.agent_client');

export class AgentClient {
  constructor(private readonly conf: Config) {}

  private commandUrl(node: AgentNode): string {
    const agentUrl = (node.driver_internal_info ?? {}).agent_url;
    if (typeof agentUrl !== 'string' || !agentUrl) {
      throw new AgentConnectionFailed({ reason: 'Agent driver requires agent_url in driver_internal_info' });
    }
    return `${agentUrl}/${this.conf.str('agent', 'agent_api_version')}/commands/`;
  }

  private timeoutMs(): number {
    return this.conf.int('agent', 'command_timeout') * 1000;
  }

  /**
   * One request bounded by [agent]command_timeout, verified as the node says (agentVerify);
   * network and TLS failures become AgentConnectionFailed.
   */
  private async send(node: AgentNode, url: string, init: { method: string; headers?: Record<string, string>; body?: string },
    what: string): Promise<Response> {
    const verify = agentVerify(this.conf, node);
    try {
      return await agentHttp(url, { ...init, timeoutMs: this.timeoutMs(), verify });
    } catch (err) {
      const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new AgentConnectionFailed({ reason: `${what}. Error: ${cause}` });
    }
  }

  private async withConnectionRetries<T>(fn: () => Promise<T>): Promise<T> {
    const attempts = Math.max(1, this.conf.int('agent', 'max_command_attempts'));
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof AgentConnectionFailed) || attempt >= attempts) throw err;
      }
    }
  }

  /** _command: sends one command, raising on HTTP errors and agent TypeErrors. */
  command(node: AgentNode, method: string, params: JsonObject, opts: CommandOptions = {}): Promise<AgentCommand> {
    return AGENT_CLIENT_METRICS.time('AgentClient._command', () => this.sendCommand(node, method, params, opts));
  }

  private async sendCommand(node: AgentNode, method: string, params: JsonObject, opts: CommandOptions): Promise<AgentCommand> {
    return this.withConnectionRetries(async () => {
      const query = new URLSearchParams({ wait: String(Boolean(opts.wait)) });
      const token = (node.driver_internal_info ?? {}).agent_secret_token;
      if (typeof token === 'string' && token) query.set('agent_token', token);
      const url = this.commandUrl(node);
      const body = JSON.stringify({ name: method, params });
      log.debug(`Executing agent command ${method} for node ${node.uuid}`);
      let res: Response;
      try {
        res = await this.send(node, `${url}?${query.toString()}`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body,
        }, `Failed to connect to the agent running on node ${node.uuid} for invoking command ${method}`);
      } catch (err) {
        // The request may have reached the agent before the connection broke.
        const running = await this.runningCommand(node, method).catch(() => null);
        if (running) return running;
        throw err;
      }
      const text = await res.text();
      let result: Record<string, unknown>;
      try {
        result = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new IronicError(`Unable to decode response as JSON.\nRequest URL: ${url}\nRequest body: "${body}"\n` +
          `Response status code: ${res.status}\nResponse: "${text}"`);
      }
      if (res.status >= 400) {
        const fault = String(result.faultstring ?? '');
        if (res.status === 409 || fault.toLowerCase().includes('agent is busy')) {
          throw new AgentInProgress({ node: node.uuid, command: method, error: fault });
        }
        throw new AgentAPIError({ node: node.uuid, status: res.status, error: fault });
      }
      raiseIfTypeError(result, node.uuid);
      const command = result as unknown as AgentCommand;
      return opts.poll ? this.waitForCommand(node, method) : command;
    });
  }

  /** _status_if_last_command_matches: the agent's last command, if it is `method` and still running. */
  private async runningCommand(node: AgentNode, method: string): Promise<AgentCommand | null> {
    const name = method.includes('.') ? method.split('.').slice(1).join('.') : method;
    const commands = await this.getCommandsStatus(node, false);
    const last = commands[commands.length - 1];
    return last && last.command_name === name && last.command_status === 'RUNNING' ? last : null;
  }

  /** _wait_for_command: the last entry for `method` once it left RUNNING. */
  private async waitForCommand(node: AgentNode, method: string): Promise<AgentCommand> {
    const name = method.includes('.') ? method.split('.').slice(1).join('.') : method;
    const attempts = Math.max(1, this.conf.int('agent', 'command_wait_attempts'));
    const interval = this.conf.int('agent', 'command_wait_interval') * 1000;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const commands = await this.getCommandsStatus(node);
      const result = [...commands].reverse().find((c) => c.command_name === name);
      if (result && result.command_status !== 'RUNNING') {
        raiseIfTypeError(result as unknown as Record<string, unknown>, node.uuid);
        return result;
      }
      if (attempt < attempts) await sleep(interval);
    }
    throw new AgentCommandTimeout({ command: name, node: node.uuid });
  }

  /** get_commands_status: every command the agent ran since it booted, oldest first. */
  async getCommandsStatus(node: AgentNode, retryConnection = true): Promise<AgentCommand[]> {
    const get = async () => {
      const res = await this.send(node, this.commandUrl(node), { method: 'GET' },
        `Failed to connect to the agent running on node ${node.uuid} to collect commands status`);
      const body = await res.json().catch(() => ({})) as { commands?: AgentCommand[] };
      return body.commands ?? [];
    };
    return retryConnection ? this.withConnectionRetries(get) : get();
  }

  getDeploySteps(node: AgentNode & Pick<NodeRecord, 'uuid'>, nodeDict: JsonObject, ports: PortRecord[]): Promise<AgentCommand> {
    return this.command(node, 'deploy.get_deploy_steps', { node: nodeDict, ports: ports.map(portDict) }, { wait: true });
  }

  executeDeployStep(node: AgentNode, step: JsonObject, nodeDict: JsonObject, ports: PortRecord[]): Promise<AgentCommand> {
    return this.command(node, 'deploy.execute_deploy_step', {
      step, node: nodeDict, ports: ports.map(portDict),
      deploy_version: (node.driver_internal_info ?? {}).hardware_manager_version ?? null,
    });
  }

  /** clean.get_clean_steps / service.get_service_steps: the agent's in-band steps of `kind`. */
  getSteps(node: AgentNode, kind: InbandStepKind, nodeDict: JsonObject, ports: PortRecord[]): Promise<AgentCommand> {
    return this.command(node, `${kind}.get_${kind}_steps`, { node: nodeDict, ports: ports.map(portDict) }, { wait: true });
  }

  /** clean.execute_clean_step / service.execute_service_step, with the hardware manager version seen. */
  executeStep(node: AgentNode, kind: InbandStepKind, step: JsonObject, nodeDict: JsonObject, ports: PortRecord[]): Promise<AgentCommand> {
    return this.command(node, `${kind}.execute_${kind}_step`, {
      step, node: nodeDict, ports: ports.map(portDict),
      [`${kind}_version`]: (node.driver_internal_info ?? {}).hardware_manager_version ?? null,
    });
  }

  /** rescue.finalize_rescue with the hashed password (the plain-text fallback is for agents before 6.0.0). */
  finalizeRescue(node: AgentNode & Pick<NodeRecord, 'instance_info'>): Promise<AgentCommand> {
    const hashed = (node.instance_info ?? {}).hashed_rescue_password;
    if (!hashed) throw new IronicError('Agent rescue requires rescue_password in instance_info');
    return this.command(node, 'rescue.finalize_rescue', { rescue_password: hashed, hashed: true });
  }

  /** standby.prepare_image: the pre-deploy-steps way of writing an image (still served by IPA). */
  prepareImage(node: AgentNode, imageInfo: JsonObject, configdrive: string | null, wait = false): Promise<AgentCommand> {
    const params: JsonObject = { image_info: imageInfo };
    if (configdrive !== null) params.configdrive = configdrive;
    return this.command(node, 'standby.prepare_image', params, { poll: wait });
  }

  getPartitionUuids(node: AgentNode): Promise<AgentCommand> {
    return this.command(node, 'standby.get_partition_uuids', {}, { wait: true });
  }

  powerOff(node: AgentNode): Promise<AgentCommand> {
    return this.command(node, 'standby.power_off', {});
  }

  reboot(node: AgentNode): Promise<AgentCommand> {
    return this.command(node, 'standby.run_image', {});
  }

  sync(node: AgentNode): Promise<AgentCommand> {
    return this.command(node, 'standby.sync', {}, { wait: true });
  }

  /**
   * lockdown: how a node that may not be powered off leaves the agent. The file systems are synced,
   * system.lockdown is sent, and the agent must stop answering within
   * [agent]post_deploy_get_power_state_retries polls.
   */
  async lockdown(node: AgentNode, failIfUnavailable = true): Promise<void> {
    if (!failIfUnavailable) {
      try {
        await this.getCommandsStatus(node, false);
      } catch (err) {
        if (err instanceof AgentConnectionFailed) return;
        log.error(`Unexpected exception when checking agent status on node ${node.uuid}, proceeding with lockdown`);
      }
    }
    await this.sync(node);
    await this.command(node, 'system.lockdown', {});
    const attempts = this.conf.int('agent', 'post_deploy_get_power_state_retries') + 1;
    const interval = this.conf.int('agent', 'post_deploy_get_power_state_retry_interval') * 1000;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.getCommandsStatus(node, false);
      } catch (err) {
        if (err instanceof AgentConnectionFailed) return;
        throw err;
      }
      if (attempt >= attempts) throw new AgentCommandTimeout({ command: 'system.lockdown', node: node.uuid });
      await sleep(interval);
    }
  }

  collectSystemLogs(node: AgentNode): Promise<AgentCommand> {
    return this.command(node, 'log.collect_system_logs', {}, { wait: true });
  }
}

function raiseIfTypeError(result: Record<string, unknown>, nodeUuid: string): void {
  const error = result.command_error as Record<string, unknown> | null | undefined;
  if (error && typeof error === 'object' && error.type === 'TypeError') {
    throw new AgentAPIError({ node: nodeUuid, status: error.code, error: commandErrorText(result) });
  }
}

/** port.as_dict() as the agent receives it. */
function portDict(port: PortRecord): JsonObject {
  const { id: _id, ...rest } = port as unknown as JsonObject;
  return rest;
}
