import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha512Crypt } from '../../../src/common/sha-crypt';
import {
  availableNode, buildExt4Image, debugfsCat, DirectLab, emulatorFor, ext4Uuid, nodeId, recordProvisionStates, run,
  sha256File, startDirectLab, startStaticServer, V, waitForState,
} from './agent-support';

describe('direct deploy: an image written by an agent emulator', () => {
  let dir: string;
  let lab: DirectLab;
  let image: string;
  let imageSha: string;

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'direct-deploy-'));
    image = await buildExt4Image(dir);
    imageSha = await sha256File(image);
    lab = await startDirectLab(dir, { agent: { deploy_logs_local_path: path.join(dir, 'deploy-logs') } });
  });
  after(async () => {
    await lab.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('deploys with extra_data and a configdrive dict, through deploying -> wait call-back -> ... -> active', async () => {
    const mac = '52:54:00:aa:00:01';
    const uuid = await availableNode(lab.s, 'direct-1', mac, {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
    });
    const agent = await emulatorFor(lab, mac, 'direct-1');
    const states = recordProvisionStates(lab.s);
    try {
      const motd = 'injected by ironic-ts\n';
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: {
        target: 'active',
        extra_data: { admin_pass: 'S3cret-pass', files: [{ path: '/etc/motd', contents: Buffer.from(motd).toString('base64') }] },
        configdrive: { meta_data: { hostname: 'direct-1.example' }, user_data: '#cloud-config\n' },
      } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(node.last_error, null);
      // Ironic's direct deploy goes asynchronous twice: booting the agent, then write_image.
      assert.deepEqual(states.of(await nodeId(lab.s, uuid)), [
        'deploying -> active', 'wait call-back -> active', 'deploying -> active', 'wait call-back -> active',
        'deploying -> active', 'active -> null']);

      const disk = path.join(dir, 'direct-1.disk');
      const shadow = (await debugfsCat(disk, '/etc/shadow')).split('\n');
      const rootHash = shadow.find((l) => l.startsWith('root:'))!.split(':')[1];
      assert.match(rootHash, /^\$6\$/);
      const salt = rootHash.split('$')[2];
      assert.equal(sha512Crypt('S3cret-pass', salt), rootHash);
      assert.ok(shadow.some((l) => l.startsWith('daemon:*:')), 'other shadow entries kept');
      assert.equal(await debugfsCat(disk, '/etc/motd'), motd);

      // The node reports the root filesystem the agent found, and the master stayed pristine.
      assert.equal(node.driver_internal_info.root_uuid_or_disk_id, await ext4Uuid(disk));
      assert.equal(await sha256File(image), imageSha);
      const masters = (await fsp.readdir(lab.masterDir)).filter((f) => !f.startsWith('.'));
      assert.equal(masters.length, 1);
      assert.equal(await sha256File(path.join(lab.masterDir, masters[0])), imageSha);
      // Published for the agent only while it writes (remove_http_instance_symlink).
      await assert.rejects(fsp.stat(path.join(lab.httpRootDir, 'agent_images', uuid)));
      assert.equal(lab.httpRoot.hits.get(`/agent_images/${uuid}`), 1);

      const iso = path.join(dir, 'direct-1.configdrive');
      const { stdout: pvd } = await run('isoinfo', ['-d', '-i', iso]);
      assert.match(pvd, /Volume id: config-2/);
      const out = path.join(dir, 'meta_data.json');
      await run('xorriso', ['-osirrox', 'on', '-indev', iso, '-extract', '/openstack/latest/meta_data.json', out]);
      const meta = JSON.parse(await fsp.readFile(out, 'utf8'));
      assert.equal(meta.uuid, uuid);
      assert.equal(meta.name, 'direct-1');
      assert.equal(meta.hostname, 'direct-1.example');
      assert.equal(meta.admin_pass, 'S3cret-pass');

      assert.ok(!agent.runner.commands.some((c) => c.command_name === 'collect_system_logs'), 'no logs kept after a success');
      // Undeploy: powered off, per-node image gone, back to available.
      const del = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'deleted' } });
      assert.equal(del.status, 202, del.text);
      const after = await waitForState(lab.s, uuid, ['available', 'error', 'clean failed']);
      assert.equal(after.provision_state, 'available', after.last_error);
      assert.equal(after.power_state, 'power off');
      await assert.rejects(fsp.stat(path.join(lab.imagesDir, uuid)));
    } finally {
      states.stop();
      await agent.stop();
    }
  });

  it('fails the deploy on a checksum mismatch and keeps no corrupt image in the cache', async () => {
    const mac = '52:54:00:aa:00:02';
    const wrong = '0'.repeat(64);
    const uuid = await availableNode(lab.s, 'direct-bad', mac, {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: wrong,
    });
    const before = new Set(await fsp.readdir(lab.masterDir).catch(() => [] as string[]));
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
    assert.equal(r.status, 202, r.text);
    const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
    assert.equal(node.provision_state, 'deploy failed');
    assert.match(node.last_error, /checksum/i);
    assert.match(node.last_error, new RegExp(wrong));
    const now = await fsp.readdir(lab.masterDir);
    assert.deepEqual(now.filter((f) => !before.has(f)), [], 'nothing new (not even a temp file) in the master cache');
    await assert.rejects(fsp.stat(path.join(lab.httpRootDir, 'agent_images', uuid)));
  });

  it('ten concurrent deploys of one http image download it once', async () => {
    const origin = await startStaticServer(dir);
    const nodes: { uuid: string; mac: string; name: string }[] = [];
    const agents = [];
    try {
      for (let i = 0; i < 10; i++) {
        const mac = `52:54:00:bb:00:${String(i).padStart(2, '0')}`;
        const name = `direct-many-${i}`;
        // image_download_source=local: the conductor caches the image and serves it (Ironic's semantics).
        const uuid = await availableNode(lab.s, name, mac, {
          image_source: `${origin.url}/root.img`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
          image_download_source: 'local',
        });
        nodes.push({ uuid, mac, name });
        agents.push(await emulatorFor(lab, mac, name));
      }
      const answers = await Promise.all(nodes.map((n) =>
        lab.s.request('PUT', `/v1/nodes/${n.uuid}/states/provision`, { version: V, body: { target: 'active' } })));
      assert.deepEqual(answers.map((a) => a.status), Array(10).fill(202));
      const finals = await Promise.all(nodes.map((n) => waitForState(lab.s, n.uuid, ['active', 'deploy failed'], 300_000)));
      assert.deepEqual(finals.map((f) => f.provision_state), Array(10).fill('active'), finals.map((f) => f.last_error).join('; '));
      assert.equal(origin.hits.get('/root.img'), 1, 'one download from the image origin');
      for (const n of nodes) {
        assert.equal(await sha256File(path.join(dir, `${n.name}.disk`)), imageSha);
        assert.equal(lab.httpRoot.hits.get(`/agent_images/${n.uuid}`), 1);
      }
    } finally {
      await Promise.all(agents.map((a) => a.stop()));
      await origin.stop();
    }
  });

  it('fails the deploy when the agent finds the image does not match its checksum', async () => {
    const origin = await startStaticServer(dir);
    const mac = '52:54:00:aa:00:03';
    const wrong = 'f'.repeat(64);
    // Default image_download_source=http: the agent downloads the URL itself and checks it.
    const uuid = await availableNode(lab.s, 'direct-agent-bad', mac, {
      image_source: `${origin.url}/root.img`, image_os_hash_algo: 'sha256', image_os_hash_value: wrong,
    });
    const agent = await emulatorFor(lab, mac, 'direct-agent-bad');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'deploy failed');
      assert.match(node.last_error, /^Deploy step deploy\.write_image failed on node .*Image failed to verify against checksum/);
      assert.equal(origin.hits.get('/root.img'), 1);
      assert.equal(origin.heads.get('/root.img'), 1, 'checked with a HEAD request before the agent was sent to it');
      await assert.rejects(fsp.stat(path.join(dir, 'direct-agent-bad.disk')), 'nothing written to the disk');
      // [agent]deploy_logs_collect=on_failure: the ramdisk's logs are kept, named as Ironic names them.
      const logs = (await fsp.readdir(path.join(dir, 'deploy-logs'))).filter((f) => f.startsWith(uuid));
      assert.equal(logs.length, 1, JSON.stringify(logs));
      assert.match(logs[0], new RegExp(`^${uuid}_direct-agent-bad_\\d{4}-\\d\\d-\\d\\d-\\d\\d-\\d\\d-\\d\\d\\.tar\\.gz$`));
      const { stdout: journal } = await run('tar', ['-xzOf', path.join(dir, 'deploy-logs', logs[0]), 'journal']);
      assert.match(journal, /^execute_deploy_step FAILED$/m);
    } finally {
      await agent.stop();
      await origin.stop();
    }
  });

  it('fails the deploy with a clear last_error when extra_data cannot be injected, leaving the cached image as it was', async () => {
    const blob = path.join(dir, 'not-a-filesystem.img');
    await fsp.writeFile(blob, Buffer.alloc(256 * 1024, 0x5a));
    const blobSha = await sha256File(blob);
    const uuid = await availableNode(lab.s, 'direct-noinject', '52:54:00:aa:00:04', {
      image_source: `file://${blob}`, image_os_hash_algo: 'sha256', image_os_hash_value: blobSha,
    });
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: {
      target: 'active', extra_data: { admin_pass: 'x' },
    } });
    assert.equal(r.status, 202, r.text);
    const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
    assert.equal(node.provision_state, 'deploy failed');
    assert.equal(node.last_error, 'Failed to prepare to deploy: no ext2/3/4 root filesystem found in the image');
    const cached = [];
    for (const f of await fsp.readdir(lab.masterDir)) {
      if (!f.startsWith('.') && await sha256File(path.join(lab.masterDir, f)) === blobSha) cached.push(f);
    }
    assert.equal(cached.length, 1, 'the master copy is there, unmodified');
    await assert.rejects(fsp.stat(path.join(lab.imagesDir, uuid, 'disk')), 'no half-injected node copy');
  });

  it('checks an http image_source with a HEAD request before booting the agent: a 404 or no server fails the deploy', async () => {
    const origin = await startStaticServer(dir);
    const closed = await startStaticServer(dir);
    const deadUrl = `${closed.url}/root.img`;
    await closed.stop();
    try {
      const cases = [
        { name: 'direct-head-404', url: `${origin.url}/missing.img`, reason: /^Got HTTP code 404 instead of 200 in response to HEAD request\.$/ },
        { name: 'direct-head-dead', url: deadUrl, reason: /ECONNREFUSED/ },
      ];
      for (const [i, c] of cases.entries()) {
        const uuid = await availableNode(lab.s, c.name, `52:54:00:aa:01:0${i}`, {
          image_source: c.url, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
        });
        const states = recordProvisionStates(lab.s);
        const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
        assert.equal(r.status, 202, r.text);
        const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
        states.stop();
        assert.equal(node.provision_state, 'deploy failed');
        const prefix = `Failed to prepare to deploy: Validation of image href ${c.url} failed, reason: `;
        assert.ok(String(node.last_error).startsWith(prefix), node.last_error);
        assert.match(String(node.last_error).slice(prefix.length), c.reason);
        assert.deepEqual(states.of(await nodeId(lab.s, uuid)), ['deploying -> active', 'deploy failed -> active'],
          'the agent was never booted');
        assert.equal(node.power_state, 'power off');
      }
      assert.equal(origin.heads.get('/missing.img'), 1);
      assert.equal(origin.hits.get('/missing.img'), undefined, 'nothing downloaded');
    } finally {
      await origin.stop();
    }
  });

  it('follows one redirect of the image URL: image_source becomes its target', async () => {
    const origin = await startStaticServer(dir);
    const redirector = createServer((req, res) => res.writeHead(301, { Location: `${origin.url}/root.img` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const moved = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/old/root.img`;
    const mac = '52:54:00:aa:01:10';
    const uuid = await availableNode(lab.s, 'direct-moved', mac, {
      image_source: moved, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
    });
    const agent = await emulatorFor(lab, mac, 'direct-moved');
    try {
      const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
      assert.equal(r.status, 202, r.text);
      const node = await waitForState(lab.s, uuid, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      assert.equal(node.instance_info.image_source, `${origin.url}/root.img`);
      assert.equal(origin.heads.get('/root.img'), 1);
      assert.equal(await sha256File(path.join(dir, 'direct-moved.disk')), imageSha);
    } finally {
      await agent.stop();
      redirector.close();
      await origin.stop();
    }
  });

  it('shows the running driver step as the driver reports it while waiting for the agent (argsinfo, no args)', async () => {
    const uuid = await availableNode(lab.s, 'direct-wait', '52:54:00:aa:00:06', { image_source: `file://${image}` });
    const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
    assert.equal(r.status, 202, r.text);
    let shown = await lab.s.request('GET', `/v1/nodes/${uuid}`, { version: V });
    for (let i = 0; i < 300 && shown.json.provision_state !== 'wait call-back'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = await lab.s.request('GET', `/v1/nodes/${uuid}`, { version: V });
    }
    assert.equal(shown.json.provision_state, 'wait call-back');
    // Ironic 29.0.5 stores the step dict of the deploy interface's decorator, in its key order.
    assert.deepEqual(shown.json.deploy_step, { step: 'deploy', priority: 100, argsinfo: null, interface: 'deploy' });
    assert.deepEqual(Object.keys(shown.json.deploy_step), ['step', 'priority', 'argsinfo', 'interface']);
    const listed = shown.json.driver_internal_info.deploy_steps as Array<Record<string, unknown>>;
    assert.ok(listed.every((step) => Object.hasOwn(step, 'argsinfo') && !Object.hasOwn(step, 'args')), JSON.stringify(listed));
    const del = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'deleted' } });
    assert.equal(del.status, 202, del.text);
    await waitForState(lab.s, uuid, ['available', 'clean failed', 'error']);
  });

  it('fails through set_failed_state when a heartbeat breaks: no agent answers at its callback URL, the node is powered off', async () => {
    const mac = '52:54:00:aa:00:07';
    const uuid = await availableNode(lab.s, 'direct-gone', mac, { image_source: `file://${image}`,
      image_os_hash_algo: 'sha256', image_os_hash_value: imageSha });
    const deploy = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'active' } });
    assert.equal(deploy.status, 202, deploy.text);
    for (let i = 0; i < 300 && (await lab.s.request('GET', `/v1/nodes/${uuid}`, { version: V })).json.provision_state !== 'wait call-back'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The agent looks up and heartbeats, then is gone before the conductor asks it for its steps.
    const lookup = await lab.s.request('GET', `/v1/lookup?addresses=${mac}`, { version: V });
    assert.equal(lookup.status, 200, lookup.text);
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadPort = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const beat = await lab.s.request('POST', `/v1/heartbeat/${uuid}`, { version: V, body: {
      callback_url: `http://127.0.0.1:${deadPort}`, agent_token: lookup.json.config.agent_token, agent_version: '10.2.0' } });
    assert.equal(beat.status, 202, beat.text);
    const failed = await waitForState(lab.s, uuid, ['deploy failed']);
    assert.match(String(failed.last_error), /^Failed to load in-band deploy steps: Connection to agent failed: /);
    // Ironic 29.0.5's _heartbeat_deploy_wait: set_failed_state powers the node off (power_off_after_deploy_failure).
    assert.equal(failed.power_state, 'power off');
    const del = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'deleted' } });
    assert.equal(del.status, 202, del.text);
    await waitForState(lab.s, uuid, ['available', 'clean failed', 'error']);
  });

  it('refuses heartbeats without a version or with a token the node did not hand out', async () => {
    const uuid = await availableNode(lab.s, 'direct-hb', '52:54:00:aa:00:05', { image_source: `file://${image}` });
    const fault = (r: { json: { error_message: string } }) => JSON.parse(r.json.error_message).faultstring;
    const noVersion = await lab.s.request('POST', `/v1/heartbeat/${uuid}`, { version: V, body: { callback_url: 'http://127.0.0.1:1', agent_token: 't' } });
    assert.equal(noVersion.status, 400);
    assert.equal(fault(noVersion), 'Agent did not transmit a version, and a version is required. Please update the agent being used.');
    // No token was handed out (no lookup yet): any token is invalid.
    const badToken = await lab.s.request('POST', `/v1/heartbeat/${uuid}`, { version: V, body: {
      callback_url: 'http://127.0.0.1:1', agent_token: 't', agent_version: '9.4.1' } });
    assert.equal(badToken.status, 400);
    assert.equal(fault(badToken), 'Invalid or missing agent token received.');
  });
});
