import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEmulator } from '../../../src/emulators/agent/server';
import {
  buildExt4Image, DirectLab, emulatorFor, nodeId, recordProvisionStates, sha256File, startDirectLab, V, waitForState,
} from './agent-support';

async function provision(lab: DirectLab, uuid: string, body: Record<string, unknown>): Promise<void> {
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body });
  assert.equal(r.status, 202, r.text);
}

/** The commands the agent ran since it booted. */
function commandsOf(agent: AgentEmulator): string[] {
  return agent.runner.commands.map((c) => c.command_name);
}

describe('[deploy]fast_track: the running agent is used again without a reboot', () => {
  let dir: string;
  let lab: DirectLab;
  let image: string;
  let imageSha: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'direct-fast-'));
    image = await buildExt4Image(dir);
    imageSha = await sha256File(image);
    lab = await startDirectLab(dir, {
      conductor: { automated_clean: 'true' },
      deploy: { fast_track: 'true', erase_devices_priority: '0' },
    });
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('cleans with the agent it booted, keeps it powered, then cleans again and deploys through it without a reboot', async () => {
    const mac = '52:54:00:fa:00:01';
    const created = await lab.s.request('POST', '/v1/nodes', { version: V, body: {
      name: 'fast-1', driver: 'fake-hardware', deploy_interface: 'direct', management_interface: 'noop',
      driver_info: { deploy_kernel: 'http://example.invalid/k', deploy_ramdisk: 'http://example.invalid/r' },
      instance_info: { image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha },
    } });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.uuid as string;
    assert.equal((await lab.s.request('POST', '/v1/ports', { version: V, body: { address: mac, node_uuid: uuid } })).status, 201);
    await provision(lab, uuid, { target: 'manage' });
    await waitForState(lab.s, uuid, ['manageable'], 60_000);
    const id = await nodeId(lab.s, uuid);
    await fsp.writeFile(path.join(dir, 'fast-1.disk'), Buffer.alloc(4 * 1024 * 1024));
    const agent = await emulatorFor(lab, mac, 'fast-1');
    const states = recordProvisionStates(lab.s);
    try {
      // No agent runs yet: the first cleaning boots one (clean wait for the boot, then for the step).
      await provision(lab, uuid, { target: 'provide' });
      let node = await waitForState(lab.s, uuid, ['available', 'clean failed']);
      assert.equal(node.provision_state, 'available', node.last_error);
      assert.deepEqual(states.of(id), ['cleaning -> available', 'clean wait -> available', 'cleaning -> available',
        'clean wait -> available', 'cleaning -> available', 'available -> null']);
      assert.equal(node.power_state, 'power on', 'fast track leaves the agent running');
      const lookups = agent.stats.lookups;

      // The agent heartbeats while the node is available; the next cleaning uses it at once.
      const heartbeats = agent.stats.heartbeats;
      for (let i = 0; i < 100 && agent.stats.heartbeats < heartbeats + 2; i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(agent.stats.heartbeats >= heartbeats + 2, 'still heartbeating');
      await provision(lab, uuid, { target: 'manage' });
      await waitForState(lab.s, uuid, ['manageable'], 60_000);
      const before = states.of(id).length;
      await provision(lab, uuid, { target: 'provide' });
      node = await waitForState(lab.s, uuid, ['available', 'clean failed']);
      assert.equal(node.provision_state, 'available', node.last_error);
      assert.deepEqual(states.of(id).slice(before), ['cleaning -> available', 'clean wait -> available', 'cleaning -> available',
        'available -> null'], 'only the step itself waits: no boot');

      // The deploy: no power off, no reboot into a new ramdisk, one wait (write_image).
      const beforeDeploy = states.of(id).length;
      await provision(lab, uuid, { target: 'active' });
      node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.deepEqual(states.of(id).slice(beforeDeploy), ['deploying -> active', 'wait call-back -> active', 'deploying -> active',
        'active -> null']);
      assert.equal(agent.stats.lookups, lookups, 'the same agent all along: no new lookup');
      const ran = commandsOf(agent);
      assert.ok(ran.indexOf('execute_deploy_step') > ran.lastIndexOf('execute_clean_step'), ran.join(','));
      assert.ok(ran.includes('get_deploy_steps'));
      assert.equal(await sha256File(path.join(dir, 'fast-1.disk')), imageSha);
      assert.equal(node.driver_internal_info.steps_validated, undefined, 'deploy bookkeeping wiped at the end');
    } finally {
      states.stop();
      await agent.stop();
    }
  });
});
