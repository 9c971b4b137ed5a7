import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEmulator } from '../../../src/emulators/agent/server';
import {
  availableNode, buildExt4Image, DirectLab, emulatorFor, sha256File, startDirectLab, V, waitForState,
} from '../deploy/agent-support';

/** The node the agent received with the first command called `name`. */
function sentNode(agent: AgentEmulator, name: string): Record<string, any> {
  const command = agent.runner.commands.find((c) => c.command_name === name);
  assert.ok(command, `the agent got ${name}`);
  return command.command_params.node as Record<string, any>;
}

describe('the node the agent receives with its commands (node.as_dict(secure=True))', () => {
  let dir: string;
  let lab: DirectLab;
  let image: string;
  let imageSha: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'node-dict-'));
    image = await buildExt4Image(dir);
    imageSha = await sha256File(image);
    lab = await startDirectLab(dir);
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('carries driver_info, target_raid_config, properties and traits, with secrets masked', async () => {
    const mac = '52:54:00:dd:00:01';
    const uuid = await availableNode(lab.s, 'dict-1', mac, {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
    });
    const raid = { logical_disks: [{ size_gb: 'MAX', raid_level: '1', is_root_volume: true }] };
    const patch = await lab.s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: [
      { op: 'add', path: '/driver_info/agent_burnin_cpu_timeout', value: '60' },
      { op: 'add', path: '/driver_info/ipmi_password', value: 'Hunter2-ipmi' },
      { op: 'add', path: '/properties/root_device', value: { name: '/dev/vda' } },
    ] });
    assert.equal(patch.status, 200, patch.text);
    await lab.s.db.knex('nodes').where({ uuid }).update({ target_raid_config: JSON.stringify(raid) });
    const traits = await lab.s.request('PUT', `/v1/nodes/${uuid}/traits/CUSTOM_DICT`, { version: V });
    assert.equal(traits.status, 204, traits.text);

    const agent = await emulatorFor(lab, mac, 'dict-1');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: {
        target: 'active', configdrive: 'H4sIAAAAAAAA/wMAAAAAAAAAAAA=',
      } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);

      const asked = sentNode(agent, 'get_deploy_steps');
      assert.equal(asked.uuid, uuid);
      assert.equal(asked.name, 'dict-1');
      assert.equal(typeof asked.id, 'number');
      assert.equal(asked.driver, 'fake-hardware');
      assert.equal(asked.deploy_interface, 'direct');
      assert.equal(asked.provision_state, 'wait call-back');
      assert.equal(asked.driver_info.agent_burnin_cpu_timeout, '60');
      assert.equal(asked.driver_info.deploy_kernel, 'http://example.invalid/k');
      assert.equal(asked.driver_info.ipmi_password, '******');
      assert.deepEqual(asked.target_raid_config, raid);
      assert.deepEqual(asked.properties.root_device, { name: '/dev/vda' });
      assert.equal(asked.instance_info.image_source, `file://${image}`);
      assert.equal(asked.instance_info.configdrive, '******', 'masked outside execute_deploy_step');
      assert.equal(asked.driver_internal_info.agent_secret_token, '******');
      assert.ok(asked.driver_internal_info.agent_url, 'the rest of driver_internal_info is there');
      assert.deepEqual(asked.traits.objects.map((t: { trait: string }) => t.trait), ['CUSTOM_DICT']);
      assert.equal(typeof asked.traits.objects[0].node_id, 'string');
      assert.match(asked.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/, 'jsonutils datetime format');
      for (const field of ['clean_step', 'deploy_step', 'raid_config', 'extra', 'owner', 'lessee', 'conductor_group',
        'boot_mode', 'network_data', 'disable_power_off']) assert.ok(Object.hasOwn(asked, field), field);

      // write_image gets the configdrive itself (as_dict(mask_configdrive=False)).
      const written = sentNode(agent, 'execute_deploy_step');
      assert.equal(written.instance_info.configdrive, 'H4sIAAAAAAAA/wMAAAAAAAAAAAA=');
      assert.equal(written.driver_info.ipmi_password, '******');
      assert.equal(written.driver_internal_info.agent_secret_token, '******');
      assert.ok(!JSON.stringify(agent.runner.commands).includes('Hunter2-ipmi'), 'the BMC password never reaches the agent');
    } finally {
      await agent.stop();
    }
  });
});
