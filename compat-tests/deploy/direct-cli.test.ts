/**
 * End to end with Debian's `baremetal` CLI: a fake-hardware node with the direct deploy is
 * deployed (with a configdrive dict) through an IPA emulator and undeployed, all with `--wait`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { startAgentEmulator } from '../../src/emulators/agent/server';
import { buildExt4Image, run, sha256File, startStaticServer, type StaticServer } from '../../test/drivers/deploy/agent-support';
import { baremetal, parseJson } from '../support/python';
import { freePort, startIronicTs, type Target } from '../support/target';

let target: Target;
let httpRoot: StaticServer;
let dir: string;

before(async () => {
  dir = await fsp.mkdtemp('/tmp/direct-cli-');
  const httpRootDir = path.join(dir, 'httpboot');
  await fsp.mkdir(httpRootDir);
  httpRoot = await startStaticServer(httpRootDir);
  await fsp.mkdir(path.join(dir, 'ironic'));
  target = await startIronicTs(path.join(dir, 'ironic'), await freePort(), [
    'enabled_deploy_interfaces = fake,direct',
    'enabled_management_interfaces = fake,noop',
    '[deploy]', `http_root = ${httpRootDir}`, `http_url = ${httpRoot.url}`,
    '[pxe]', `images_path = ${dir}/images`, `instance_master_path = ${dir}/master`,
    '[agent]', 'post_deploy_get_power_state_retries = 0',
  ].join('\n'));
});
after(async () => {
  await target?.stop();
  await httpRoot?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

test('baremetal node deploy --wait with the direct deploy and an agent', async () => {
  const image = await buildExt4Image(dir);
  const mac = '52:54:00:dd:00:01';
  const created = parseJson<{ uuid: string }>(await baremetal(target.url, ['node', 'create', '--driver', 'fake-hardware',
    '--name', 'cli-direct', '--deploy-interface', 'direct', '--management-interface', 'noop', '-f', 'json'], '1.82'));
  const uuid = created.uuid;
  const set = await baremetal(target.url, ['node', 'set', uuid, '--instance-info', `image_source=file://${image}`,
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${await sha256File(image)}`], '1.82');
  assert.equal(set.code, 0, set.stderr);
  assert.equal((await baremetal(target.url, ['port', 'create', mac, '--node', uuid], '1.82')).code, 0);
  for (const verb of ['manage', 'provide']) {
    const r = await baremetal(target.url, ['node', verb, uuid, '--wait', '60'], '1.82');
    assert.equal(r.code, 0, r.stderr);
  }
  const disk = path.join(dir, 'cli.disk');
  const agent = await startAgentEmulator({
    ironicUrl: target.url, macs: [mac], heartbeatIntervalMs: 250, disks: { root: disk, configdrive: `${disk}.cd` },
  });
  try {
    const deployed = await baremetal(target.url, ['node', 'deploy', uuid, '--config-drive',
      JSON.stringify({ meta_data: { hostname: 'cli-direct.example' } }), '--wait', '120'], '1.82');
    assert.equal(deployed.code, 0, deployed.stderr);
    const node = parseJson<Record<string, any>>(await baremetal(target.url, ['node', 'show', uuid, '-f', 'json'], '1.82'));
    assert.equal(node.provision_state, 'active');
    assert.equal(node.instance_info.configdrive, '******');
    assert.equal(await sha256File(disk), await sha256File(image));
    const out = path.join(dir, 'meta.json');
    await run('xorriso', ['-osirrox', 'on', '-indev', `${disk}.cd`, '-extract', '/openstack/latest/meta_data.json', out]);
    const meta = JSON.parse(await fsp.readFile(out, 'utf8'));
    assert.equal(meta.uuid, uuid);
    assert.equal(meta.hostname, 'cli-direct.example');
  } finally {
    await agent.stop();
  }
  const undeployed = await baremetal(target.url, ['node', 'undeploy', uuid, '--wait', '60'], '1.82');
  assert.equal(undeployed.code, 0, undeployed.stderr);
  const after = parseJson<Record<string, any>>(await baremetal(target.url, ['node', 'show', uuid, '-f', 'json'], '1.82'));
  assert.equal(after.provision_state, 'available');
  assert.equal(after.power_state, 'power off');
});
