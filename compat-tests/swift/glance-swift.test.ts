/**
 * [agent]image_download_source = swift against a real Glance whose store is a real Swift, both
 * behind a real Keystone (Debian's python3-glance with glance_store's swift driver,
 * python3-swift, python3-keystone): Glance writes the image into its project's account, and
 * ironic-ts, reading the image through [glance] and the account through [swift] (catalog
 * endpoint, AUTH_<project id>, the account's temp URL key), hands the agent a temporary URL of
 * that object; the agent (our emulator) downloads the image from Swift itself, without a token.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  availableNode, buildExt4Image, emulatorFor, sha256File, startDirectLab, V, waitForState, type DirectLab,
} from '../../test/drivers/deploy/agent-support';
import { startRealGlance, type RealGlance } from '../support/glance';
import { serviceProjectAuth, type Keystone, type KeystoneUser } from '../support/keystone';
import { startKeystoneAndSwift, type RealSwift } from '../support/swift';

let ks: Keystone;
let swift: RealSwift;
let glance: RealGlance;
let ironicUser: KeystoneUser;
let projectId: string;
let dir: string;
let lab: DirectLab;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'glance-swift-'));
  ({ ks, swift } = await startKeystoneAndSwift());
  projectId = await ks.createProject('service');
  ironicUser = await ks.createUser('ironic', { project: 'service', projectRoles: ['member', 'reader'] });
  const glanceUser = await ks.createUser('glance', { project: 'service', projectRoles: ['admin'] });
  glance = await startRealGlance({ url: ks.url, username: glanceUser.name, password: glanceUser.password, project: 'service' },
    { store: 'swift' });
  const token = await ks.token({ user: ironicUser.name, password: ironicUser.password, project: 'service' });
  // The operator's pre-generated account key: Ironic reads it, never sets it.
  const key = await fetch(swift.accountUrl(projectId), { method: 'POST', headers: { 'X-Auth-Token': token, 'X-Account-Meta-Temp-Url-Key': 'image-key' } });
  assert.equal(key.status, 204);
  lab = await startDirectLab(dir, {
    glance: { ...serviceProjectAuth(ks, ironicUser), endpoint_override: glance.url },
    swift: serviceProjectAuth(ks, ironicUser),
    agent: { image_download_source: 'swift' },
  });
});
after(async () => {
  await lab?.stop();
  await glance?.stop();
  await swift?.stop();
  await ks?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('Glance images in Swift, downloaded by the agent from a temporary URL', () => {
  it('deploys a Glance image stored in Swift from the temporary URL of its object', async () => {
    const image = await buildExt4Image(dir);
    const data = await fsp.readFile(image);
    const token = await ks.token({ user: ironicUser.name, password: ironicUser.password, project: 'service' });
    const created = await glance.createImage({ name: 'in-swift', data, visibility: 'private', token });
    const id = String(created.id);
    assert.equal(created.status, 'active');
    const objectUrl = `${swift.accountUrl(projectId)}/glance/${id}`;
    const stored = await fetch(objectUrl, { headers: { 'X-Auth-Token': token } });
    assert.equal(stored.status, 200, 'Glance wrote the image into the project\'s Swift account');
    assert.equal(createHash('sha256').update(Buffer.from(await stored.arrayBuffer())).digest('hex'), await sha256File(image));

    const mac = '52:54:00:5f:01:01';
    const uuid = await availableNode(lab.s, 'img-swift', mac, { image_source: id });
    const agent = await emulatorFor(lab, mac, 'img-swift');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(await sha256File(path.join(dir, 'img-swift.disk')), await sha256File(image));

      const step = agent.runner.history.find((c) => c.command_name === 'execute_deploy_step');
      const info = (step?.command_params.step as { args: { image_info: { urls: string[] } } } | undefined)?.args.image_info;
      assert.ok(info, 'write_image ran on the agent');
      const url = info.urls[0];
      assert.equal(url.split('?')[0], objectUrl, 'the agent was sent to Swift, not to the conductor or Glance');
      assert.match(new URL(url).search, /^\?temp_url_sig=[0-9a-f]{40}&temp_url_expires=\d+$/);
      const byTempUrl = await fetch(url);
      assert.equal(byTempUrl.status, 200, 'the temporary URL works without a token');
      assert.deepEqual(Buffer.from(await byTempUrl.arrayBuffer()), data);
      assert.equal((await fetch(objectUrl)).status, 401, 'the object itself needs a token');
      const masters = (await fsp.readdir(lab.masterDir).catch(() => [])).filter((f) => !f.startsWith('.'));
      assert.deepEqual(masters, [], 'the conductor downloaded nothing');
    } finally {
      await agent.stop();
    }
  });
});
