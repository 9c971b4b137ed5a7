/**
 * In-band servicing through the agent (Ironic 2025.1's agent_base for service): servicing an active
 * direct-deploy node boots the agent ramdisk, its first heartbeat caches the agent's service steps
 * (service.get_service_steps) and starts them, an agent step runs as service.execute_service_step and
 * is finished on a later heartbeat, then the instance boots again and the node is active. The agent is
 * the emulator speaking IPA 10.2's service extension. As in 2025.1, a ramdisk looks its node up in
 * `service wait` only with fast track on, so the nodes here have it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEmulator } from '../../../src/emulators/agent/server';
import { DirectLab, emulatorFor, nodeId, recordProvisionStates, startDirectLab, V, waitForState } from './agent-support';

const SV = '1.96';

/** A fake-hardware node with the direct deploy and a port, active and powered on (as after a deploy). */
async function activeNode(lab: DirectLab, name: string, mac: string): Promise<string> {
  const created = await lab.s.request('POST', '/v1/nodes', { version: V, body: {
    name, driver: 'fake-hardware', deploy_interface: 'direct', management_interface: 'noop',
    driver_info: { deploy_kernel: 'http://example.invalid/k', deploy_ramdisk: 'http://example.invalid/r', fast_track: true },
  } });
  assert.equal(created.status, 201, created.text);
  const uuid = created.json.uuid as string;
  const port = await lab.s.request('POST', '/v1/ports', { version: V, body: { address: mac, node_uuid: uuid } });
  assert.equal(port.status, 201, port.text);
  await lab.s.db.knex('nodes').where({ uuid }).update({ provision_state: 'active', power_state: 'power on' });
  return uuid;
}

async function service(lab: DirectLab, uuid: string, steps: unknown[]): Promise<void> {
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: SV, body: { target: 'service', service_steps: steps } });
  assert.equal(r.status, 202, r.text);
}

const commandsNamed = (agent: AgentEmulator, name: string) => agent.runner.commands.filter((c) => c.command_name === name);

describe('direct deploy: in-band servicing through the agent', () => {
  let dir: string;
  let lab: DirectLab;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'direct-service-'));
    lab = await startDirectLab(dir);
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('runs an agent service step in the ramdisk over heartbeats and returns the node to active', async () => {
    const mac = '52:54:00:5e:00:01';
    const uuid = await activeNode(lab, 'svc-inband', mac);
    const agent = await emulatorFor(lab, mac, 'svc-inband');
    const states = recordProvisionStates(lab.s);
    try {
      await service(lab, uuid, [{ interface: 'deploy', step: 'burnin_cpu', args: {} }]);
      const node = await waitForState(lab.s, uuid, ['active', 'service failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(node.last_error, null);
      assert.equal(node.power_state, 'power on', 'the instance is booted again');
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'servicing -> active', 'service wait -> active', 'servicing -> active', 'service wait -> active',
        'servicing -> active', 'active -> null']);
      assert.equal(commandsNamed(agent, 'get_service_steps').length, 1, 'the steps were asked for once');
      const executed = commandsNamed(agent, 'execute_service_step');
      assert.equal(executed.length, 1);
      assert.equal(executed[0].command_status, 'SUCCEEDED');
      assert.deepEqual(executed[0].command_params.step, { interface: 'deploy', step: 'burnin_cpu', args: {}, abortable: true,
        priority: 0 });
      assert.deepEqual(executed[0].command_params.service_version, { generic_hardware_manager: '1.1' });
      for (const k of ['service_steps', 'service_step_index', 'servicing_reboot']) {
        assert.ok(!(k in node.driver_internal_info) || node.driver_internal_info[k] === null, `${k} wiped`);
      }
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('fails the servicing when the agent does not offer the step, keeping the ramdisk up', async () => {
    const mac = '52:54:00:5e:00:02';
    const uuid = await activeNode(lab, 'svc-unknown', mac);
    const agent = await emulatorFor(lab, mac, 'svc-unknown');
    try {
      await service(lab, uuid, [{ interface: 'deploy', step: 'burnin_disk', args: {} }]);
      const node = await waitForState(lab.s, uuid, ['active', 'service failed']);
      assert.equal(node.provision_state, 'service failed');
      assert.equal(node.last_error, `Node failed to start the first service step: node does not support this service step: ` +
        "{'interface': 'deploy', 'step': 'burnin_disk', 'args': {}}");
      assert.equal(commandsNamed(agent, 'execute_service_step').length, 0);
    } finally {
      await agent.stop();
    }
  });

  it('a step the agent lists for another interface runs there: no-raid has none, so the servicing fails', async () => {
    const mac = '52:54:00:5e:00:03';
    const uuid = await activeNode(lab, 'svc-fail', mac);
    const agent = await emulatorFor(lab, mac, 'svc-fail');
    try {
      // apply_configuration is the RAID interface's: the node's no-raid interface has no such step.
      await service(lab, uuid, [{ interface: 'raid', step: 'apply_configuration', args: { raid_config: {} } }]);
      const node = await waitForState(lab.s, uuid, ['active', 'service failed']);
      assert.equal(node.provision_state, 'service failed');
      assert.match(node.last_error, /failed step .*apply_configuration/);
    } finally {
      await agent.stop();
    }
  });
});
