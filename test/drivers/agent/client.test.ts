import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentAPIError, AgentConnectionFailed } from '../../../src/common/errors';
import { Config } from '../../../src/conf/config';
import { AgentClient, commandErrorText } from '../../../src/drivers/agent/client';
import { startAgentEmulator, type AgentEmulator } from '../../../src/emulators/agent/server';

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('agent client against the IPA emulator', () => {
  let dir: string;
  let agent: AgentEmulator;
  const conf = new Config([], { agent: { command_timeout: 5, max_command_attempts: 2, command_wait_interval: 1 } });
  const client = new AgentClient(conf);
  const node = (url: string, token?: string) => ({
    uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', driver_info: {},
    driver_internal_info: { agent_url: url, ...(token ? { agent_secret_token: token } : {}) },
  });

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agent-client-'));
    // Ironic is unreachable here: the emulator only serves its command API.
    agent = await startAgentEmulator({
      ironicUrl: `http://127.0.0.1:${await deadPort()}`, macs: ['52:54:00:00:00:aa'], heartbeatIntervalMs: 60_000,
      disks: { root: path.join(dir, 'disk'), configdrive: path.join(dir, 'cd') },
    });
  });
  after(async () => {
    await agent.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('runs synchronous commands and lists them', async () => {
    const steps = await client.getDeploySteps(node(agent.url), { uuid: 'x' }, []);
    assert.equal(steps.command_status, 'SUCCEEDED');
    assert.deepEqual(Object.keys(steps.command_result as object), ['deploy_steps', 'hardware_manager_version']);
    const sync = await client.sync(node(agent.url));
    assert.equal(sync.command_name, 'sync');
    const names = (await client.getCommandsStatus(node(agent.url))).map((c) => c.command_name);
    assert.deepEqual(names.slice(-2), ['get_deploy_steps', 'sync']);
  });

  it('polls an asynchronous command to its end and reports its error', async () => {
    const result = await client.prepareImage(node(agent.url), { id: 'img', urls: [`http://127.0.0.1:${await deadPort()}/img`],
      os_hash_algo: 'sha256', os_hash_value: '0'.repeat(64) }, null, true);
    assert.equal(result.command_name, 'prepare_image');
    assert.equal(result.command_status, 'FAILED');
    assert.match(commandErrorText(result), /Download of image http:\/\/127\.0\.0\.1:\d+\/img failed/);
  });

  it('maps HTTP errors to AgentAPIError and unreachable agents to AgentConnectionFailed', async () => {
    await assert.rejects(client.command(node(agent.url), 'standby.no_such_command', {}),
      (err: Error) => err instanceof AgentAPIError && /returned HTTP status code 400 with error: Unknown command: standby\.no_such_command/.test(err.message));
    const down = `http://127.0.0.1:${await deadPort()}`;
    await assert.rejects(client.powerOff(node(down)),
      (err: Error) => err instanceof AgentConnectionFailed && /Failed to connect to the agent running on node .* for invoking command standby\.power_off/.test(err.message));
    await assert.rejects(client.getCommandsStatus({ uuid: 'n', driver_info: {}, driver_internal_info: {} }),
      (err: Error) => err instanceof AgentConnectionFailed && /requires agent_url/.test(err.message));
  });
});
