import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Crypt } from '../../../src/common/sha-crypt';
import { sha512Crypt } from '../../../src/common/sha-crypt';
import { startAgentEmulator } from '../../../src/emulators/agent/server';
import {
  availableNode, buildExt4Image, DirectLab, emulatorFor, nodeId, recordProvisionStates, sha256File, startDirectLab, V,
  waitForState,
} from '../deploy/agent-support';

describe('agent rescue: the rescue ramdisk gets the hashed password on its heartbeat', () => {
  let dir: string;
  let lab: DirectLab;
  let image: string;
  let imageSha: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agent-rescue-'));
    image = await buildExt4Image(dir);
    imageSha = await sha256File(image);
    lab = await startDirectLab(dir, { DEFAULT: { enabled_rescue_interfaces: 'fake,no-rescue,agent' } });
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function provision(uuid: string, body: Record<string, unknown>): Promise<void> {
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body });
    assert.equal(r.status, 202, r.text);
  }

  /** A node deployed by the direct deploy through the emulator, with the agent rescue interface. */
  async function activeNode(name: string, mac: string, rescuePasswordFile?: string) {
    const uuid = await availableNode(lab.s, name, mac, {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
    });
    const patch = await lab.s.request('PATCH', `/v1/nodes/${uuid}`, { version: V,
      body: [{ op: 'replace', path: '/rescue_interface', value: 'agent' }] });
    assert.equal(patch.status, 200, patch.text);
    const agent = rescuePasswordFile === undefined ? await emulatorFor(lab, mac, name) : await startAgentEmulator({
      ironicUrl: lab.s.url, macs: [mac], heartbeatIntervalMs: 250, rescuePasswordFile,
      disks: { root: path.join(dir, `${name}.disk`), configdrive: path.join(dir, `${name}.configdrive`) },
    });
    await provision(uuid, { target: 'active' });
    const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
    assert.equal(node.provision_state, 'active', node.last_error);
    return { uuid, agent };
  }

  it('rescue -> rescue wait -> (heartbeat, finalize_rescue) -> rescue, then unrescue -> active', async () => {
    const { uuid, agent } = await activeNode('rescue-1', '52:54:00:dd:00:01');
    const states = recordProvisionStates(lab.s);
    try {
      const password = 'R3scue me!';
      await provision(uuid, { target: 'rescue', rescue_password: password });
      const rescued = await waitForState(lab.s, uuid, ['rescue', 'rescue failed']);
      assert.equal(rescued.provision_state, 'rescue', rescued.last_error);
      assert.equal(rescued.last_error, null);
      assert.equal(rescued.power_state, 'power on');

      // The agent got crypt(3) of the password ($5$: [conductor]rescue_password_hash_algorithm = sha256), never the password.
      assert.ok(agent.runner.rescue, 'finalize_rescue reached the agent');
      assert.equal(agent.runner.rescue.hashed, true);
      const hash = agent.runner.rescue.password;
      assert.match(hash, /^\$5\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{43}$/);
      assert.equal(sha256Crypt(password, hash.split('$')[2]), hash);
      assert.notEqual(sha256Crypt('wrong password', hash.split('$')[2]), hash);
      const finalize = agent.runner.commands.find((c) => c.command_name === 'finalize_rescue');
      assert.deepEqual(finalize?.command_params, { rescue_password: hash, hashed: true });
      // AgentRescue.clean_up removed the password from the node once the agent had it.
      assert.ok(!('rescue_password' in rescued.instance_info));
      assert.ok(!('hashed_rescue_password' in rescued.instance_info));

      await provision(uuid, { target: 'unrescue' });
      const back = await waitForState(lab.s, uuid, ['active', 'unrescue failed']);
      assert.equal(back.provision_state, 'active', back.last_error);
      assert.equal(back.power_state, 'power on');
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'rescuing -> rescue', 'rescue wait -> rescue', 'rescuing -> rescue', 'rescue -> null',
        'unrescuing -> active', 'active -> null']);
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('hashes with sha512 crypt when [conductor]rescue_password_hash_algorithm says so', async () => {
    const { uuid, agent } = await activeNode('rescue-2', '52:54:00:dd:00:02');
    lab.s.conf.set('conductor', 'rescue_password_hash_algorithm', 'sha512');
    try {
      await provision(uuid, { target: 'rescue', rescue_password: 'another one' });
      const rescued = await waitForState(lab.s, uuid, ['rescue', 'rescue failed']);
      assert.equal(rescued.provision_state, 'rescue', rescued.last_error);
      const hash = agent.runner.rescue?.password ?? '';
      assert.match(hash, /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
      assert.equal(sha512Crypt('another one', hash.split('$')[2]), hash);
      await provision(uuid, { target: 'unrescue' });
      assert.equal((await waitForState(lab.s, uuid, ['active', 'unrescue failed'])).provision_state, 'active');
    } finally {
      lab.s.conf.set('conductor', 'rescue_password_hash_algorithm', 'sha256');
      await agent.stop();
    }
  });

  it('an agent that cannot store the password fails the rescue: rescue failed, powered off, password gone', async () => {
    const unwritable = path.join(dir, 'no-such-dir', 'ipa-rescue-password');
    const { uuid, agent } = await activeNode('rescue-3', '52:54:00:dd:00:03', unwritable);
    const states = recordProvisionStates(lab.s);
    try {
      await provision(uuid, { target: 'rescue', rescue_password: 'pw that goes nowhere' });
      const failed = await waitForState(lab.s, uuid, ['rescue', 'rescue failed']);
      assert.equal(failed.provision_state, 'rescue failed');
      assert.equal(failed.last_error, 'Node failed to perform rescue operation: Failed to rescue instance None for node ' +
        `${uuid}: Agent returned bad result for command finalize_rescue: Rescue Operation failed when writing the hashed ` +
        `rescue password to the password file. Error ENOENT: no such file or directory, open '${unwritable}'`);
      assert.equal(failed.power_state, 'power off');
      assert.ok(!('rescue_password' in failed.instance_info));
      assert.ok(!('agent_url' in failed.driver_internal_info));
      assert.equal(agent.runner.rescue, null);
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'rescuing -> rescue', 'rescue wait -> rescue', 'rescue failed -> rescue']);
      // From rescue failed, unrescue brings the instance back.
      await provision(uuid, { target: 'unrescue' });
      assert.equal((await waitForState(lab.s, uuid, ['active', 'unrescue failed'])).provision_state, 'active');
    } finally {
      states.stop();
      await agent.stop();
    }
  });
});
