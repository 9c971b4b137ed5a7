/**
 * [agent]deploy_logs_storage_backend = swift against a real Swift behind a real Keystone (Debian's
 * python3-swift and python3-keystone), the agent being our emulator: with
 * [agent]deploy_logs_collect = always, the tarball the agent's log.collect_system_logs answers lands
 * in [agent]deploy_logs_swift_container as <uuid>_<name>_<instance uuid>[_<label>]_<UTC time>.tar.gz
 * with X-Delete-After of [agent]deploy_logs_swift_days_to_expire days (so Swift shows X-Delete-At),
 * after a deploy (tear_down_agent, no label) and after a cleaning (label `cleaning`). As in Ironic
 * 29.0.5 (driver_utils.collect_ramdisk_logs), a Swift that refuses the upload or a Keystone that
 * refuses the login is logged and never fails the deploy.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  availableNode, buildExt4Image, captureLog, emulatorFor, run, sha256File, startDirectLab, V, waitForState, type DirectLab,
} from '../../test/drivers/deploy/agent-support';
import { serviceProjectAuth, type Keystone, type KeystoneUser } from '../support/keystone';
import { startSwiftForIronic, type RealSwift, type SwiftForIronic } from '../support/swift';

const DEFAULT_CONTAINER = 'ironic_deploy_logs_container';
const DAY = 86400;

let peers: SwiftForIronic;
let ks: Keystone;
let swift: RealSwift;
let ironicUser: KeystoneUser;
let readerUser: KeystoneUser;
let projectId: string;
let dir: string;
let image: string;
let imageSha: string;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'deploy-logs-swift-'));
  image = await buildExt4Image(dir);
  imageSha = await sha256File(image);
  peers = await startSwiftForIronic();
  ({ ks, swift, ironicUser, readerUser, projectId } = peers);
});
after(async () => {
  await peers?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

async function logsLab(name: string, agent: Record<string, string>, swiftGroup: Record<string, string>): Promise<DirectLab> {
  const labDir = path.join(dir, name);
  await fsp.mkdir(labDir);
  return startDirectLab(labDir, {
    agent: { deploy_logs_collect: 'always', deploy_logs_storage_backend: 'swift', ...agent },
    swift: swiftGroup,
  });
}

/** Swift as the operator sees it, with the ironic user's token. */
async function swiftGet(route: string, method = 'GET'): Promise<Response> {
  const token = await ks.token({ user: ironicUser.name, password: ironicUser.password, project: 'service' });
  return fetch(`${swift.accountUrl(projectId)}${route}`, { method, headers: { 'X-Auth-Token': token } });
}

/** The container's object names; [] when the container does not exist. */
async function objectsIn(container: string): Promise<string[]> {
  const res = await swiftGet(`/${container}?format=json`);
  if (res.status === 404) return [];
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return (JSON.parse(text) as Array<{ name: string }>).map((o) => o.name);
}

/** The journal inside a stored tarball: what the emulator's ramdisk had run. */
async function journalOf(container: string, object: string): Promise<string> {
  const res = await swiftGet(`/${container}/${object}`);
  assert.equal(res.status, 200);
  const file = path.join(dir, `${randomUUID()}.tar.gz`);
  await fsp.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return (await run('tar', ['-xzOf', file, 'journal'])).stdout;
}

/** A deployable node with an instance uuid, so the object name carries every field. */
async function nodeWithInstance(lab: DirectLab, name: string, mac: string): Promise<{ uuid: string; instance: string }> {
  const uuid = await availableNode(lab.s, name, mac, {
    image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: imageSha,
  });
  const instance = randomUUID();
  const r = await lab.s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: [{ op: 'add', path: '/instance_uuid', value: instance }] });
  assert.equal(r.status, 200, r.text);
  return { uuid, instance };
}

async function provision(lab: DirectLab, uuid: string, body: Record<string, unknown>, wanted: string[]): Promise<Record<string, any>> {
  const r = await lab.s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body });
  assert.equal(r.status, 202, r.text);
  return waitForState(lab.s, uuid, wanted);
}

const STAMP = '\\d{4}-\\d\\d-\\d\\d-\\d\\d-\\d\\d-\\d\\d';

describe('ramdisk logs in Swift, endpoint from the Keystone catalog', () => {
  const CONTAINER = 'ramdisk-logs';
  const DAYS = 3;
  let lab: DirectLab;

  before(async () => {
    lab = await logsLab('good', { deploy_logs_swift_container: CONTAINER, deploy_logs_swift_days_to_expire: String(DAYS) },
      serviceProjectAuth(ks, ironicUser));
  });
  after(async () => {
    await lab?.stop();
  });

  it('stores the logs of a successful deploy as <uuid>_<name>_<instance>_<time>.tar.gz with X-Delete-At, then a cleaning\'s', async () => {
    const mac = '52:54:00:1d:00:01';
    const { uuid, instance } = await nodeWithInstance(lab, 'logs-ok', mac);
    const agent = await emulatorFor(lab, mac, 'logs-ok');
    try {
      const started = Math.floor(Date.now() / 1000);
      const node = await provision(lab, uuid, { target: 'active' }, ['active', 'deploy failed']);
      assert.equal(node.provision_state, 'active', node.last_error);
      const finished = Math.ceil(Date.now() / 1000);

      const objects = await objectsIn(CONTAINER);
      assert.equal(objects.length, 1, JSON.stringify(objects));
      assert.match(objects[0], new RegExp(`^${uuid}_logs-ok_${instance}_${STAMP}\\.tar\\.gz$`));
      const head = await swiftGet(`/${CONTAINER}/${objects[0]}`, 'HEAD');
      assert.equal(head.status, 200);
      const deleteAt = Number(head.headers.get('x-delete-at'));
      assert.ok(deleteAt >= started + DAYS * DAY && deleteAt <= finished + DAYS * DAY, `X-Delete-At ${deleteAt}`);
      assert.match(await journalOf(CONTAINER, objects[0]), /^execute_deploy_step SUCCEEDED$/m);
      assert.deepEqual(await objectsIn(DEFAULT_CONTAINER), [], 'only the configured container');

      // A manual cleaning of the same node, once it is back in manageable, adds one labelled `cleaning`.
      const torn = await provision(lab, uuid, { target: 'deleted' }, ['available', 'clean failed', 'error']);
      assert.equal(torn.provision_state, 'available', torn.last_error);
      await provision(lab, uuid, { target: 'manage' }, ['manageable']);
      await fsp.writeFile(path.join(lab.dir, 'logs-ok.disk'), Buffer.alloc(2 * 1024 * 1024, 0xab));
      const cleaned = await provision(lab, uuid, { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices_metadata' }] },
        ['manageable', 'clean failed']);
      assert.equal(cleaned.provision_state, 'manageable', cleaned.last_error);
      // Tear down cleared the instance uuid: the cleaning's name has none.
      const cleaning = (await objectsIn(CONTAINER)).filter((o) => o !== objects[0]);
      assert.equal(cleaning.length, 1, JSON.stringify(cleaning));
      assert.match(cleaning[0], new RegExp(`^${uuid}_logs-ok_cleaning_${STAMP}\\.tar\\.gz$`));
      assert.match(await journalOf(CONTAINER, cleaning[0]), /^execute_clean_step SUCCEEDED$/m);
      assert.ok(Number((await swiftGet(`/${CONTAINER}/${cleaning[0]}`, 'HEAD')).headers.get('x-delete-at')) > deleteAt);
    } finally {
      await agent.stop();
    }
  });
});

describe('a Swift or Keystone that refuses the logs', () => {
  const cases: Array<[string, () => Record<string, string>, (uuid: string) => RegExp]> = [
    ['a project role Swift refuses (reader)', () => serviceProjectAuth(ks, readerUser), (uuid) => new RegExp(
      `Failed to store the logs from the node ${uuid} deployment in Swift\\. Error: Swift operation 'put container' failed: ` +
      `ForbiddenException: 403: Client Error for url: http://127\\.0\\.0\\.1:\\d+/v1/AUTH_[0-9a-f]+/${DEFAULT_CONTAINER}, Forbidden`)],
    ['a wrong [swift] password', () => serviceProjectAuth(ks, ironicUser, { password: 'wrong' }), (uuid) => new RegExp(
      `Unknown error when storing logs from the node ${uuid} deployment\\. Error: The request you have made requires ` +
      'authentication\\. \\(HTTP 401\\) \\(Request-ID: req-[0-9a-f-]+\\)')],
  ];
  for (const [label, group, logged] of cases) {
    it(`logs ${label} and the deploy still ends active`, async () => {
      const lab = await logsLab(`fail-${label.replace(/\W+/g, '-')}`, {}, group());
      const mac = '52:54:00:1d:00:02';
      const logs = captureLog();
      let agent: Awaited<ReturnType<typeof emulatorFor>> | null = null;
      try {
        const { uuid } = await nodeWithInstance(lab, 'logs-refused', mac);
        agent = await emulatorFor(lab, mac, 'logs-refused');
        const node = await provision(lab, uuid, { target: 'active' }, ['active', 'deploy failed']);
        assert.equal(node.provision_state, 'active', node.last_error);
        assert.equal(node.last_error, null);
        assert.equal(agent.runner.history.filter((c) => c.command_name === 'collect_system_logs').length, 1, 'the logs were collected');
        const pattern = logged(uuid);
        assert.ok(logs.lines.some((l) => / ERROR /.test(l) && pattern.test(l)), `no log line matches ${pattern}`);
        assert.deepEqual(await objectsIn(DEFAULT_CONTAINER), [], 'nothing stored');
      } finally {
        logs.stop();
        await agent?.stop();
        await lab.stop();
      }
    });
  }
});
