/**
 * /v1/runbooks (1.92) and the provision verbs of Ironic 2025.1 that use them or came with it:
 * `runbook` for clean and service, `service` with service_steps (1.87) and `unhold` (1.85), against
 * a real server with the fake-hardware conductor. Messages are Ironic 29.0.5's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as nodesRepo from '../../src/db/repositories/nodes';
import { countRows, faultOf, makeNode } from './support/fixtures';
import { startTestServer, type TestServer } from './support/server';

const V = '1.96';
const R1 = 'f0000000-0000-4000-8000-0000000000a1';
const step = (iface: string, name: string, order: number | string, args?: Record<string, unknown>) =>
  ({ interface: iface, step: name, ...(args ? { args } : {}), order });

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

describe('/v1/runbooks', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('creates a runbook, showing step orders as given and masking secrets', async () => {
    const r = await s.request('POST', '/v1/runbooks', {
      version: V, body: { uuid: R1, name: 'CUSTOM_RB', description: 'ignored', steps: [
        step('vendor', 'log_passthrough', '1', { password: 'p', a: 1 }), step('bios', 'factory_reset', 0)] },
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${s.url}/v1/runbooks/${R1}`);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'name', 'extra', 'public', 'owner',
      'disable_ramdisk', 'links', 'steps']);
    assert.deepEqual([r.json.extra, r.json.public, r.json.owner, r.json.disable_ramdisk], [{}, false, null, false]);
    assert.deepEqual(r.json.steps, [
      { interface: 'vendor', step: 'log_passthrough', args: { password: '******', a: 1 }, order: '1' },
      { interface: 'bios', step: 'factory_reset', args: null, order: 0 }]);
    const shown = await s.request('GET', '/v1/runbooks/CUSTOM_RB', { version: V });
    assert.deepEqual(shown.json.steps.map((x: { order: number; args: unknown }) => [x.order, x.args]),
      [[1, { password: '******', a: 1 }], [0, {}]]);
  });

  it('validates bodies with Ironic\'s messages without writing', async () => {
    const before = await countRows(s.db, 'runbooks');
    const cases: [unknown, number, string][] = [
      [{ name: 'CUSTOM_RB', steps: [step('bios', 'a', 1)] }, 409, 'A runbook with name CUSTOM_RB already exists.'],
      [{ name: 'bad', steps: [step('bios', 'a', 1)] }, 400,
        "Schema error for runbook: 'bad' is not valid under any of the given schemas. Possible root cause: 'bad' does not match '^CUSTOM_[A-Z0-9_]+$'"],
      [{ name: 'CUSTOM_X', steps: [{ interface: 'bios', step: 'a' }] }, 400, "Schema error for runbook: 'order' is a required property"],
      [{ name: 'CUSTOM_X', steps: [step('boot', 'a', 1)] }, 400,
        "Schema error for runbook: 'boot' is not one of ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid']"],
      [{ name: 'CUSTOM_X', steps: [step('bios', 'a', 1), step('bios', 'a', 2)] }, 400,
        'Deploy template invalid: Duplicate deploy steps. A template cannot have multiple deploy steps with the same interface and step. Duplicates: interface: bios, step: a.'],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.request('POST', '/v1/runbooks', { version: V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    assert.equal((await s.request('POST', '/v1/runbooks', { version: '1.91', body: {} })).status, 405);
    assert.equal((await s.request('GET', '/v1/runbooks', { version: '1.91' })).status, 404);
    assert.equal(await countRows(s.db, 'runbooks'), before);
  });

  it('patches: an owner only on a private runbook, public clears the owner, steps keep unchanged rows first', async () => {
    const patch = (body: unknown) => s.request('PATCH', '/v1/runbooks/CUSTOM_RB', { version: V, body });
    assert.equal(faultOf((await patch([{ op: 'replace', path: '/disable_ramdisk', value: true }])).json),
      'Cannot patch /disable_ramdisk. Only the following can be updated: extra, name, steps, description, public, owner');
    assert.equal((await patch([{ op: 'add', path: '/owner', value: 'p1' }])).json.owner, 'p1');
    const both = await patch([{ op: 'replace', path: '/public', value: true }, { op: 'add', path: '/owner', value: 'p2' }]);
    assert.equal(faultOf(both.json), "Couldn't apply patch '[{'op': 'replace', 'path': '/public', 'value': True}, " +
      "{'op': 'add', 'path': '/owner', 'value': 'p2'}]'. Reason: There cannot be an owner for a public runbook");
    const pub = await patch([{ op: 'replace', path: '/public', value: true }]);
    assert.deepEqual([pub.json.public, pub.json.owner], [true, null]);
    const steps = await patch([{ op: 'replace', path: '/steps/1/order', value: 5 },
      { op: 'add', path: '/steps/-', value: step('raid', 'delete_configuration', 2, {}) }]);
    assert.deepEqual(steps.json.steps.map((x: { interface: string; order: number }) => [x.interface, x.order]),
      [['vendor', 1], ['bios', 5], ['raid', 2]]);
    assert.equal(faultOf((await patch([{ op: 'remove', path: '/steps/0/order' }])).json),
      "Schema error for patch: 'order' is a required property");
  });

  it('lists with defaults and pagination, then deletes', async () => {
    const list = await s.request('GET', '/v1/runbooks?limit=1', { version: V });
    assert.deepEqual(Object.keys(list.json.runbooks[0]), ['uuid', 'name', 'links']);
    assert.equal(list.json.next, `${s.url}/v1/runbooks?sort_key=id&sort_dir=asc&fields=uuid,name&limit=1&marker=${R1}`);
    assert.equal(faultOf((await s.request('GET', '/v1/runbooks?sort_key=steps', { version: V })).json),
      'The sort_key value steps is an invalid field for sorting');
    assert.equal((await s.request('DELETE', `/v1/runbooks/${R1}`, { version: V })).status, 204);
    assert.equal(await countRows(s.db, 'runbook_steps'), 0);
    assert.equal(faultOf((await s.request('GET', '/v1/runbooks/CUSTOM_RB', { version: V })).json),
      'Runbook CUSTOM_RB could not be found.');
  });
});

describe('provision verbs of 2025.1', () => {
  let s: TestServer;
  let uuid: string;
  const provision = (body: unknown, version = V) =>
    s.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version, body });
  const node = () => nodesRepo.get(s.db, uuid);

  before(async () => {
    s = await startTestServer();
    uuid = (await makeNode(s.db, { name: 'svc', provision_state: 'manageable', power_state: 'power on' })).uuid;
    await s.request('POST', '/v1/runbooks', { version: V, body: { name: 'CUSTOM_CLEAN', steps: [
      step('vendor', 'log_passthrough', 0, {}), step('deploy', 'hold', 1, {})] } });
  });
  after(async () => { await s.stop(); });

  it('runs a runbook\'s steps as clean steps once the node carries its name as a trait', async () => {
    assert.equal((await provision({ target: 'clean', runbook: 'CUSTOM_CLEAN' }, '1.91')).status, 406);
    assert.equal(faultOf((await provision({ target: 'clean', runbook: 'CUSTOM_NONE' })).json), 'Runbook CUSTOM_NONE could not be found.');
    assert.equal(faultOf((await provision({ target: 'clean', runbook: 'CUSTOM_CLEAN' })).json),
      `This runbook has not been approved for use on this node ${uuid}. Please ask an administrator to add it to your node traits.`);
    assert.equal((await s.request('PUT', `/v1/nodes/${uuid}/traits/CUSTOM_CLEAN`, { version: V })).status, 204);
    assert.equal(faultOf((await provision({ target: 'clean', runbook: 'CUSTOM_CLEAN', clean_steps: [{ interface: 'deploy', step: 'x' }] })).json),
      'Please provide either "clean_steps" or a runbook, but not both.');
    // Ironic 2025.1 hands every runbook's disable_ramdisk to its check, which only manual cleaning passes.
    assert.equal(faultOf((await provision({ target: 'provide', runbook: 'CUSTOM_CLEAN' })).json),
      'disable_ramdisk is supported only with manual cleaning');
    assert.equal((await node()).provision_state, 'manageable');
    assert.equal((await provision({ target: 'clean', runbook: 'CUSTOM_CLEAN' })).status, 202);
    // The reserved `hold` step is left out when the steps are validated: cleaning runs through.
    await waitFor(async () => (await node()).provision_state === 'manageable' && (await node()).reservation === null);
    assert.equal((await node()).last_error, null);
  });

  it('services an active node with service_steps and refuses what Ironic refuses', async () => {
    assert.equal(faultOf((await provision({ target: 'service', service_steps: [step('vendor', 'log_passthrough', 0)] })).json),
      `The requested action "service" can not be performed on node "${uuid}" while it is in state "manageable".`);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'active' });
    const cases: [unknown, string, number, string][] = [
      [{ target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] }, '1.86', 406, 'Request not acceptable.'],
      [{ target: 'service' }, V, 400, '"service_steps" is required when setting target provision state to service'],
      [{ target: 'rebuild', service_steps: [{ interface: 'vendor', step: 'x' }] }, V, 400,
        '"service_steps" is only valid when setting target provision state to service'],
      [{ target: 'service', runbook: 'CUSTOM_CLEAN' }, V, 400, 'disable_ramdisk is supported only with manual cleaning'],
    ];
    for (const [body, version, status, message] of cases) {
      const r = await provision(body, version);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message, JSON.stringify(body));
    }
    const bad = await provision({ target: 'service', service_steps: [{ interface: 'boot', step: 'x' }] });
    assert.match(faultOf(bad.json), /^Invalid service_steps: 'boot' is not one of \['vendor', 'power', 'management', 'firmware'/);
    assert.equal((await provision({ target: 'service', service_steps: [{ interface: 'vendor', step: 'trigger_servicewait' }] })).status, 202);
    await waitFor(async () => (await node()).provision_state === 'service wait' && (await node()).reservation === null);
    assert.equal(faultOf((await provision({ target: 'unhold' })).json),
      `The requested action "unhold" can not be performed on node "${uuid}" while it is in state "service wait".`);
    assert.equal((await provision({ target: 'abort' })).status, 202);
    await waitFor(async () => (await node()).provision_state === 'service failed' && (await node()).reservation === null);
    assert.equal((await provision({ target: 'service', service_steps: [{ interface: 'vendor', step: 'log_passthrough' }] })).status, 202);
    await waitFor(async () => (await node()).provision_state === 'active' && (await node()).reservation === null);
  });

  it('unholds a held node from 1.85 on, answering 406 below only once the state allows it', async () => {
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'clean hold', target_provision_state: 'manageable' });
    assert.equal((await provision({ target: 'unhold' }, '1.84')).status, 406);
    assert.equal((await provision({ target: 'unhold' })).status, 202);
    await waitFor(async () => (await node()).provision_state === 'clean wait' && (await node()).reservation === null);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'enroll', target_provision_state: null });
    assert.equal((await provision({ target: 'unhold' }, '1.84')).status, 400);
  });
});
