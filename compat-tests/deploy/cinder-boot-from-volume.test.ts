/**
 * Boot from a Cinder volume, against a real Cinder 26 behind a real Keystone: ironic-ts finds the
 * volumev3 endpoint in its [cinder] service user's catalog (less the project id the catalog URL
 * carries), and a fake-hardware node with the ipxe boot, the direct deploy and the `cinder`
 * storage interface deploys without writing an image: Cinder exports the tenant's volume to the
 * node's initiator (tgtd, CHAP), the target's properties hold the connection, the volume is
 * in-use by the node's instance, and the node's iPXE script hooks that iSCSI target, whose
 * credentials log in for real (qemu-io reads the volume through it). Undeploy detaches it. Then
 * the faults: a missing connector, a volume Cinder refuses to reserve (the attach is undone),
 * and Cinder's API down (nothing is left attached, and a second deploy succeeds).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startStaticServer, type StaticServer } from '../../test/drivers/deploy/agent-support';
import { startCinder, type RealCinder } from '../support/cinder';
import { api, waitProvision } from '../support/ironic-http';
import { startKeystone, type Keystone, type KeystoneUser } from '../support/keystone';
import { freePort, startIronicTs, type Target } from '../support/target';

const run = promisify(execFile);
const MARKER = 'ironic-ts boot-from-volume marker';

let ks: Keystone;
let cinder: RealCinder;
let ironic: Target;
let httpRoot: StaticServer;
let dir: string;
let demo: KeystoneUser;
let macCount = 0;

const demoToken = () => ks.token({ user: demo.name, password: demo.password, project: 'demo' });

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cinder-bfv-'));
  let ironicUser: KeystoneUser | undefined;
  // Keystone starts while Cinder's database is prepared.
  const keystone = (async () => {
    ks = await startKeystone();
    const cinderUser = await ks.createUser('cinder', { project: 'service', projectRoles: ['admin', 'service'] });
    ironicUser = await ks.createUser('ironic', { project: 'service', projectRoles: ['admin', 'service'] });
    demo = await ks.createUser('demo', { project: 'demo', projectRoles: ['member', 'reader'] });
    return { url: ks.url, username: cinderUser.name, password: cinderUser.password, project: 'service' };
  })();
  keystone.catch(() => undefined);
  cinder = await startCinder({ keystone });
  assert.ok(ironicUser);
  // The catalog URL names the project, as older deployments register it; Ironic strips its own.
  await ks.registerService('volumev3', 'cinderv3', `${cinder.url}/v3/$(project_id)s`);
  await fsp.mkdir(path.join(dir, 'httpboot'));
  await fsp.mkdir(path.join(dir, 'ironic'));
  httpRoot = await startStaticServer(path.join(dir, 'httpboot'));
  ironic = await startIronicTs(path.join(dir, 'ironic'), await freePort(), [
    'debug = true',
    'enabled_boot_interfaces = fake,ipxe', 'enabled_deploy_interfaces = fake,direct',
    'enabled_storage_interfaces = noop,cinder,external', 'enabled_management_interfaces = fake,noop',
    '[deploy]', `http_root = ${dir}/httpboot`, `http_url = ${httpRoot.url}`,
    '[pxe]', `images_path = ${dir}/images`, `instance_master_path = ${dir}/master`, `tftp_root = ${dir}/tftpboot`,
    '[agent]', 'post_deploy_get_power_state_retries = 0',
    '[cinder]', 'auth_type = password', `auth_url = ${ks.url}`, `username = ${ironicUser.name}`, `password = ${ironicUser.password}`,
    'project_name = service', 'user_domain_id = default', 'project_domain_id = default',
    'action_retries = 1', 'action_retry_interval = 1',
  ].join('\n'));
});

after(async () => {
  await ironic?.stop();
  await httpRoot?.stop();
  await cinder?.stop();
  await ks?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

interface NodeSpec {
  connector?: string | null;
  volumes?: string[];
  capabilities?: string;
}

/** An available fake-hardware node booting with ipxe, deployed by `direct`, its volumes through Cinder. */
async function bfvNode(spec: NodeSpec): Promise<{ uuid: string; instance: string; targets: string[] }> {
  const instance = randomUUID();
  const created = await api(ironic.url, 'POST', '/v1/nodes', {
    driver: 'fake-hardware', boot_interface: 'ipxe', deploy_interface: 'direct', storage_interface: 'cinder',
    management_interface: 'fake', instance_uuid: instance,
    properties: { capabilities: spec.capabilities ?? 'iscsi_boot:true' },
    driver_info: { deploy_kernel: 'http://127.0.0.1:9/kernel', deploy_ramdisk: 'http://127.0.0.1:9/ramdisk' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const uuid = String(created.json.uuid);
  macCount += 1;
  const port = await api(ironic.url, 'POST', '/v1/ports', { node_uuid: uuid, address: `52:54:00:c1:00:${macCount.toString(16).padStart(2, '0')}` });
  assert.equal(port.status, 201, JSON.stringify(port.json));
  if (spec.connector) {
    const c = await api(ironic.url, 'POST', '/v1/volume/connectors', { node_uuid: uuid, type: 'iqn', connector_id: spec.connector });
    assert.equal(c.status, 201, JSON.stringify(c.json));
  }
  const targets: string[] = [];
  for (const [index, volumeId] of (spec.volumes ?? []).entries()) {
    const t = await api(ironic.url, 'POST', '/v1/volume/targets', { node_uuid: uuid, volume_type: 'iscsi', boot_index: index, volume_id: volumeId });
    assert.equal(t.status, 201, JSON.stringify(t.json));
    targets.push(String(t.json.uuid));
  }
  for (const [verb, state] of [['manage', 'manageable'], ['provide', 'available']]) {
    const r = await api(ironic.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: verb });
    assert.equal(r.status, 202, JSON.stringify(r.json));
    await waitProvision(ironic.url, uuid, state);
  }
  return { uuid, instance, targets };
}

/** Deploys and waits for `reach` with the lock released (a failed deploy keeps its target, `active`). */
async function deploy(uuid: string, reach: 'active' | 'deploy failed'): Promise<Record<string, any>> {
  const r = await api(ironic.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' });
  assert.equal(r.status, 202, JSON.stringify(r.json));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const node = (await api(ironic.url, 'GET', `/v1/nodes/${uuid}`)).json;
    const settled = node.reservation === null && ['active', 'deploy failed'].includes(node.provision_state) &&
      (node.provision_state !== 'active' || node.target_provision_state === null);
    if (settled) {
      assert.equal(node.provision_state, reach, String(node.last_error));
      return node;
    }
    if (Date.now() > deadline) assert.fail(`node ${uuid} stuck in ${node.provision_state}: ${node.last_error}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The IQNs the tgtd behind Cinder exports now. */
async function exportedTargets(): Promise<string[]> {
  const { stdout } = await run('tgtadm', ['-C', String(cinder.tgt.control), '--lld', 'iscsi', '--op', 'show', '--mode', 'target']);
  return [...stdout.matchAll(/^Target \d+: (\S+)$/gm)].map((m) => m[1]);
}

async function undeploy(uuid: string): Promise<void> {
  const r = await api(ironic.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'deleted' });
  assert.equal(r.status, 202, JSON.stringify(r.json));
  await waitProvision(ironic.url, uuid, 'available', 120_000);
}

/** Reads the first bytes of an iSCSI LUN as an initiator would, with CHAP. */
async function readLun(opts: { portal: string; iqn: string; lun: string; user: string; password: string; initiator: string }): Promise<string> {
  const image = `driver=iscsi,transport=tcp,portal=${opts.portal},target=${opts.iqn},lun=${opts.lun},user=${opts.user},` +
    `password-secret=chap,initiator-name=${opts.initiator}`;
  const { stdout } = await run('qemu-io', ['-r', '--object', `secret,id=chap,data=${opts.password}`, '--image-opts', image,
    '-c', `read -v 0 ${MARKER.length}`], { timeout: 60_000 });
  // `read -v` dumps `offset:  hex bytes  text` lines.
  const hex = stdout.split('\n').filter((l) => /^[0-9a-f]{8}:/.test(l)).map((l) => l.split('  ')[1].replace(/ /g, '')).join('');
  return Buffer.from(hex, 'hex').toString('latin1');
}

describe('boot from a Cinder volume', () => {
  it('deploys without an image: attached in Cinder, booted by iPXE from the iSCSI target, detached on undeploy', async () => {
    const token = await demoToken();
    const volume = await cinder.createVolume({ size: 1, name: 'root' }, token);
    await fsp.writeFile(cinder.volumeFile(volume.id), MARKER, { flag: 'r+' });
    const initiator = 'iqn.2024-01.org.example:bfv-node';
    const node = await bfvNode({ connector: initiator, volumes: [volume.id] });

    const deployed = await deploy(node.uuid, 'active');
    assert.equal(deployed.last_error, null);
    assert.equal(deployed.driver_internal_info.boot_from_volume, node.targets[0]);

    // The target holds Cinder's connection data (the CHAP secret masked by the API).
    const target = (await api(ironic.url, 'GET', `/v1/volume/targets/${node.targets[0]}`)).json;
    const props = target.properties;
    assert.equal(props.target_iqn, `iqn.2010-10.org.openstack:volume-${volume.id}`);
    assert.equal(props.target_portal, `127.0.0.1:${cinder.tgt.port}`);
    assert.equal(props.target_lun, 1);
    assert.equal(props.auth_method, 'CHAP');
    assert.equal(props.auth_password, '******');
    assert.equal(props.volume_id, volume.id);
    assert.equal(props.ironic_volume_uuid, volume.id);

    // Cinder: in use by the node's instance, with Ironic's metadata.
    const inUse = await cinder.volume(volume.id, token);
    assert.equal(inUse.status, 'in-use');
    assert.equal(inUse.attachments.length, 1);
    assert.equal(inUse.attachments[0].server_id, node.instance);
    const meta = JSON.parse(inUse.metadata[`ironic_node_${node.uuid}`]);
    assert.equal(meta.instance_uuid, node.instance);
    assert.equal(meta.last_action, 'attached');
    assert.match(meta.last_seen, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);

    // The node's iPXE script boots the iSCSI target; its credentials log in for real.
    const script = await fsp.readFile(path.join(dir, 'httpboot', node.uuid, 'config'), 'utf8');
    assert.match(script, /^goto boot_iscsi$/m);
    const hook = /^sanhook --drive 0x80 iscsi:([^:]+)::(\d+):([0-9a-f]+):(\S+) \|\| goto fail_iscsi_retry$/m.exec(script);
    assert.ok(hook, script);
    assert.deepEqual(hook.slice(1), ['127.0.0.1', String(cinder.tgt.port), '1', props.target_iqn]);
    assert.match(script, new RegExp(`^set username ${props.auth_username}$`, 'm'));
    assert.match(script, new RegExp(`^set initiator-iqn ${initiator}$`, 'm'));
    assert.match(script, /^sanboot --no-describe \|\| goto fail_iscsi_retry$/m);
    const password = /^set password (\S+)$/m.exec(script)?.[1];
    assert.ok(password);
    const login = { portal: `${hook[1]}:${hook[2]}`, iqn: hook[4], lun: hook[3], user: props.auth_username, password, initiator };
    assert.ok((await exportedTargets()).includes(props.target_iqn));
    assert.equal(await readLun(login), MARKER);
    await assert.rejects(readLun({ ...login, password: 'not-the-secret' }), /Authentication failure/);
    const log = await fsp.readFile(path.join(ironic.dir, 'stdout.log'), 'utf8');
    assert.ok(log.includes(`Successfully initialized volume ${volume.id}`));
    assert.ok(!log.includes(password), 'the CHAP secret is not logged');

    await undeploy(node.uuid);
    const detached = await cinder.volume(volume.id, token);
    assert.equal(detached.status, 'available');
    assert.deepEqual(detached.attachments, []);
    assert.equal(JSON.parse(detached.metadata[`ironic_node_${node.uuid}`]).last_action, 'detached');
    assert.ok(!(await exportedTargets()).includes(props.target_iqn), 'the export is gone');
    await assert.rejects(readLun(login));
    const left = (await api(ironic.url, 'GET', `/v1/volume/targets?node=${node.uuid}`)).json;
    assert.deepEqual(left.targets, [], 'undeploy deletes the node\'s targets');
    const after = (await api(ironic.url, 'GET', `/v1/nodes/${node.uuid}`)).json;
    assert.equal(after.driver_internal_info.boot_from_volume, undefined);
    await assert.rejects(fsp.stat(path.join(dir, 'httpboot', node.uuid, 'config')));
  });

  it('reports 29.0.5\'s validation errors, and fails the deploy of a node without a connector', async () => {
    const volume = await cinder.createVolume({ size: 1, name: 'unattached' }, await demoToken());
    const node = await bfvNode({ connector: null, volumes: [volume.id] });
    const validate = (await api(ironic.url, 'GET', `/v1/nodes/${node.uuid}/validate`)).json;
    assert.deepEqual(validate.storage, { result: false, reason: `Failed to validate cinder storage interface for node ${node.uuid}. ` +
      "In order to enable the 'iscsi_boot' capability for the node, an associated volume_connector type must be valid for iSCSI (iqn)." });

    const failed = await deploy(node.uuid, 'deploy failed');
    assert.equal(failed.last_error, `Failed to prepare to deploy: Insufficient or incompatible volume connection records for node ${node.uuid}. ` +
      'Valid connector types: wwpn, wwnn, iqn');
    assert.equal((await cinder.volume(volume.id, await demoToken())).status, 'available');

    const noCapability = await bfvNode({ connector: 'iqn.2024-01.org.example:no-cap', volumes: [volume.id], capabilities: '' });
    const v2 = (await api(ironic.url, 'GET', `/v1/nodes/${noCapability.uuid}/validate`)).json;
    assert.equal(v2.storage.reason, `Failed to validate cinder storage interface for node ${noCapability.uuid}. Volume target ` +
      `${noCapability.targets[0]} is configured for 'iscsi', however the capability 'iscsi_boot' is not set for the node.`);
  });

  it('undoes a partial attach when Cinder refuses a volume', async () => {
    const token = await demoToken();
    const root = await cinder.createVolume({ size: 1, name: 'root' }, token);
    const busy = await cinder.createVolume({ size: 1, name: 'busy' }, token);
    await cinder.action(busy.id, { 'os-reserve': null }, token);
    const node = await bfvNode({ connector: 'iqn.2024-01.org.example:partial', volumes: [root.id, busy.id] });
    const failed = await deploy(node.uuid, 'deploy failed');
    const volumeUrl = new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v3/volumes/${busy.id}/action$`);
    const prefix = `Failed to prepare to deploy: Failed to reserve volume ${busy.id} for node ${node.uuid}: BadRequestException: 400: ` +
      'Client Error for url: ';
    assert.ok(failed.last_error.startsWith(prefix), failed.last_error);
    const rest = String(failed.last_error).slice(prefix.length);
    const [url, reason] = [rest.slice(0, rest.indexOf(', ')), rest.slice(rest.indexOf(', ') + 2)];
    assert.match(url, volumeUrl);
    assert.equal(reason, 'Invalid volume: Volume status must be available to reserve, but the status is attaching.)');
    // The volume attached before the refusal was detached again; the refused one is as it was.
    const rootNow = await cinder.volume(root.id, token);
    assert.equal(rootNow.status, 'available');
    assert.deepEqual(rootNow.attachments, []);
    assert.ok(!(await exportedTargets()).includes(`iqn.2010-10.org.openstack:volume-${root.id}`), 'its export is gone');
    assert.equal((await cinder.volume(busy.id, token)).status, 'attaching');
    await cinder.action(busy.id, { 'os-unreserve': null }, token);
  });

  it('fails clearly while Cinder is down, leaves the volume untouched, and deploys once it is back', async () => {
    const token = await demoToken();
    const volume = await cinder.createVolume({ size: 1, name: 'later' }, token);
    const node = await bfvNode({ connector: 'iqn.2024-01.org.example:down', volumes: [volume.id] });
    await cinder.stopApi();
    let failed: Record<string, any>;
    try {
      failed = await deploy(node.uuid, 'deploy failed');
    } finally {
      await cinder.startApi();
    }
    assert.equal(failed.last_error, 'Failed to prepare to deploy. Exception: Unable to find a version discovery document at ' +
      `${cinder.url}/v3, the service is unavailable or misconfigured. Required version range (any - any), version hack disabled.`);
    assert.equal(failed.reservation, null);
    const untouched = await cinder.volume(volume.id, token);
    assert.equal(untouched.status, 'available');
    assert.deepEqual(untouched.attachments, []);

    const deployed = await deploy(node.uuid, 'active');
    assert.equal(deployed.last_error, null);
    assert.equal((await cinder.volume(volume.id, token)).status, 'in-use');
    await undeploy(node.uuid);
    assert.equal((await cinder.volume(volume.id, token)).status, 'available');
  });
});
