/**
 * Direct deploys from a real Glance (Debian's glance-api, see compat-tests/support/glance.ts):
 * image_source given as a Glance image id (and glance://id), the image read from
 * `GET /v2/images/{id}` and downloaded once from `GET /v2/images/{id}/file` into the
 * conductor's cache, verified against Glance's os_hash_value and written by the agent
 * emulator, or handed to the agent as a Swift temporary URL (stub Swift); Glance's refusals
 * become Ironic's ImageNotFound / ImageUnacceptable; a partition
 * image with kernel_id/ramdisk_id and Glance-hosted deploy kernel/ramdisk boots over PXE.
 * A counting HTTP proxy sits between ironic-ts and Glance ([glance]endpoint_override).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startAgentEmulator } from '../../src/emulators/agent/server';
import {
  availableNode, buildExt4Image, emulatorFor, ext4Uuid, sha256File, startDirectLab, V, waitForState, type DirectLab,
} from '../../test/drivers/deploy/agent-support';
import { createNode, makeAvailable, provision, startBootEnv, waitForState as waitForBootState, type BootEnv } from '../../test/drivers/boot/support';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy';
import { startRealGlance, type RealGlance } from '../support/glance';

let glance: RealGlance;
let proxy: CountingProxy;

before(async () => {
  glance = await startRealGlance();
  proxy = await startCountingProxy(glance.url);
});
after(async () => {
  await proxy?.stop();
  await glance?.stop();
});

describe('direct deploy of Glance images', () => {
  let dir: string;
  let lab: DirectLab;
  let image: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'glance-direct-'));
    image = await buildExt4Image(dir);
    lab = await startDirectLab(dir, { glance: { endpoint_override: proxy.url } });
  });
  after(async () => {
    await lab?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('deploys an image given by its Glance id, and by glance://id, downloading it once', async () => {
    const data = await fsp.readFile(image);
    const created = await glance.createImage({ name: 'whole-disk', data });
    const id = String(created.id);
    assert.equal(created.status, 'active');
    assert.equal(created.os_hash_algo, 'sha512');
    const sha = await sha256File(image);

    const deployed: string[] = [];
    for (const [i, source] of [id, `glance://${id}`].entries()) {
      const mac = `52:54:00:9a:00:0${i}`;
      const name = `glance-wd-${i}`;
      // No checksum in instance_info: Glance's record carries it.
      const uuid = await availableNode(lab.s, name, mac, { image_source: source });
      const agent = await emulatorFor(lab, mac, name);
      try {
        const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
        assert.equal(r.status, 202, r.text);
        const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
        assert.equal(node.provision_state, 'active', node.last_error);
        assert.equal(await sha256File(path.join(dir, `${name}.disk`)), sha, 'the agent wrote the Glance image');
        const ii = node.instance_info;
        assert.equal(ii.image_source, source);
        assert.equal(ii.image_checksum, created.checksum);
        assert.equal(ii.image_os_hash_algo, 'sha512');
        assert.equal(ii.image_os_hash_value, created.os_hash_value);
        assert.equal(ii.image_container_format, 'bare');
        assert.equal(ii.image_disk_format, 'raw');
        assert.deepEqual(ii.image_tags, []);
        assert.equal(ii.image_properties.os_hidden, false);
        assert.equal(ii.image_type, 'whole-disk');
        assert.equal(node.driver_internal_info.image_download_progress, undefined, 'progress cleared once cached');
        deployed.push(uuid);
      } finally {
        await agent.stop();
      }
    }
    assert.equal(proxy.hits.get(`/v2/images/${id}/file`), 1, 'one download from Glance for both deploys');
    assert.ok((proxy.hits.get(`/v2/images/${id}`) ?? 0) >= 2, 'the image record is read for each deploy');
    const masters = (await fsp.readdir(lab.masterDir)).filter((f) => !f.startsWith('.'));
    assert.equal(masters.length, 1);
  });

  it('reads the image straight from Glance\'s file store with allowed_direct_url_schemes = file', async () => {
    const created = await glance.createImage({ name: 'direct-url', data: await fsp.readFile(image) });
    const id = String(created.id);
    assert.match(String(created.direct_url), /^file:\/\//);
    lab.s.conf.set('glance', 'allowed_direct_url_schemes', ['file']);
    const mac = '52:54:00:9a:00:08';
    const uuid = await availableNode(lab.s, 'glance-file', mac, { image_source: id, image_download_source: 'local' });
    const agent = await emulatorFor(lab, mac, 'glance-file');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(await sha256File(path.join(dir, 'glance-file.disk')), await sha256File(image));
      assert.equal(proxy.hits.get(`/v2/images/${id}/file`), undefined, 'not downloaded over HTTP');
    } finally {
      lab.s.conf.set('glance', 'allowed_direct_url_schemes', []);
      await agent.stop();
    }
  });

  it('hands the agent a Swift temporary URL with image_download_source=swift (stub Swift)', async () => {
    const data = await fsp.readFile(image);
    const created = await glance.createImage({ name: 'in-swift', data });
    const id = String(created.id);
    // A stand-in for Swift's object server with the tempurl middleware: it serves the object
    // and records the URLs; their signatures are checked with python3-swiftclient below.
    const requests: Array<{ method: string; url: string }> = [];
    const swift = createServer((req, res) => {
      requests.push({ method: req.method ?? '', url: req.url ?? '' });
      const ok = new URL(req.url ?? '/', 'http://x').pathname === `/v1/AUTH_images/glance/${id}`;
      if (!ok) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Length': data.length });
      res.end(req.method === 'HEAD' ? undefined : data);
    });
    await new Promise<void>((resolve) => swift.listen(0, '127.0.0.1', resolve));
    const swiftUrl = `http://127.0.0.1:${(swift.address() as AddressInfo).port}`;
    lab.s.conf.set('glance', 'swift_endpoint_url', swiftUrl);
    lab.s.conf.set('glance', 'swift_account', 'AUTH_images');
    lab.s.conf.set('glance', 'swift_temp_url_key', 'temp-url-secret');
    const mac = '52:54:00:9a:00:09';
    const uuid = await availableNode(lab.s, 'glance-swift', mac, { image_source: id, image_download_source: 'swift' });
    const agent = await emulatorFor(lab, mac, 'glance-swift');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(await sha256File(path.join(dir, 'glance-swift.disk')), await sha256File(image));
      assert.deepEqual(requests.map((q) => q.method), ['HEAD', 'GET'], 'checked by the conductor, fetched by the agent');
      assert.equal(requests[0]!.url, requests[1]!.url);
      const expires = Number(new URL(requests[1]!.url, swiftUrl).searchParams.get('temp_url_expires'));
      // Signed as Ironic 29.0.5 signs it (openstacksdk's generate_temp_url: HMAC-SHA1).
      const expected = execFileSync('/usr/bin/python3', ['-c',
        'import sys; from swiftclient.utils import generate_temp_url as g; ' +
        "print(g(sys.argv[1], int(sys.argv[2]), sys.argv[3], 'GET', absolute=True, digest='sha1'))",
        `/v1/AUTH_images/glance/${id}`, String(expires), 'temp-url-secret'], { env: { PATH: '/usr/bin:/bin', HOME: dir } }).toString().trim();
      assert.equal(requests[1]!.url, expected);
      assert.equal(proxy.hits.get(`/v2/images/${id}/file`), undefined, 'the conductor did not download it');
    } finally {
      await agent.stop();
      swift.closeAllConnections();
      await new Promise<void>((resolve) => swift.close(() => resolve()));
    }
  });

  async function failedDeploy(name: string, mac: string, source: string): Promise<Record<string, any>> {
    const uuid = await availableNode(lab.s, name, mac, { image_source: source });
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
    assert.equal(r.status, 202, r.text);
    return waitForState(lab.s, uuid, ['active', 'deploy failed']);
  }

  it('fails with ImageNotFound for an unknown id and for another project\'s private image', async () => {
    const missing = '0b9d5c1e-8f3a-4c6e-9d2b-7a1f0e3c5d4b';
    const node = await failedDeploy('glance-missing', '52:54:00:9a:01:01', missing);
    assert.equal(node.provision_state, 'deploy failed');
    assert.equal(node.last_error, `Failed to prepare to deploy: Image ${missing} could not be found.`);

    const priv = await glance.createImage({ name: 'private', data: Buffer.alloc(4096, 1), visibility: 'private', project: 'someone-else' });
    const hidden = await failedDeploy('glance-private', '52:54:00:9a:01:02', String(priv.id));
    assert.equal(hidden.provision_state, 'deploy failed');
    assert.equal(hidden.last_error, `Failed to prepare to deploy: Image ${String(priv.id)} could not be found.`);
  });

  it('fails with ImageUnacceptable for an image that is not active', async () => {
    const queued = await glance.createImage({ name: 'queued' });
    assert.equal(queued.status, 'queued');
    const node = await failedDeploy('glance-queued', '52:54:00:9a:01:03', String(queued.id));
    assert.equal(node.provision_state, 'deploy failed');
    assert.equal(node.last_error,
      `Failed to prepare to deploy: Image ${String(queued.id)} is unacceptable: The image is required to be in an active state.`);
  });
});

describe('partition image and deploy ramdisk from Glance, booted over PXE', () => {
  let env: BootEnv;

  before(async () => {
    env = await startBootEnv({
      DEFAULT: { enabled_deploy_interfaces: 'fake,direct', enabled_management_interfaces: 'fake,noop' },
    });
    // startBootEnv takes no [glance] group; the running server reads its live configuration.
    env.server.conf.set('glance', 'endpoint_override', proxy.url);
    env.server.conf.set('pxe', 'images_path', path.join(env.dir, 'images'));
    env.server.conf.set('pxe', 'instance_master_path', path.join(env.dir, 'master'));
  });
  after(async () => {
    await env?.stop();
  });

  it('caches kernel_id/ramdisk_id and the deploy kernel/ramdisk from Glance and switches to boot_partition', async () => {
    const upload = async (name: string, file: string, props: Record<string, string> = {}) =>
      String((await glance.createImage({ name, data: await fsp.readFile(file), properties: props })).id);
    const deployKernel = await upload('ipa.kernel', env.images.deployKernel);
    const deployRamdisk = await upload('ipa.initramfs', env.images.deployRamdisk);
    const kernel = await upload('vmlinuz', env.images.kernel);
    const ramdisk = await upload('initrd', env.images.ramdisk);
    const partition = await buildExt4Image(env.dir, 'partition.img');
    const imageId = await upload('partition', partition, { kernel_id: kernel, ramdisk_id: ramdisk });

    const mac = '52:54:00:9a:02:01';
    const uuid = await createNode(env, {
      boot_interface: 'pxe', deploy_interface: 'direct', management_interface: 'noop',
      driver_info: { deploy_kernel: deployKernel, deploy_ramdisk: deployRamdisk, deploy_forces_oob_reboot: true },
      instance_info: { image_source: imageId },
      properties: { capabilities: 'boot_mode:bios' },
    }, [mac]);
    await makeAvailable(env, uuid);
    const disk = path.join(env.dir, 'glance-pxe.disk');
    const agent = await startAgentEmulator({
      ironicUrl: env.server.url, macs: [mac], heartbeatIntervalMs: 250, disks: { root: disk, configdrive: `${disk}.cd` },
    });
    try {
      await provision(env, uuid, 'active');
      const active = await waitForBootState(env, uuid, 'active');
      assert.equal(active.last_error, null);
      assert.equal(active.instance_info.image_type, 'partition');
      assert.equal(active.instance_info.kernel, kernel);
      assert.equal(active.instance_info.ramdisk, ramdisk);
      assert.equal(active.driver_internal_info.is_whole_disk_image, false);
      const rootUuid = await ext4Uuid(disk);
      const config = await fsp.readFile(path.join(env.tftpRoot, uuid, 'config'), 'utf8');
      assert.match(config, /^default boot_partition$/m);
      assert.match(config, new RegExp(`^append initrd=${uuid}/ramdisk root=UUID=${rootUuid} ro`, 'm'));
      for (const [label, file] of [['kernel', env.images.kernel], ['ramdisk', env.images.ramdisk]] as const) {
        assert.deepEqual(await fsp.readFile(path.join(env.tftpRoot, uuid, label)), await fsp.readFile(file), `${label} from Glance`);
      }
      for (const id of [deployKernel, deployRamdisk, kernel, ramdisk, imageId]) {
        assert.equal(proxy.hits.get(`/v2/images/${id}/file`), 1, `${id} downloaded once`);
      }
    } finally {
      await agent.stop();
    }
  });
});
