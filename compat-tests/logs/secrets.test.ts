/**
 * Secrets never reach the log: a full direct deploy through the agent emulator, at debug level,
 * with the notification log driver writing every payload, an image URL with credentials, BMC
 * passwords in driver_info, an image pull secret in instance_info, a configdrive holding an admin
 * password, and the agent token the ramdisk is handed; then undeploy. The whole log is searched
 * for each secret. Lines about the request and the node carry the request id and the node uuid.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { openDatabase } from '../../src/db/connection';
import { startAgentEmulator } from '../../src/emulators/agent/server';
import { buildExt4Image, sha256File, startStaticServer, type StaticServer } from '../../test/drivers/deploy/agent-support';
import { freePort, startIronicTs, type Target } from '../support/target';
import { api, provision, waitProvision } from '../support/ironic-http';

const SECRETS = {
  ipmi: 'ipmi-S3cret-pw', redfish: 'rf-S3cret-pw', image: 'img-S3cret-pw', pull: 'pull-S3cret-token',
  adminPass: 'cd-S3cret-admin', userData: 'cd-S3cret-userdata',
};

let target: Target;
let images: StaticServer;
let httpRoot: StaticServer;
let dir: string;

before(async () => {
  dir = await fsp.mkdtemp('/tmp/log-secrets-');
  await fsp.mkdir(path.join(dir, 'images-src'));
  await fsp.mkdir(path.join(dir, 'httpboot'));
  images = await startStaticServer(path.join(dir, 'images-src'));
  httpRoot = await startStaticServer(path.join(dir, 'httpboot'));
  await fsp.mkdir(path.join(dir, 'ironic'));
  target = await startIronicTs(path.join(dir, 'ironic'), await freePort(), [
    'debug = true', 'notification_level = debug',
    'enabled_deploy_interfaces = fake,direct', 'enabled_management_interfaces = fake,noop',
    '[oslo_messaging_notifications]', 'driver = log',
    '[deploy]', `http_root = ${dir}/httpboot`, `http_url = ${httpRoot.url}`,
    '[pxe]', `images_path = ${dir}/images`, `instance_master_path = ${dir}/master`,
    '[agent]', 'post_deploy_get_power_state_retries = 0',
  ].join('\n'));
});

after(async () => {
  await target?.stop();
  await images?.stop();
  await httpRoot?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** The agent token as the conductor stores it, once the ramdisk has looked it up. */
async function agentToken(uuid: string): Promise<string> {
  const db = await openDatabase(`sqlite:///${path.join(target.dir, 'ironic.sqlite')}`);
  try {
    for (let i = 0; i < 600; i++) {
      const row = await db.knex('nodes').select('driver_internal_info').where({ uuid }).first() as { driver_internal_info: string | null };
      const token = (JSON.parse(row.driver_internal_info ?? '{}') as { agent_secret_token?: string }).agent_secret_token;
      if (token && token !== '******') return token;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await db.close();
  }
  return assert.fail('the agent never got a token');
}

test('a full deploy and undeploy log neither passwords, image credentials, configdrive nor the agent token', async () => {
  const image = await buildExt4Image(path.join(dir, 'images-src'));
  const imageUrl = `http://imguser:${SECRETS.image}@${new URL(images.url).host}/${path.basename(image)}`;
  const mac = '52:54:00:5e:c0:01';
  const created = await api(target.url, 'POST', '/v1/nodes', {
    driver: 'fake-hardware', name: 'log-secrets', deploy_interface: 'direct', management_interface: 'noop',
    driver_info: { ipmi_password: SECRETS.ipmi, redfish_address: `https://admin:${SECRETS.redfish}@bmc.example` },
    instance_info: {
      image_source: imageUrl, image_os_hash_algo: 'sha256', image_os_hash_value: await sha256File(image),
      image_pull_secret: SECRETS.pull,
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const uuid = created.json.uuid as string;
  assert.equal((await api(target.url, 'POST', '/v1/ports', { node_uuid: uuid, address: mac })).status, 201);
  await provision(target.url, uuid, 'manage', 'manageable');
  await provision(target.url, uuid, 'provide', 'available');
  const disk = path.join(dir, 'node.disk');
  const agent = await startAgentEmulator({
    ironicUrl: target.url, macs: [mac], heartbeatIntervalMs: 250, disks: { root: disk, configdrive: `${disk}.cd` },
  });
  let token: string;
  try {
    const deploy = await api(target.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, {
      target: 'active',
      configdrive: { meta_data: { hostname: 'secret-host', admin_pass: SECRETS.adminPass }, user_data: `#!/bin/sh\necho ${SECRETS.userData}\n` },
    });
    assert.equal(deploy.status, 202, JSON.stringify(deploy.json));
    token = await agentToken(uuid);
    await waitProvision(target.url, uuid, 'active', 120000);
  } finally {
    await agent.stop();
  }
  await provision(target.url, uuid, 'deleted', 'available');

  const log = fs.readFileSync(path.join(target.dir, 'stdout.log'), 'utf8');
  assert.ok(log.length > 10000, 'the debug log is substantial');
  assert.match(log, /baremetal\.node\.provision_set\.end/, 'notification payloads were logged');
  for (const [what, secret] of Object.entries({ ...SECRETS, token })) {
    const lines = log.split('\n').flatMap((line, n) => (line.includes(secret) ? [n + 1] : []));
    assert.deepEqual(lines, [], `${what} (${secret.slice(0, 4)}…) appears in the log on lines ${lines.join(', ')}`);
  }
  // Lines about the node name it; a line written while serving a request names its request id.
  const aboutNode = log.split('\n').filter((line) => line.includes(`moved to provision state`));
  assert.ok(aboutNode.length >= 4);
  for (const line of aboutNode) assert.match(line, new RegExp(`ironic-ts \\[(req-[0-9a-f-]{36}|-) ${uuid}\\] `), line);
  assert.ok(aboutNode.some((line) => /\[req-[0-9a-f-]{36} /.test(line)), 'no provision line carries a request id');
});
