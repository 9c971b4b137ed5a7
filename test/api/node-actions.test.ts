/**
 * /v1/nodes/{ident}/states, provisioning, management, maintenance, traits and VIFs against a real
 * server with the fake-hardware conductor: status codes, version gates and Ironic's messages.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer as startNodeServer } from './support/server';
import type { TestServer } from './support/server';
import * as nodesRepo from '../../src/db/repositories/nodes';
import type { DeployRequest } from '../../src/rpc/conductor-api';

const V = '1.82';

function fault(res: { json: any }): string {
  return JSON.parse(res.json.error_message).faultstring;
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

describe('node actions', () => {
  let s: TestServer;
  let uuid: string;
  const deploys: DeployRequest[] = [];

  before(async () => {
    s = await startNodeServer({}, (api) => new Proxy(api, {
      get(target, name, receiver) {
        if (name === 'doNodeDeploy') {
          return (node: string, request: DeployRequest) => { deploys.push(request); return target.doNodeDeploy(node, request); };
        }
        // Calls ConductorApi does not declare yet, offered here the way fake-hardware answers them.
        if (name === 'getSupportedIndicators') {
          return async () => ({ system: { led: { readonly: false, states: ['blinking', 'off', 'on'] } } });
        }
        if (name === 'vendorPassthru') {
          return async (_node: string, method: string) => ({ async: method === 'second_method', return: null });
        }
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }));
    uuid = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'a1' } })).json.uuid;
  });
  after(async () => { await s.stop(); });

  it('shows the states summary with version-gated fields', async () => {
    const res = await s.request('GET', '/v1/nodes/a1/states', { version: V });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json), ['console_enabled', 'last_error', 'power_state', 'provision_state',
      'target_power_state', 'target_provision_state', 'provision_updated_at', 'raid_config', 'target_raid_config',
      'boot_mode', 'secure_boot']);
    const old = await s.request('GET', '/v1/nodes/a1/states', { version: '1.11' });
    assert.equal('raid_config' in old.json, false);
    const bad = await s.request('GET', '/v1/nodes/bad%20name/states', { version: V });
    assert.equal(bad.status, 400);
    assert.equal(fault(bad), 'Expected UUID or name for node_ident: bad name');
  });

  it('changes power with 202 and Location, refusing bad targets and old-version soft targets', async () => {
    const ok = await s.request('PUT', '/v1/nodes/a1/states/power', { version: V, body: { target: 'power on' } });
    assert.equal(ok.status, 202);
    assert.equal(ok.text, '');
    assert.equal(ok.headers.get('location'), `${s.url}/v1/nodes/a1/states`);
    await waitFor(async () => (await nodesRepo.get(s.db, uuid)).power_state === 'power on');
    const bogus = await s.request('PUT', '/v1/nodes/a1/states/power', { version: V, body: { target: 'bogus' } });
    assert.equal(bogus.status, 400);
    assert.equal(fault(bogus), 'The requested action "bogus" can not be performed on node "a1" while it is in state "power on".');
    assert.equal((await s.request('PUT', '/v1/nodes/a1/states/power', { version: '1.26', body: { target: 'soft power off' } })).status, 406);
    const timeout = await s.request('PUT', '/v1/nodes/a1/states/power', { version: V, body: { target: 'power off', timeout: 0 } });
    assert.equal(fault(timeout), 'timeout has to be positive integer');
    const missing = await s.request('PUT', '/v1/nodes/a1/states/power', { version: V, body: {} });
    assert.equal(fault(missing), 'Missing mandatory parameter: target');
    const extra = await s.request('PUT', '/v1/nodes/a1/states/power', { version: V, body: { target: 'power on', foo: 1 } });
    assert.equal(fault(extra), 'Unexpected arguments: foo');
  });

  it('gates provision verbs by version and state with Ironic\'s messages, changing nothing', async () => {
    const before = await nodesRepo.get(s.db, uuid);
    const cases: [string, unknown, number, string | null][] = [
      [V, { target: 'active' }, 400, `The requested action "active" can not be performed on node "${uuid}" while it is in state "enroll".`],
      [V, { target: 'bogus' }, 400, `The requested action "bogus" can not be performed on node "${uuid}" while it is in state "enroll".`],
      ['1.3', { target: 'manage' }, 406, null],
      [V, { target: 'manage', configdrive: 'abc' }, 400, 'Adding a config drive is only supported when setting provision state to active, rebuild'],
      [V, { target: 'manage', configdrive: 5 }, 400,
        "Expected types <class 'NoneType'>, <class 'dict'>, <class 'str'> for configdrive: 5"],
      [V, { target: 'manage', clean_steps: [{ interface: 'deploy', step: 'x' }] }, 400,
        '"clean_steps" is only valid when setting target provision state to clean'],
      [V, { target: 'manage', rescue_password: 'x' }, 400, '"rescue_password" is only valid when setting target provision state to rescue'],
      [V, { target: 'manage', deploy_steps: [{ interface: 'deploy' }] }, 400,
        '"deploy_steps" is only valid when setting target provision state to active or rebuild'],
      [V, { target: 'manage', extra_data: 'x' }, 400, "Expected types <class 'NoneType'>, <class 'dict'> for extra_data: x"],
      [V, { target: 'manage', extra_data: { a: 1 } }, 400,
        '"extra_data" is only valid when setting target provision state to active, rebuild or deploy'],
      [V, {}, 400, 'Missing mandatory parameter: target'],
    ];
    for (const [version, body, status, message] of cases) {
      const res = await s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version, body });
      assert.equal(res.status, status, JSON.stringify(body));
      if (message !== null) assert.equal(fault(res), message, JSON.stringify(body));
    }
    assert.deepEqual(await nodesRepo.get(s.db, uuid), before);
  });

  it('checks clean, rescue and deploy bodies on nodes in the right states', async () => {
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'manageable' });
    const noSteps = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V, body: { target: 'clean' } });
    assert.equal(fault(noSteps), '"clean_steps" is required when setting target provision state to clean');
    const badStep = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V,
      body: { target: 'clean', clean_steps: [{ interface: 'nope', step: 'x' }] } });
    assert.equal(badStep.status, 400);
    assert.match(fault(badStep), /^Invalid clean_steps: 'nope' is not one of \['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid'\]/);
    const ramdisk = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: '1.69',
      body: { target: 'clean', clean_steps: [], disable_ramdisk: true } });
    assert.equal(ramdisk.status, 406);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'active' });
    const noPassword = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V, body: { target: 'rescue' } });
    assert.equal(fault(noPassword), 'A non-empty "rescue_password" is required when setting target provision state to rescue');
    const oldRescue = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: '1.37', body: { target: 'rescue', rescue_password: 'x' } });
    assert.equal(oldRescue.status, 406);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'available' });
    const badDrive = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V, body: { target: 'active', configdrive: 'not base64!' } });
    assert.equal(fault(badDrive), 'Invalid configdrive format: it is neither a JSON, nor a URL, nor a base64 string');
    const oldDict = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: '1.55', body: { target: 'active', configdrive: { meta_data: {} } } });
    assert.equal(fault(oldDict), 'Providing a JSON object for configdrive is only supported starting with API version 1.56');
    assert.equal(deploys.length, 0);
    const extraData = { admin_password: 'pw', files: [{ path: '/etc/motd', content: 'hi' }] };
    const deploy = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V,
      body: { target: 'active', configdrive: { meta_data: { k: 'v' } }, extra_data: extraData } });
    assert.equal(deploy.status, 202);
    assert.deepEqual(deploys, [{ rebuild: false, configdrive: { meta_data: { k: 'v' } }, extraData }]);
    await waitFor(async () => (await nodesRepo.get(s.db, uuid)).provision_state === 'active');
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'enroll', target_provision_state: null });
  });

  it('moves a node through manage with 202 and Location', async () => {
    const res = await s.request('PUT', '/v1/nodes/a1/states/provision', { version: V, body: { target: 'manage' } });
    assert.equal(res.status, 202);
    assert.equal(res.headers.get('location'), `${s.url}/v1/nodes/a1/states`);
    await waitFor(async () => (await nodesRepo.get(s.db, uuid)).provision_state === 'manageable');
  });

  it('sets and clears maintenance through the conductor', async () => {
    const put = await s.request('PUT', '/v1/nodes/a1/maintenance', { version: V, body: { reason: 'broken' } });
    assert.equal(put.status, 202);
    let node = await nodesRepo.get(s.db, uuid);
    assert.equal(node.maintenance, true);
    assert.equal(node.maintenance_reason, 'broken');
    assert.equal((await s.request('DELETE', '/v1/nodes/a1/maintenance', { version: V })).status, 202);
    node = await nodesRepo.get(s.db, uuid);
    assert.equal(node.maintenance, false);
    assert.equal(node.maintenance_reason, null);
  });

  it('manages traits with Ironic\'s validation', async () => {
    assert.equal((await s.request('GET', '/v1/nodes/a1/traits', { version: '1.36' })).status, 406);
    const put = await s.request('PUT', '/v1/nodes/a1/traits', { version: V, body: { traits: ['CUSTOM_A', 'HW_CPU_X86_AVX'] } });
    assert.equal(put.status, 204);
    const one = await s.request('PUT', '/v1/nodes/a1/traits/CUSTOM_B', { version: V });
    assert.equal(one.status, 204);
    assert.equal(one.headers.get('location'), `${s.url}/v1/nodes/a1/traits/CUSTOM_B`);
    const bad = await s.request('PUT', '/v1/nodes/a1/traits/bad', { version: V });
    assert.equal(fault(bad), "Schema error for trait: 'bad' is not valid under any of the given schemas. " +
      "Possible root cause: 'bad' does not match '^CUSTOM_[A-Z0-9_]+$'");
    const neither = await s.request('PUT', '/v1/nodes/a1/traits', { version: V, body: {} });
    assert.equal(neither.status, 400);
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1/traits', { version: V })).json,
      { traits: ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX'] });
    const missing = await s.request('DELETE', '/v1/nodes/a1/traits/CUSTOM_X', { version: V });
    assert.equal(missing.status, 404);
    assert.equal(fault(missing), `Node ${uuid} doesn't have a trait 'CUSTOM_X'`);
    assert.equal((await s.request('DELETE', '/v1/nodes/a1/traits/CUSTOM_A', { version: V })).status, 204);
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1?fields=traits', { version: V })).json.traits, ['CUSTOM_B', 'HW_CPU_X86_AVX']);
    assert.equal((await s.request('DELETE', '/v1/nodes/a1/traits', { version: V })).status, 204);
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1/traits', { version: V })).json, { traits: [] });
  });

  it('gates VIFs, boot mode and NMI by version', async () => {
    assert.equal((await s.request('GET', '/v1/nodes/a1/vifs', { version: V })).json.vifs.length, 0);
    const old = await s.request('GET', '/v1/nodes/a1/vifs', { version: '1.27' });
    assert.equal(old.status, 404);
    assert.equal(old.headers.get('x-openstack-ironic-api-version'), null);
    const badVif = await s.request('POST', '/v1/nodes/a1/vifs', { version: V, body: { id: 'bad id' } });
    assert.equal(fault(badVif), 'Expected UUID or name for id: bad id');
    const both = await s.request('POST', '/v1/nodes/a1/vifs', { version: V, body: { id: 'v1', port_uuid: 'x', portgroup_uuid: 'y' } });
    assert.equal(fault(both), 'Cannot specify both port_uuid and portgroup_uuid');
    const bootMode = await s.request('PUT', '/v1/nodes/a1/states/boot_mode', { version: '1.75', body: { target: 'uefi' } });
    assert.equal(bootMode.status, 404);
    assert.equal(fault(bootMode), 'This endpoint is supported starting with the API version 1.76');
    const badMode = await s.request('PUT', '/v1/nodes/a1/states/boot_mode', { version: V, body: { target: 'bogus' } });
    assert.equal(fault(badMode), 'Invalid boot mode bogus requested for node. Allowed boot modes are: bios, uefi');
    assert.equal((await s.request('PUT', '/v1/nodes/a1/management/inject_nmi', { version: '1.28', body: {} })).status, 404);
    const raid = await s.request('PUT', '/v1/nodes/a1/states/raid', { version: V, body: [1] });
    assert.equal(fault(raid), "Expected types <class 'dict'> for target_raid_config: [1]");
  });

  it('shapes indicators and vendor passthru answers from the conductor', async () => {
    const indicators = await s.request('GET', '/v1/nodes/a1/management/indicators', { version: V });
    assert.deepEqual(indicators.json, { indicators: [{ name: 'led@system', component: 'system', readonly: false,
      states: ['blinking', 'off', 'on'], links: [
        { href: `${s.url}/v1/nodes/a1/management/indicators/led@system`, rel: 'self' },
        { href: `${s.url}/nodes/a1/management/indicators/led@system`, rel: 'bookmark' }] }] });
    const noMethod = await s.request('POST', '/v1/nodes/a1/vendor_passthru', { version: V, body: {} });
    assert.equal(fault(noMethod), 'Missing mandatory parameter: method');
    const asyncCall = await s.request('POST', '/v1/nodes/a1/vendor_passthru?method=second_method', { version: V, body: { bar: 'kazoo' } });
    assert.equal(asyncCall.status, 202);
    assert.equal(asyncCall.text, '');
    const syncCall = await s.request('POST', '/v1/nodes/a1/vendor_passthru?method=third_method_sync', { version: V, body: {} });
    assert.equal(syncCall.status, 200);
    assert.equal(syncCall.text, 'null');
  });

  it('answers the read-only sub-resources', async () => {
    const boot = await s.request('GET', '/v1/nodes/a1/management/boot_device/supported', { version: V });
    assert.equal(boot.status, 200);
    assert.ok(Array.isArray(boot.json.supported_boot_devices));
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1/states/console', { version: V })).json,
      { console_enabled: false, console_info: null });
    const volume = await s.request('GET', '/v1/nodes/a1/volume', { version: V });
    assert.deepEqual(Object.keys(volume.json), ['links', 'connectors', 'targets']);
    assert.equal((await s.request('GET', '/v1/nodes/a1/volume', { version: '1.31' })).status, 404);
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1/bios', { version: V })).json, { bios: [] });
    assert.deepEqual((await s.request('GET', '/v1/nodes/a1/history', { version: V })).json.history.length >= 0, true);
    const inv = await s.request('GET', '/v1/nodes/a1/inventory', { version: V });
    assert.equal(inv.status, 404);
    const validate = await s.request('GET', '/v1/nodes/a1/validate', { version: V });
    assert.equal(validate.status, 200);
    assert.equal(validate.json.power.result, true);
  });
});
