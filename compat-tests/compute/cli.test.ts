/**
 * The built `ironic-compute` CLI on fake-hardware: the whole lifecycle (cli-lifecycle.ts), then the
 * failures Nova's compat test provokes, reported as Nova's driver reports them: a deploy Ironic
 * refuses at validation (ValidationError, node released) and one that fails in the conductor
 * (InstanceDeployFailure with last_error; delete recovers the node).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, startIronicTs, Target } from '../support/target';
import { IronicClient } from '../../src/compute/client';
import { availableNode, cli, computeCliLifecycle } from './cli-lifecycle';

const FAKE_CONF = `enabled_network_interfaces = noop,flat
enabled_rescue_interfaces = fake,no-rescue`;
const FAKE_NODE = { driver: 'fake-hardware', console_interface: 'fake', rescue_interface: 'fake', boot_interface: 'fake' };

computeCliLifecycle({ label: 'fake-hardware', extraConf: FAKE_CONF, nodeBody: () => FAKE_NODE, rescue: true, console: true });

describe('ironic-compute CLI: failed deployments and bad input on fake-hardware', { timeout: 300000 }, () => {
  let target: Target;
  let client: IronicClient;
  let node: string;

  before(async () => {
    target = await startIronicTs(fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compute-fail-')), await freePort(), FAKE_CONF);
    client = new IronicClient({ url: target.url });
    node = (await availableNode(client, { name: 'fail-node', ...FAKE_NODE })).uuid;
    // Nova's compat test's two operator mistakes: a template overriding the core deploy step
    // (refused at validation), and one disabling it (accepted, then no deploy steps to run).
    await client.request('POST', '/v1/deploy_templates', { name: 'CUSTOM_BROKEN_TEMPLATE', steps: [{ interface: 'deploy', step: 'deploy', args: {}, priority: 50 }] });
    await client.request('POST', '/v1/deploy_templates', { name: 'CUSTOM_NO_DEPLOY_STEP', steps: [{ interface: 'deploy', step: 'deploy', args: {}, priority: 0 }] });
    await client.request('PUT', `/v1/nodes/${node}/traits`, { traits: ['CUSTOM_BROKEN_TEMPLATE', 'CUSTOM_NO_DEPLOY_STEP'] });
  });
  after(async () => target?.stop());

  it('a deploy Ironic refuses at validation: ValidationError with the reasons, the node released', async () => {
    const r = await cli(target.url, 'boot', '--node', node, '--image', 'http://127.0.0.1:1/img', '--trait', 'CUSTOM_BROKEN_TEMPLATE');
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^error: ValidationError: Ironic node: ${node} failed to validate\\. \\(deploy: \\{'result': False, 'reason': `, 'm'));
    assert.ok(r.stderr.includes('Matching deploy templates: CUSTOM_BROKEN_TEMPLATE.'), r.stderr);
    assert.match(r.stderr, /power: \{'result': True\}, storage: \{'result': True\}\)$/m);
    const n = await client.getNode(node);
    assert.equal(n.provision_state, 'available');
    assert.equal(n.instance_uuid, null);
    assert.deepEqual(n.instance_info, {});
    assert.equal(n.last_error, null);
  });

  it('a deploy that fails in the conductor: InstanceDeployFailure with last_error; delete recovers the node', async () => {
    const r = await cli(target.url, 'boot', '--node', node, '--image', 'http://127.0.0.1:1/img', '--trait', 'CUSTOM_NO_DEPLOY_STEP',
      '--instance-uuid', 'bbbbbbbb-0000-4000-8000-000000000001');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: InstanceDeployFailure: Failed to provision instance bbbbbbbb-0000-4000-8000-000000000001: No deploy steps returned by the driver$/m);
    const failed = await client.getNode(node);
    assert.equal(failed.provision_state, 'deploy failed');
    assert.equal(failed.last_error, 'No deploy steps returned by the driver');
    assert.equal(failed.instance_uuid, 'bbbbbbbb-0000-4000-8000-000000000001');
    assert.deepEqual(failed.instance_info.traits, ['CUSTOM_NO_DEPLOY_STEP']);
    const shown = await cli(target.url, 'show', '--node', node);
    assert.match(shown.stdout, /^last_error: No deploy steps returned by the driver$/m);
    const d = await cli(target.url, 'delete', '--node', node);
    assert.equal(d.code, 0, d.stderr);
    const n = await client.getNode(node);
    assert.equal(n.provision_state, 'available');
    assert.equal(n.instance_uuid, null);
    assert.deepEqual(n.instance_info, {});
    assert.equal(n.last_error, null);
  });

  it('rejects bad command lines with the usage', async () => {
    const none = await cli(target.url);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^error: a command is required$/m);
    assert.match(none.stderr, /^ {2}rescue \(--instance UUID \| --node N\) \[--password P\]$/m);
    const unknown = await cli(target.url, 'migrate');
    assert.match(unknown.stderr, /^error: unknown command: migrate$/m);
    const noVif = await cli(target.url, 'attach-interface', '--node', node);
    assert.match(noVif.stderr, /^error: --vif is required$/m);
    const badNet = await cli(target.url, 'boot', '--node', node, '--image', 'x', '--network', 'ip=192.0.2.1/24');
    assert.match(badNet.stderr, /^error: --network needs vif=ID/m);
    assert.equal((await client.getNode(node)).instance_uuid, null, 'nothing was reserved');
  });
});
