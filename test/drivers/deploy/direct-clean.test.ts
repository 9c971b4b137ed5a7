import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEmulator } from '../../../src/emulators/agent/server';
import { DirectLab, emulatorFor, nodeId, recordProvisionStates, startDirectLab, V, waitForState } from './agent-support';

const MIB = 1024 * 1024;
const DISK_SIZE = 4 * MIB;

/** A disk full of 0xab, so any erased byte shows. */
async function dirtyDisk(file: string): Promise<void> {
  await fsp.writeFile(file, Buffer.alloc(DISK_SIZE, 0xab));
}

const allBytes = (buf: Buffer, value: number) => buf.every((b) => b === value);

/** A fake-hardware node with the direct deploy and one port, in manageable. */
async function manageableNode(lab: DirectLab, name: string, mac: string): Promise<string> {
  const created = await lab.s.request('POST', '/v1/nodes', { version: V, body: {
    name, driver: 'fake-hardware', deploy_interface: 'direct', management_interface: 'noop',
    driver_info: { deploy_kernel: 'http://example.invalid/k', deploy_ramdisk: 'http://example.invalid/r' },
  } });
  assert.equal(created.status, 201, created.text);
  const uuid = created.json.uuid as string;
  const port = await lab.s.request('POST', '/v1/ports', { version: V, body: { address: mac, node_uuid: uuid } });
  assert.equal(port.status, 201, port.text);
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'manage' } });
  assert.equal(r.status, 202, r.text);
  await waitForState(lab.s, uuid, ['manageable'], 60_000);
  return uuid;
}

async function provision(lab: DirectLab, uuid: string, body: Record<string, unknown>): Promise<void> {
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body });
  assert.equal(r.status, 202, r.text);
}

const executedSteps = (agent: AgentEmulator) => agent.runner.history
  .filter((c) => c.command_name === 'execute_clean_step')
  .map((c) => `${String((c.command_params.step as Record<string, unknown>).step)}:${c.command_status}`);

describe('direct deploy: in-band cleaning through the agent', () => {
  let dir: string;
  let lab: DirectLab;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'direct-clean-'));
    // erase_devices off for automated cleaning, so what erase_devices_metadata did stays visible.
    lab = await startDirectLab(dir, {
      conductor: { automated_clean: 'true' },
      deploy: { erase_devices_priority: '0', shred_random_overwrite_iterations: '1' },
    });
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('automated cleaning on provide boots the agent, runs erase_devices_metadata and ends available', async () => {
    const mac = '52:54:00:cc:00:01';
    const uuid = await manageableNode(lab, 'clean-auto', mac);
    const disk = path.join(dir, 'clean-auto.disk');
    await dirtyDisk(disk);
    const agent = await emulatorFor(lab, mac, 'clean-auto');
    const states = recordProvisionStates(lab.s);
    try {
      await provision(lab, uuid, { target: 'provide' });
      const node = await waitForState(lab.s, uuid, ['available', 'clean failed']);
      assert.equal(node.provision_state, 'available', node.last_error);
      assert.equal(node.last_error, null);
      assert.deepEqual(node.clean_step, {}, 'no step (null, shown as {} by the API)');
      assert.equal(node.power_state, 'power off', 'tear_down_cleaning powers the node off');
      // Booting the ramdisk is asynchronous, and so is the agent's step.
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'cleaning -> available', 'clean wait -> available', 'cleaning -> available', 'clean wait -> available',
        'cleaning -> available', 'available -> null']);
      assert.deepEqual(executedSteps(agent), ['erase_devices_metadata:SUCCEEDED']);
      const getSteps = agent.runner.history.find((c) => c.command_name === 'get_clean_steps');
      assert.ok(getSteps, 'the conductor asked the agent for its clean steps');
      const sent = executedSteps(agent).length && agent.runner.history.find((c) => c.command_name === 'execute_clean_step')!;
      assert.ok(sent);
      assert.deepEqual(sent.command_params.clean_version, { generic_hardware_manager: '1.1' });
      assert.deepEqual(sent.command_params.step, { step: 'erase_devices_metadata', priority: 99, interface: 'deploy',
        reboot_requested: false, abortable: true, requires_ramdisk: true });

      const data = await fsp.readFile(disk);
      assert.equal(data.length, DISK_SIZE);
      assert.ok(allBytes(data.subarray(0, MIB), 0), 'first MiB zeroed');
      assert.ok(allBytes(data.subarray(DISK_SIZE - MIB), 0), 'last MiB zeroed');
      assert.ok(allBytes(data.subarray(MIB, DISK_SIZE - MIB), 0xab), 'the rest untouched');
      // The cleaning bookkeeping is gone with the cleaning.
      for (const k of ['agent_cached_clean_steps', 'clean_step_index', 'agent_url', 'cleaning_reboot']) {
        assert.ok(!(k in node.driver_internal_info), `${k} wiped`);
      }
      assert.equal(node.driver_internal_info.agent_erase_devices_iterations, 1);
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('manual cleaning runs the agent step it names and goes back to manageable', async () => {
    const mac = '52:54:00:cc:00:02';
    const uuid = await manageableNode(lab, 'clean-manual', mac);
    const disk = path.join(dir, 'clean-manual.disk');
    await dirtyDisk(disk);
    const agent = await emulatorFor(lab, mac, 'clean-manual');
    const states = recordProvisionStates(lab.s);
    try {
      await provision(lab, uuid, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices' }] });
      const node = await waitForState(lab.s, uuid, ['manageable', 'clean failed']);
      assert.equal(node.provision_state, 'manageable', node.last_error);
      assert.equal(node.last_error, null);
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'cleaning -> manageable', 'clean wait -> manageable', 'cleaning -> manageable', 'clean wait -> manageable',
        'cleaning -> manageable', 'manageable -> null']);
      // Only the requested step, even though erase_devices_metadata has a priority.
      assert.deepEqual(executedSteps(agent), ['erase_devices:SUCCEEDED']);
      const data = await fsp.readFile(disk);
      assert.ok(allBytes(data, 0), 'the whole disk shredded, then zeroed');
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('a clean step the agent reports as failed puts the node in clean failed with the agent\'s error', async () => {
    const mac = '52:54:00:cc:00:03';
    const uuid = await manageableNode(lab, 'clean-fail', mac);
    // No disk at all: the agent cannot erase it.
    const agent = await emulatorFor(lab, mac, 'clean-fail');
    const states = recordProvisionStates(lab.s);
    try {
      await provision(lab, uuid, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices_metadata' }] });
      const node = await waitForState(lab.s, uuid, ['manageable', 'clean failed']);
      assert.equal(node.provision_state, 'clean failed');
      assert.equal(node.target_provision_state, 'manageable');
      const disk = path.join(dir, 'clean-fail.disk');
      assert.equal(node.last_error, `Clean step deploy.erase_devices_metadata failed on node ${uuid}. ` +
        `Failed to erase the metadata on the device(s): ${disk}: ENOENT: no such file or directory, stat '${disk}'`);
      // A step was running: the node is kept for inspection, in maintenance, powered on.
      assert.equal(node.maintenance, true);
      assert.equal(node.fault, 'clean failure');
      assert.equal(node.maintenance_reason, node.last_error);
      assert.equal(node.power_state, 'power on');
      assert.deepEqual(node.clean_step, {});
      assert.deepEqual(executedSteps(agent), ['erase_devices_metadata:FAILED']);
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'cleaning -> manageable', 'clean wait -> manageable', 'cleaning -> manageable', 'clean wait -> manageable',
        'clean failed -> manageable']);
      // _step_failure_handler keeps the ramdisk's logs, labelled as a cleaning's.
      const logsDir = lab.s.conf.str('agent', 'deploy_logs_local_path');
      const logs = (await fsp.readdir(logsDir)).filter((f) => f.startsWith(`${uuid}_clean-fail_cleaning_`));
      assert.equal(logs.length, 1, JSON.stringify(logs));
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('a manual step the agent does not offer fails the cleaning when the agent comes up', async () => {
    const mac = '52:54:00:cc:00:04';
    const uuid = await manageableNode(lab, 'clean-unknown', mac);
    const agent = await emulatorFor(lab, mac, 'clean-unknown');
    try {
      await provision(lab, uuid, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_everything' }] });
      const node = await waitForState(lab.s, uuid, ['manageable', 'clean failed']);
      assert.equal(node.provision_state, 'clean failed');
      assert.equal(node.last_error, 'Node failed to start the first cleaning step: node does not support this clean step: ' +
        "{'interface': 'deploy', 'step': 'erase_everything'}");
      assert.equal(node.maintenance, false, 'no step had started');
      assert.deepEqual(executedSteps(agent), []);
    } finally {
      await agent.stop();
    }
  });

  it('a heartbeat in clean wait from a node put in maintenance aborts the cleaning (allow_provisioning_in_maintenance off)', async () => {
    // Ironic's default (true) lets the heartbeat pass without action; off, the cleaning is aborted.
    lab.s.conf.set('conductor', 'allow_provisioning_in_maintenance', false);
    const mac = '52:54:00:cc:00:05';
    const uuid = await manageableNode(lab, 'clean-maint', mac);
    await provision(lab, uuid, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices_metadata' }] });
    // No agent yet: the node waits for the ramdisk (target manageable, so poll the state itself).
    for (let i = 0; ; i++) {
      const waiting = await lab.s.request('GET', `/v1/nodes/${uuid}`, { version: V });
      if (waiting.json.provision_state === 'clean wait') break;
      assert.ok(i < 300, `node stuck in ${String(waiting.json.provision_state)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const m = await lab.s.request('PUT', `/v1/nodes/${uuid}/maintenance`, { version: V, body: { reason: 'checking cables' } });
    assert.equal(m.status, 202, m.text);
    // The ramdisk comes up only now, and finds its node in maintenance.
    const agent = await emulatorFor(lab, mac, 'clean-maint');
    try {
      const node = await waitForState(lab.s, uuid, ['clean failed']);
      assert.equal(node.last_error, 'Cleaning aborted as node is in maintenance mode');
      assert.equal(node.maintenance_reason, 'checking cables');
      assert.deepEqual(executedSteps(agent), []);
      assert.ok(!agent.runner.history.some((c) => c.command_name === 'get_clean_steps'), 'no step was even asked for');
    } finally {
      lab.s.conf.set('conductor', 'allow_provisioning_in_maintenance', true);
      await agent.stop();
    }
  });
});
