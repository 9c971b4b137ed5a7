/**
 * Glance behind Keystone, both real (Debian's python3-keystone and python3-glance): ironic-ts
 * authenticates with its [glance] password options, finds the `image` endpoint in the token's
 * service catalog (no endpoint_override), and reads and downloads a private image of its
 * project with the token, which Glance validates through keystonemiddleware. The catalog and
 * auth failures map to Ironic's CatalogNotFound / KeystoneUnauthorized / ConfigInvalid, and a
 * user of another project gets ImageNotFound from Glance.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../src/conf/config';
import { GlanceImageService } from '../../src/images/glance/client';
import {
  availableNode, buildExt4Image, emulatorFor, sha256File, startDirectLab, V, waitForState, type DirectLab,
} from '../../test/drivers/deploy/agent-support';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy';
import { startRealGlance, type RealGlance } from '../support/glance';
import { startKeystone, type Keystone, type KeystoneUser } from '../support/keystone';

let ks: Keystone;
let glance: RealGlance;
let proxy: CountingProxy;
let ironicUser: KeystoneUser;
let stranger: KeystoneUser;
let uploader: KeystoneUser;

before(async () => {
  ks = await startKeystone();
  // Keystone writes first, Glance (whose URL the catalog holds through the proxy) after.
  proxy = await startCountingProxy('http://127.0.0.1:9');
  await ks.registerService('image', 'glance', proxy.url);
  ironicUser = await ks.createUser('ironic', { project: 'service', projectRoles: ['member', 'reader'] });
  stranger = await ks.createUser('stranger', { project: 'elsewhere', projectRoles: ['member', 'reader'] });
  uploader = await ks.createUser('uploader', { project: 'service', projectRoles: ['member', 'reader'] });
  const glanceUser = await ks.createUser('glance', { project: 'service', projectRoles: ['admin'] });
  glance = await startRealGlance({ url: ks.url, username: glanceUser.name, password: glanceUser.password, project: 'service' });
  proxy.retarget(glance.url);
});
after(async () => {
  await proxy?.stop();
  await glance?.stop();
  await ks?.stop();
});

function glanceAuth(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    auth_type: 'password', auth_url: ks.url, username: ironicUser.name, password: ironicUser.password,
    project_name: 'service', user_domain_id: 'default', project_domain_id: 'default', ...overrides,
  };
}

async function privateImage(data: Buffer): Promise<Record<string, unknown>> {
  const token = await ks.token({ user: uploader.name, password: uploader.password, project: 'service' });
  return glance.createImage({ name: 'private', data, visibility: 'private', token });
}

describe('Glance through the Keystone catalog', () => {
  let dir: string;
  let lab: DirectLab;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'glance-keystone-'));
    lab = await startDirectLab(dir, { glance: glanceAuth() as Record<string, string> });
  });
  after(async () => {
    await lab?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('deploys a private image of its project, found through the catalog and read with its token', async () => {
    const image = await buildExt4Image(dir);
    const created = await privateImage(await fsp.readFile(image));
    const id = String(created.id);
    const anonymous = await fetch(`${glance.url}/v2/images/${id}`);
    assert.equal(anonymous.status, 401, 'Glance really requires a token');

    const mac = '52:54:00:9b:00:01';
    const uuid = await availableNode(lab.s, 'ks-glance', mac, { image_source: id });
    const agent = await emulatorFor(lab, mac, 'ks-glance');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(await sha256File(path.join(dir, 'ks-glance.disk')), await sha256File(image));
      assert.equal(node.instance_info.image_os_hash_value, created.os_hash_value);
    } finally {
      await agent.stop();
    }
    assert.equal(proxy.hits.get(`/v2/images/${id}/file`), 1);
    assert.ok(proxy.authenticated.has(`/v2/images/${id}`) && proxy.authenticated.has(`/v2/images/${id}/file`), 'both with a token');
  });
});

describe('GlanceImageService against the real Keystone', () => {
  const service = (group: Record<string, string | string[]>) => new GlanceImageService(new Config([], { glance: group }));

  it('takes the image endpoint from the catalog, with auth_url given with or without /v3', async () => {
    assert.equal(await service(glanceAuth()).endpoint(), proxy.url);
    assert.equal(await service(glanceAuth({ auth_url: `${ks.url}/v3` })).endpoint(), proxy.url);
    assert.equal(await service(glanceAuth({ valid_interfaces: ['public'], region_name: 'RegionOne' })).endpoint(), proxy.url);
  });

  it('raises CatalogNotFound for an interface or region the catalog lacks', async () => {
    await assert.rejects(service(glanceAuth({ valid_interfaces: ['internal'] })).endpoint(), {
      name: 'CatalogNotFound', message: 'Service type image with endpoint type internal not found in keystone service catalog.',
    });
    await assert.rejects(service(glanceAuth({ region_name: 'Elsewhere' })).endpoint(), { name: 'CatalogNotFound' });
  });

  it('raises KeystoneUnauthorized for a wrong password and ConfigInvalid for missing options', async () => {
    await assert.rejects(service(glanceAuth({ password: 'wrong' })).endpoint(), { name: 'KeystoneUnauthorized', message: 'Not authorized in Keystone.' });
    assert.throws(() => service({ auth_type: 'password', auth_url: ks.url }), { name: 'ConfigInvalid' });
  });

  it('shows a private image to its project\'s service user and ImageNotFound to another project', async () => {
    const created = await privateImage(Buffer.alloc(1024, 7));
    const shown = await service(glanceAuth()).show(String(created.id));
    assert.equal(shown.visibility, 'private');
    assert.equal(shown.os_hash_value, created.os_hash_value);
    await assert.rejects(service(glanceAuth({ username: stranger.name, password: stranger.password, project_name: 'elsewhere' }))
      .show(String(created.id)), { name: 'ImageNotFound', message: `Image ${String(created.id)} could not be found.` });
    // A project the user has no role on: Keystone refuses the scoped token.
    await assert.rejects(service(glanceAuth({ project_name: 'elsewhere' })).endpoint(), { name: 'KeystoneUnauthorized' });
  });
});
