/**
 * [deploy]configdrive_use_object_store against a real Swift behind a real Keystone (Debian's
 * python3-swift and python3-keystone): ironic-ts finds the object-store endpoint in its [swift]
 * token's catalog, stores the configdrive as `configdrive-<uuid>` in
 * [conductor]configdrive_swift_container with X-Delete-After, and the agent (our emulator) gets a
 * temporary URL signed with the account's key that Swift serves without a token. The failure
 * texts are the ones Ironic 29.0.5 (openstacksdk's SwiftAPI) gives against this same Swift; the
 * reference 29.0.5 (fake deploy) is asked for the refused-role one. A rebuild with
 * a dict stores the built ISO over it; tear down leaves the object to expire, as Ironic does, and
 * Swift stops serving it then. A wrong password, a project role Swift refuses and a missing key
 * fail the deploy with Ironic's last_error, the node unlocked.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  availableNode, buildExt4Image, emulatorFor, run, sha256File, startDirectLab, V, waitForState, type DirectLab,
} from '../../test/drivers/deploy/agent-support';
import { serviceProjectAuth, type Keystone, type KeystoneUser } from '../support/keystone';
import { startReferenceIronic } from '../support/reference-ironic';
import { startSwiftForIronic, type RealSwift, type SwiftForIronic } from '../support/swift';
import { freePort } from '../support/target';

const DURATION = 60;
const CONTAINER = 'ironic_configdrive_container';

let peers: SwiftForIronic;
let ks: Keystone;
let swift: RealSwift;
let ironicUser: KeystoneUser;
let readerUser: KeystoneUser;
let projectId: string;
let dir: string;
let image: string;
let imageSha: string;
/** The deployed node, its first temporary URL and the object's X-Delete-At, checked again at the end. */
let uuid: string;
let firstUrl: string;
let deleteAt: number;

async function ironicToken(): Promise<string> {
  return ks.token({ user: ironicUser.name, password: ironicUser.password, project: 'service' });
}

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'configdrive-swift-'));
  image = await buildExt4Image(dir);
  imageSha = await sha256File(image);
  peers = await startSwiftForIronic();
  ({ ks, swift, ironicUser, readerUser, projectId } = peers);
});
after(async () => {
  await peers?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

async function objectStoreLab(name: string, swiftGroup: Record<string, string>): Promise<DirectLab> {
  const labDir = path.join(dir, name);
  await fsp.mkdir(labDir);
  return startDirectLab(labDir, {
    deploy: { configdrive_use_object_store: 'true' },
    conductor: { configdrive_swift_temp_url_duration: String(DURATION) },
    swift: swiftGroup,
  });
}

/** The project's account key, set as an operator does (Ironic only reads it). */
async function setAccountKey(key: string | null): Promise<void> {
  const res = await fetch(swift.accountUrl(projectId), {
    method: 'POST',
    headers: { 'X-Auth-Token': await ironicToken(), ...(key ? { 'X-Account-Meta-Temp-Url-Key': key } : { 'X-Remove-Account-Meta-Temp-Url-Key': 'x' }) },
  });
  assert.equal(res.status, 204, await res.text());
}

async function headObject(objectName: string): Promise<Response> {
  return fetch(`${swift.accountUrl(projectId)}/${CONTAINER}/${objectName}`, { method: 'HEAD', headers: { 'X-Auth-Token': await ironicToken() } });
}

async function storedConfigdrive(lab: DirectLab, uuid: string): Promise<unknown> {
  const row = await lab.s.db.knex('nodes').where({ uuid }).first('instance_info') as { instance_info: string | null };
  return (JSON.parse(row.instance_info ?? '{}') as Record<string, unknown>).configdrive;
}

async function deployWith(lab: DirectLab, uuid: string, target: 'active' | 'rebuild', configdrive: unknown): Promise<Record<string, any>> {
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target, configdrive } });
  assert.equal(r.status, 202, r.text);
  return waitForState(lab.s, uuid, ['active', 'deploy failed']);
}

describe('configdrive in Swift, endpoint from the Keystone catalog', () => {
  let lab: DirectLab;

  before(async () => {
    await setAccountKey('configdrive-key');
    lab = await objectStoreLab('good', serviceProjectAuth(ks, ironicUser));
  });
  after(async () => {
    await lab?.stop();
  });

  it('stores the configdrive in Swift and hands the agent a temporary URL that Swift serves without a token', async () => {
    const mac = '52:54:00:5f:00:01';
    uuid = await availableNode(lab.s, 'cd-swift', mac, {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
    });
    const agent = await emulatorFor(lab, mac, 'cd-swift');
    const iso = Buffer.concat([Buffer.from('config-2 stand-in '), Buffer.alloc(4096, 0x5a)]);
    const configdrive = zlib.gzipSync(iso).toString('base64');
    const started = Math.floor(Date.now() / 1000);
    try {
      const node = await deployWith(lab, uuid, 'active', configdrive);
      assert.equal(node.provision_state, 'active', node.last_error);
      const finished = Math.ceil(Date.now() / 1000);

      const url = String(await storedConfigdrive(lab, uuid));
      firstUrl = url;
      const expected = `${swift.accountUrl(projectId)}/${CONTAINER}/configdrive-${uuid}`;
      assert.equal(url.split('?')[0], expected, 'the object-store endpoint of the catalog, the container and object Ironic names');
      const query = new URL(url).searchParams;
      assert.match(query.get('temp_url_sig') ?? '', /^[0-9a-f]{40}$/, 'HMAC-SHA1, as openstacksdk signs');
      const expires = Number(query.get('temp_url_expires'));
      assert.ok(expires >= started + DURATION && expires <= finished + DURATION, `expires ${expires}`);

      const writeImage = agent.runner.history.find((c) => c.command_name === 'execute_deploy_step');
      assert.ok(writeImage, 'write_image ran on the agent');
      assert.equal((writeImage.command_params.step as { args: { configdrive: string } }).args.configdrive, url);
      assert.deepEqual(await fsp.readFile(path.join(lab.dir, 'cd-swift.configdrive')), iso, 'the agent wrote what Swift served');

      const byTempUrl = await fetch(url);
      assert.equal(byTempUrl.status, 200);
      assert.equal(await byTempUrl.text(), configdrive, 'the object holds the gzipped, base64 configdrive as given');
      assert.equal((await fetch(expected)).status, 401, 'without the signature Swift wants a token');
      const forged = `${expected}?temp_url_sig=${'0'.repeat(64)}&temp_url_expires=${expires}`;
      assert.equal((await fetch(forged)).status, 401, 'a wrong signature is refused');

      const head = await headObject(`configdrive-${uuid}`);
      assert.equal(head.status, 200);
      const deleteAt = Number(head.headers.get('x-delete-at'));
      assert.ok(deleteAt >= started + DURATION && deleteAt <= finished + DURATION, `X-Delete-At ${deleteAt}`);
    } finally {
      await agent.stop();
    }
  });

  it('rebuilds with a dict: the built ISO replaces the object under the same name', async () => {
    const agent = await emulatorFor(lab, '52:54:00:5f:00:01', 'cd-swift');
    try {
      const node = await deployWith(lab, uuid, 'rebuild', { meta_data: { hostname: 'rebuilt.example' }, user_data: '#cloud-config\n' });
      assert.equal(node.provision_state, 'active', node.last_error);
      const url = String(await storedConfigdrive(lab, uuid));
      assert.equal(url.split('?')[0], firstUrl.split('?')[0]);
      const stored = await (await fetch(url)).text();
      const isoFile = path.join(lab.dir, 'cd-swift.configdrive');
      assert.deepEqual(zlib.gunzipSync(Buffer.from(stored, 'base64')), await fsp.readFile(isoFile));
      assert.match((await run('isoinfo', ['-d', '-i', isoFile])).stdout, /Volume id: config-2/);
      // The first URL is signed for the same object: it reads the new content until it expires.
      assert.equal(await (await fetch(firstUrl)).text(), stored);
    } finally {
      await agent.stop();
    }
  });

  it('tears down without deleting the object', async () => {
    const del = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'deleted' } });
    assert.equal(del.status, 202, del.text);
    const node = await waitForState(lab.s, uuid, ['available', 'error', 'clean failed']);
    assert.equal(node.provision_state, 'available', node.last_error);
    assert.equal(await storedConfigdrive(lab, uuid), undefined);
    const head = await headObject(`configdrive-${uuid}`);
    assert.equal(head.status, 200, 'Ironic deletes nothing at tear down');
    deleteAt = Number(head.headers.get('x-delete-at'));
    assert.ok(deleteAt > Date.now() / 1000);
  });
});

describe('configdrive upload failures', () => {
  const ourLastErrors = new Map<string, string>();
  const failures: Array<[string, () => Record<string, string>, RegExp]> = [
    ['a wrong [swift] password', () => serviceProjectAuth(ks, ironicUser, { password: 'wrong' }),
      /^Failed to prepare the configdrive\. Exception: The request you have made requires authentication\. \(HTTP 401\) \(Request-ID: req-[0-9a-f-]+\)$/],
    ['a project role Swift refuses (reader)', () => serviceProjectAuth(ks, readerUser),
      /^Failed to upload the configdrive to Swift: Swift operation 'put container' failed: ForbiddenException: 403: Client Error for url: http:\/\/127\.0\.0\.1:\d+\/v1\/AUTH_[0-9a-f]+\/ironic_configdrive_container, Forbidden$/],
  ];
  for (const [label, group, lastError] of failures) {
    it(`fails the deploy with Ironic's last_error for ${label}, the node unlocked and redeployable`, async () => {
      const lab = await objectStoreLab(`fail-${label.replace(/\W+/g, '-')}`, group());
      try {
        const uuid = await availableNode(lab.s, 'cd-fail', '52:54:00:5f:00:02', {
          image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
        });
        const node = await deployWith(lab, uuid, 'active', zlib.gzipSync(Buffer.from('cd')).toString('base64'));
        assert.equal(node.provision_state, 'deploy failed');
        assert.match(String(node.last_error), lastError);
        ourLastErrors.set(label, String(node.last_error));
        assert.equal(node.reservation, null);
        assert.equal(await storedConfigdrive(lab, uuid), undefined, 'no configdrive recorded');
        assert.equal((await headObject(`configdrive-${uuid}`)).status, 404, 'nothing stored');
        const del = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: 'deleted' } });
        assert.equal(del.status, 202, del.text);
        assert.equal((await waitForState(lab.s, uuid, ['available', 'error', 'clean failed'])).provision_state, 'available');
      } finally {
        await lab.stop();
      }
    });
  }

  it('gives the last_error Ironic 29.0.5 gives for a role Swift refuses, on the same Swift', async () => {
    const refDir = await fsp.mkdtemp(path.join(dir, 'reference-'));
    const env: Record<string, string> = { OS_DEPLOY__CONFIGDRIVE_USE_OBJECT_STORE: 'true' };
    for (const [name, value] of Object.entries(serviceProjectAuth(ks, readerUser))) env[`OS_SWIFT__${name.toUpperCase()}`] = value;
    const reference = await startReferenceIronic({ dir: refDir, port: await freePort(), release: '2025.1', env });
    try {
      const api = async (method: string, route: string, body?: unknown): Promise<Record<string, any>> => {
        const res = await fetch(`${reference.url}${route}`, { method, body: body === undefined ? undefined : JSON.stringify(body),
          headers: { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': V } });
        const text = await res.text();
        return text ? JSON.parse(text) as Record<string, any> : {};
      };
      const settled = async (uuid: string): Promise<Record<string, any>> => {
        for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
          const node = await api('GET', `/v1/nodes/${uuid}`);
          if (node.reservation === null && !['deploying', 'cleaning', 'verifying'].includes(node.provision_state)) return node;
        }
        throw new Error('the reference node did not settle');
      };
      const { uuid } = await api('POST', '/v1/nodes', { driver: 'fake-hardware' }) as { uuid: string };
      for (const target of ['manage', 'provide']) {
        await api('PUT', `/v1/nodes/${uuid}/states/provision`, { target });
        await settled(uuid);
      }
      await api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active', configdrive: zlib.gzipSync(Buffer.from('cd')).toString('base64') });
      const node = await settled(uuid);
      assert.equal(node.provision_state, 'deploy failed');
      assert.equal(node.last_error, ourLastErrors.get('a project role Swift refuses (reader)'));
    } finally {
      await reference.stop();
    }
  });

  it('fails with Ironic\'s message when the account has no temporary URL key, leaving the uploaded object to expire', async () => {
    await setAccountKey(null);
    const lab = await objectStoreLab('no-key', serviceProjectAuth(ks, ironicUser));
    try {
      const uuid = await availableNode(lab.s, 'cd-nokey', '52:54:00:5f:00:03', {
        image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
      });
      const node = await deployWith(lab, uuid, 'active', zlib.gzipSync(Buffer.from('cd')).toString('base64'));
      assert.equal(node.provision_state, 'deploy failed');
      assert.equal(node.last_error, 'Failed to prepare the configdrive. Exception: Swift temporary URLs require a shared ' +
        'secret to be created. You must provide pre-generate the key on the project used to access Swift.');
      assert.equal(node.reservation, null);
      assert.ok(Number((await headObject(`configdrive-${uuid}`)).headers.get('x-delete-at')) > 0, 'uploaded with an expiry');
    } finally {
      await lab.stop();
      await setAccountKey('configdrive-key');
    }
  });
});

// Last, so that the failures above run while the object's lifetime runs out.
describe('the stored configdrive after its lifetime', () => {
  it('is gone from Swift once X-Delete-At has passed, and the temporary URL no longer works', async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deleteAt * 1000 - Date.now()) + 1500));
    assert.equal((await headObject(`configdrive-${uuid}`)).status, 404);
    assert.equal((await fetch(firstUrl)).status, 401);
  });
});
