import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, heartbeatConductor, makeNode } from './support/fixtures';
import type { NodeRecord } from '../../src/db/models';

const V = '1.82';

describe('/v1/lookup and /v1/heartbeat', () => {
  let s: TestServer;
  let waiting: NodeRecord;
  let idle: NodeRecord;
  before(async () => {
    s = await startTestServer();
    await heartbeatConductor(s.db);
    waiting = await makeNode(s.db, { name: 'rd-wait', provision_state: 'wait call-back', properties: { cpus: 2 },
      instance_info: { image_source: 'img', image_url: 'http://secret' } });
    idle = await makeNode(s.db, { name: 'rd-idle', provision_state: 'manageable' });
    await s.request('POST', '/v1/ports', { version: V, body: { address: '52:54:00:dd:00:01', node_uuid: waiting.uuid } });
  });
  after(async () => { await s.stop(); });

  it('finds the node by MAC or uuid and returns the agent config', async () => {
    const byMac = await s.request('GET', '/v1/lookup?addresses=52:54:00:DD:00:01,not-a-mac', { version: V });
    assert.equal(byMac.status, 200);
    assert.deepEqual(Object.keys(byMac.json), ['node', 'config']);
    assert.deepEqual(Object.keys(byMac.json.node), ['uuid', 'properties', 'instance_info', 'driver_internal_info', 'links']);
    assert.equal(byMac.json.node.uuid, waiting.uuid);
    assert.deepEqual(byMac.json.node.instance_info, { image_source: 'img', image_url: '******' });
    assert.deepEqual(Object.keys(byMac.json.config), ['metrics', 'metrics_statsd', 'heartbeat_timeout', 'agent_token',
      'agent_token_required', 'disable_deep_image_inspection', 'permitted_image_formats', 'enable_bios_bootloader_install']);
    assert.equal(typeof byMac.json.config.agent_token, 'string');
    assert.equal(byMac.json.config.heartbeat_timeout, 300);
    const byUuid = await s.request('GET', `/v1/lookup?node_uuid=${waiting.uuid}`, { version: V });
    assert.equal(byUuid.json.node.uuid, waiting.uuid);
  });

  it('refuses incomplete, unknown and not-allowed lookups', async () => {
    const cases: [string, string, number, string][] = [
      ['/v1/lookup', V, 400, "At least one of 'addresses' and 'node_uuid' parameters is required"],
      ['/v1/lookup?addresses=zz', V, 400, "At least one of 'addresses' and 'node_uuid' parameters is required"],
      ['/v1/lookup?node_uuid=nope', V, 400, 'Expected UUID for node_uuid: nope'],
      ['/v1/lookup?addresses=52:54:00:dd:00:99', V, 404, 'Resource could not be found.'],
      [`/v1/lookup?node_uuid=${idle.uuid}`, V, 404, 'Resource could not be found.'],
      [`/v1/lookup?node_uuid=${waiting.uuid}`, '1.21', 404, 'Resource could not be found.'],
    ];
    for (const [path, version, status, message] of cases) {
      const r = await s.request('GET', path, { version });
      assert.equal(r.status, status, path);
      assert.equal(faultOf(r.json), message);
    }
  });

  it('validates heartbeats before handing them to the conductor', async () => {
    const cases: [unknown, string, string, number, string][] = [
      [{ callback_url: 'http://127.0.0.1:9999' }, 'rd-wait', V, 400, 'Agent token is required for heartbeat processing.'],
      [{ agent_token: 'x' }, 'rd-wait', V, 400, 'Missing mandatory parameter: callback_url'],
      [{ callback_url: 'u', agent_token: 'x', bogus: 1 }, 'rd-wait', V, 400, 'Unexpected arguments: bogus'],
      [{ callback_url: 'u', agent_token: 'x', agent_version: '9' }, 'rd-wait', '1.35', 400, 'Field "agent_version" not recognised'],
      [{ callback_url: 'u', agent_token: 'x', agent_status: 'bogus' }, 'rd-wait', V, 400,
        'Agent status is invalid. Valid states are start,end,error.'],
      [{ callback_url: 'u', agent_token: 'x' }, 'nosuch', V, 404, 'Node nosuch could not be found.'],
      [{ callback_url: 'u', agent_token: 'x' }, 'rd-wait', '1.21', 404, 'Resource could not be found.'],
    ];
    for (const [body, node, version, status, message] of cases) {
      const r = await s.request('POST', `/v1/heartbeat/${node}`, { version, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
  });

  const heartbeat = (node: NodeRecord, token: string) => s.request('POST', `/v1/heartbeat/${node.uuid}`, {
    version: V, body: { callback_url: 'http://127.0.0.1:9999', agent_token: token, agent_version: '9.0' },
  });
  const lookupToken = async (node: NodeRecord, version = V): Promise<unknown> => {
    const r = await s.request('GET', `/v1/lookup?node_uuid=${node.uuid}`, { version });
    assert.equal(r.status, 200, r.text);
    return r.json.config.agent_token;
  };

  it('accepts a heartbeat carrying the agent token with an empty 202', async () => {
    const node = await makeNode(s.db, { provision_state: 'wait call-back' });
    const r = await heartbeat(node, String(await lookupToken(node)));
    assert.equal(r.status, 202, r.text);
    assert.equal(r.text, '');
  });

  it('hands the agent token out once; later lookups answer ****** and only the holder heartbeats', async () => {
    const node = await makeNode(s.db, { provision_state: 'clean wait' });
    const token = await lookupToken(node);
    assert.equal(typeof token, 'string');
    assert.notEqual(token, '******');
    assert.equal(await lookupToken(node), '******');
    assert.equal(await lookupToken(node), '******');
    // An older API version reads no token back either.
    assert.equal(await lookupToken(node, '1.61'), '******');
    const stolen = await heartbeat(node, '******');
    assert.equal(stolen.status, 400);
    assert.equal(faultOf(stolen.json), 'Invalid or missing agent token received.');
    assert.equal((await heartbeat(node, String(token))).status, 202);
  });

  it('never hands out a token pregenerated for virtual media, which keeps working', async () => {
    const node = await makeNode(s.db, { provision_state: 'wait call-back',
      driver_internal_info: { agent_secret_token: 'pregenerated-secret', agent_secret_token_pregenerated: true } });
    assert.equal(await lookupToken(node), '******');
    assert.equal((await heartbeat(node, 'pregenerated-secret')).status, 202);
  });

  it('a fast-track agent gets the token once, and a returning agent ******', async () => {
    const node = await makeNode(s.db, { provision_state: 'manageable', driver_info: { fast_track: true } });
    assert.equal(await lookupToken(node, '1.61'), null);
    const token = await lookupToken(node);
    assert.equal(typeof token, 'string');
    assert.equal(await lookupToken(node), '******');
    const stored = await s.request('GET', `/v1/nodes/${node.uuid}?fields=driver_internal_info`, { version: V });
    assert.equal(stored.json.driver_internal_info.agent_secret_token, '******');
  });
});
