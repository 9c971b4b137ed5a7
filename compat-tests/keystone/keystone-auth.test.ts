/**
 * auth_strategy = keystone against a real Keystone (Debian's python3-keystone): keystonemiddleware's
 * 401s, public routes, Ironic 21.4.4's default policy for system admin/reader and project owners,
 * and Debian's openstack/baremetal CLIs authenticating with passwords through Keystone's catalog.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ironicKeystoneConf, ironicServiceUser, startKeystone, Keystone } from '../support/keystone';
import { startTarget, Target } from '../support/target';

const UNAUTHORIZED_BODY = '{"error": {"code": 401, "title": "Unauthorized", "message": "The request you have made requires authentication."}}';

interface Reply { status: number; headers: Headers; text: string; json: () => Record<string, unknown> }

let ks: Keystone;
let cliHome = '';
let ironic: Target;
let projectA = '';
let projectB = '';
const tokens: Record<string, string> = {};

async function call(method: string, route: string, token?: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': '1.82' };
  if (token) headers['X-Auth-Token'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${ironic.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

function faultstring(reply: Reply): string {
  return (JSON.parse(reply.json().error_message as string) as { faultstring: string }).faultstring;
}

function keystoneConf(url: string): string {
  return `${ironicKeystoneConf(url)}memcached_servers = 127.0.0.1:11211
token_cache_time = 300
`;
}

before(async () => {
  ks = await startKeystone();
  await ironicServiceUser(ks);
  await ks.createUser('sysreader', { systemRoles: ['reader'] });
  await ks.createUser('owner-a', { project: 'proj-a', projectRoles: ['member'] });
  await ks.createUser('owner-b', { project: 'proj-b', projectRoles: ['member'] });
  await ks.createUser('manager-a', { project: 'proj-a', projectRoles: ['manager', 'reader'] });
  projectA = await ks.createProject('proj-a');
  projectB = await ks.createProject('proj-b');
  tokens.admin = await ks.adminToken();
  tokens.reader = await ks.token({ user: 'sysreader', password: 'sysreader-password', system: true });
  tokens.ownerA = await ks.token({ user: 'owner-a', password: 'owner-a-password', project: 'proj-a' });
  tokens.ownerB = await ks.token({ user: 'owner-b', password: 'owner-b-password', project: 'proj-b' });
  tokens.managerA = await ks.token({ user: 'manager-a', password: 'manager-a-password', project: 'proj-a' });
  cliHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ks-cli-home-'));
  ironic = await startTarget({ kind: 'ironic-ts', extraConf: keystoneConf(ks.url) });
  await ks.registerService('baremetal', 'ironic', ironic.url);
});

after(async () => {
  await ironic?.stop();
  await ks?.stop();
  if (cliHome) fs.rmSync(cliHome, { recursive: true, force: true });
});

describe('keystone auth_token', () => {
  it('leaves the public routes open', async () => {
    assert.equal((await call('GET', '/')).status, 200);
    const v1 = await call('GET', '/v1');
    assert.equal(v1.status, 200);
    assert.equal((v1.json().id as string), 'v1');
    assert.equal((await call('GET', '/v1/')).status, 200);
    // The agent's routes reach Ironic's own handling (not found here), never the 401.
    const lookup = await call('GET', '/v1/lookup?addresses=52:54:00:12:34:56');
    assert.equal(lookup.status, 404, lookup.text);
    const heartbeat = await call('POST', '/v1/heartbeat/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', undefined, { callback_url: 'http://10.0.0.2:9999' });
    assert.equal(heartbeat.status, 404, heartbeat.text);
  });

  it('answers a request without a token with keystonemiddleware\'s 401', async () => {
    const reply = await call('GET', '/v1/nodes');
    assert.equal(reply.status, 401);
    assert.equal(reply.text, UNAUTHORIZED_BODY);
    assert.equal(reply.headers.get('www-authenticate'), `Keystone uri="${ks.url}"`);
    assert.equal(reply.headers.get('content-type'), 'application/json; charset=UTF-8');
    assert.equal(reply.headers.get('openstack-request-id'), null);
    // Unversioned paths are not public: Ironic matches the raw path.
    assert.equal((await call('GET', '/nodes')).status, 401);
  });

  it('answers 401 to a token Keystone does not know', async () => {
    const reply = await call('GET', '/v1/nodes', 'gAAAAABnot-a-real-token');
    assert.equal(reply.status, 401);
    assert.equal(reply.text, UNAUTHORIZED_BODY);
  });

  it('lets a system admin create, read, update and delete nodes', async () => {
    const created = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', name: 'ks-admin-node' });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json().uuid as string;
    assert.equal((await call('GET', `/v1/nodes/${uuid}`, tokens.admin)).status, 200);
    const patched = await call('PATCH', `/v1/nodes/${uuid}`, tokens.admin, [{ op: 'add', path: '/extra/k', value: 'v' }]);
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json().extra, { k: 'v' });
    assert.equal((await call('DELETE', `/v1/nodes/${uuid}`, tokens.admin)).status, 204);
    assert.equal((await call('GET', `/v1/drivers`, tokens.admin)).status, 200);
    assert.equal((await call('GET', `/v1/conductors`, tokens.admin)).status, 200);
  });

  it('lets a system reader read but not write', async () => {
    assert.equal((await call('GET', '/v1/nodes', tokens.reader)).status, 200);
    assert.equal((await call('GET', '/v1/drivers', tokens.reader)).status, 200);
    const denied = await call('POST', '/v1/nodes', tokens.reader, { driver: 'fake-hardware' });
    assert.equal(denied.status, 403);
    assert.equal(faultstring(denied), 'Access was denied to the following resource: baremetal:node:create');
    assert.ok(denied.headers.get('openstack-request-id'));
    const port = await call('POST', '/v1/ports', tokens.reader, { address: '52:54:00:00:00:01', node_uuid: '00000000-0000-0000-0000-000000000000' });
    assert.equal(port.status, 403);
    assert.equal(faultstring(port), 'Access was denied to the following resource: baremetal:port:create');
  });

  it('shows project-scoped owners only their own nodes', async () => {
    const a = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', name: 'node-a', owner: projectA });
    const b = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', name: 'node-b', owner: projectB });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    const uuidA = a.json().uuid as string;
    const uuidB = b.json().uuid as string;
    const portB = await call('POST', '/v1/ports', tokens.admin, { address: '52:54:00:00:00:0b', node_uuid: uuidB });
    assert.equal(portB.status, 201, portB.text);

    const listA = await call('GET', '/v1/nodes', tokens.ownerA);
    assert.equal(listA.status, 200, listA.text);
    assert.deepEqual((listA.json().nodes as { uuid: string }[]).map((n) => n.uuid), [uuidA]);
    assert.equal((await call('GET', `/v1/nodes/${uuidA}`, tokens.ownerA)).status, 200);
    const hidden = await call('GET', `/v1/nodes/${uuidB}`, tokens.ownerA);
    assert.equal(hidden.status, 404);
    assert.equal(faultstring(hidden), `Node ${uuidB} could not be found.`);
    assert.deepEqual((await call('GET', '/v1/ports', tokens.ownerA)).json().ports, []);
    assert.equal((await call('GET', '/v1/ports', tokens.ownerB)).json().ports instanceof Array, true);
    assert.equal(((await call('GET', '/v1/ports', tokens.ownerB)).json().ports as unknown[]).length, 1);
    const otherProject = await call('GET', `/v1/nodes?project=${projectB}`, tokens.ownerA);
    assert.equal(otherProject.status, 403);
    // PATCH checks one rule per path: a project member may edit extra but not give the node away.
    const extra = await call('PATCH', `/v1/nodes/${uuidA}`, tokens.ownerA, [{ op: 'add', path: '/extra/mine', value: true }]);
    assert.equal(extra.status, 200, extra.text);
    const giveAway = await call('PATCH', `/v1/nodes/${uuidA}`, tokens.ownerA,
      [{ op: 'add', path: '/extra/x', value: 1 }, { op: 'replace', path: '/owner', value: projectB }]);
    assert.equal(giveAway.status, 403);
    assert.equal(faultstring(giveAway), 'Access was denied to the following resource: baremetal:node:update:owner');
    const readerPatch = await call('PATCH', `/v1/nodes/${uuidA}`, tokens.reader, [{ op: 'add', path: '/extra/r', value: 1 }]);
    assert.equal(faultstring(readerPatch), 'Access was denied to the following resource: baremetal:node:update_extra');
    // A lessee sees the node, but not what only its owner may read (node_sanitize's redactions).
    const lease = await call('PATCH', `/v1/nodes/${uuidA}`, tokens.admin, [{ op: 'add', path: '/lessee', value: projectB },
      { op: 'add', path: '/driver_info/ipmi_address', value: '10.0.0.9' }]);
    assert.equal(lease.status, 200, lease.text);
    const asLessee = await call('GET', `/v1/nodes/${uuidA}`, tokens.ownerB);
    assert.equal(asLessee.status, 200, asLessee.text);
    assert.deepEqual(asLessee.json().driver_info, { content: '** Redacted - requires baremetal:node:get:driver_info permission. **' });
    assert.equal(asLessee.json().last_error, '** Value Redacted - Requires baremetal:node:get:last_error permission. **');
    const leased = await call('GET', '/v1/nodes/detail', tokens.ownerB);
    const leasedNodes = leased.json().nodes as { uuid: string; driver_info: unknown }[];
    assert.deepEqual(leasedNodes.map((n) => n.uuid).sort(), [uuidA, uuidB].sort());
    // Lists redact per node too: the leased node's driver_info, not the caller's own node's.
    assert.deepEqual(leasedNodes.find((n) => n.uuid === uuidA)?.driver_info,
      { content: '** Redacted - requires baremetal:node:get:driver_info permission. **' });
    assert.deepEqual(leasedNodes.find((n) => n.uuid === uuidB)?.driver_info, {});
    const asOwner = await call('GET', `/v1/nodes/${uuidA}`, tokens.ownerA);
    assert.deepEqual(asOwner.json().driver_info, { ipmi_address: '10.0.0.9' });
    assert.equal(asOwner.json().last_error, null);
    // Deleting needs an admin: a member's fallback to delete:self_owned_node fails too.
    const del = await call('DELETE', `/v1/nodes/${uuidA}`, tokens.ownerA);
    assert.equal(del.status, 403);
    assert.equal(faultstring(del), 'Access was denied to the following resource: baremetal:node:delete:self_owned_node');
    assert.equal((await call('DELETE', `/v1/nodes/${uuidB}`, tokens.ownerA)).status, 404);
    const allocations = await call('GET', '/v1/allocations', tokens.ownerA);
    assert.equal(allocations.status, 200, allocations.text);
    assert.equal((await call('GET', `/v1/allocations?owner=${projectB}`, tokens.ownerA)).status, 403);
    // Drivers and conductors are system-only.
    assert.equal((await call('GET', '/v1/conductors', tokens.ownerA)).status, 403);
  });

  it('redacts what a lessee may not read in a chassis\' node lists too', async () => {
    const chassis = await call('POST', '/v1/chassis', tokens.admin, {});
    assert.equal(chassis.status, 201, chassis.text);
    const leasedNode = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', owner: projectA, lessee: projectB,
      chassis_uuid: chassis.json().uuid, driver_info: { ipmi_address: '10.0.0.7' } });
    assert.equal(leasedNode.status, 201, leasedNode.text);
    for (const path of ['nodes/detail', 'nodes?fields=uuid,driver_info']) {
      const listed = await call('GET', `/v1/chassis/${chassis.json().uuid}/${path}`, tokens.ownerB);
      assert.equal(listed.status, 200, listed.text);
      const nodes = listed.json().nodes as { uuid: string; driver_info: unknown }[];
      assert.deepEqual(nodes.map((n) => n.uuid), [leasedNode.json().uuid]);
      assert.deepEqual(nodes[0].driver_info, { content: '** Redacted - requires baremetal:node:get:driver_info permission. **' });
    }
    const asOwner = await call('GET', `/v1/chassis/${chassis.json().uuid}/nodes/detail`, tokens.ownerA);
    assert.deepEqual((asOwner.json().nodes as { driver_info: unknown }[])[0].driver_info, { ipmi_address: '10.0.0.7' });
  });

  it('checks port and portgroup creation against the owning node', async () => {
    const mine = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', owner: projectA });
    const theirs = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', owner: projectB });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(theirs.status, 201, theirs.text);
    // The owning project's manager may add ports (role:manager and project_id:%(node.owner)s).
    const port = await call('POST', '/v1/ports', tokens.managerA, { address: '52:54:00:00:0a:01', node_uuid: mine.json().uuid });
    assert.equal(port.status, 201, port.text);
    const group = await call('POST', '/v1/portgroups', tokens.managerA, { node_uuid: mine.json().uuid });
    assert.equal(group.status, 201, group.text);
    // Another project's node is one it cannot see: checked as unowned, so forbidden.
    const other = await call('POST', '/v1/ports', tokens.managerA, { address: '52:54:00:00:0a:02', node_uuid: theirs.json().uuid });
    assert.equal(other.status, 403);
    assert.equal(faultstring(other), 'Access was denied to the following resource: baremetal:port:create');
    // A member of the owning project may see the node but not add ports to it.
    const member = await call('POST', '/v1/portgroups', tokens.ownerA, { node_uuid: mine.json().uuid });
    assert.equal(member.status, 403);
    assert.equal(faultstring(member), 'Access was denied to the following resource: baremetal:portgroup:create');
  });

  it('gives a project member\'s allocation its project and hides other projects\' nodes from backfill', async () => {
    const made = await call('POST', '/v1/allocations', tokens.ownerA, { resource_class: 'rc-a' });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.json().owner, projectA);
    const theirs = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', owner: projectB, resource_class: 'rc-b' });
    assert.equal(theirs.status, 201, theirs.text);
    const backfill = await call('POST', '/v1/allocations', tokens.ownerA, { node: theirs.json().uuid });
    assert.equal(backfill.status, 400);
    assert.equal(faultstring(backfill), `Node ${theirs.json().uuid} could not be found.`);
    const asAdmin = await call('POST', '/v1/allocations', tokens.admin, { resource_class: 'rc-a' });
    assert.equal(asAdmin.status, 201, asAdmin.text);
    assert.equal(asAdmin.json().owner, null);
  });

  it('lists volume connectors of the caller\'s project\'s nodes only', async () => {
    const node = await call('POST', '/v1/nodes', tokens.admin, { driver: 'fake-hardware', owner: projectA });
    assert.equal(node.status, 201, node.text);
    const connector = await call('POST', '/v1/volume/connectors', tokens.admin,
      { node_uuid: node.json().uuid, type: 'iqn', connector_id: 'iqn.2026-12.org.example:a' });
    assert.equal(connector.status, 201, connector.text);
    const mine = await call('GET', '/v1/volume/connectors', tokens.ownerA);
    assert.equal(mine.status, 200, mine.text);
    assert.deepEqual((mine.json().connectors as { uuid: string }[]).map((c) => c.uuid), [connector.json().uuid]);
    const theirs = await call('GET', '/v1/volume/connectors', tokens.ownerB);
    assert.equal(theirs.status, 200, theirs.text);
    assert.deepEqual(theirs.json().connectors, []);
  });

  it('caches a validated token for token_cache_time, and only a validated one', async () => {
    const used = await ks.token({ user: 'owner-a', password: 'owner-a-password', project: 'proj-a' });
    const unused = await ks.token({ user: 'owner-a', password: 'owner-a-password', project: 'proj-a' });
    assert.equal((await call('GET', '/v1/nodes', used)).status, 200);
    await revoke(used);
    await revoke(unused);
    // keystonemiddleware serves the cached validation until it expires; a new token is asked for.
    assert.equal((await call('GET', '/v1/nodes', used)).status, 200);
    assert.equal((await call('GET', '/v1/nodes', unused)).status, 401);
  });

  it('serves Debian\'s openstack and baremetal CLIs authenticating through Keystone', async () => {
    const env = {
      PATH: '/usr/bin:/bin', HOME: cliHome, LANG: 'C.UTF-8',
      OS_AUTH_URL: `${ks.url}/v3`, OS_USERNAME: 'admin', OS_PASSWORD: ks.adminPassword, OS_SYSTEM_SCOPE: 'all',
      OS_USER_DOMAIN_ID: 'default', OS_REGION_NAME: 'RegionOne', OS_IDENTITY_API_VERSION: '3', OS_INTERFACE: 'public',
    };
    const created = await cli('/usr/bin/baremetal', ['node', 'create', '--driver', 'fake-hardware', '--name', 'cli-node', '-f', 'json'], env);
    assert.equal(created.code, 0, created.stderr);
    const listed = await cli('/usr/bin/openstack', ['baremetal', 'node', 'list', '-f', 'json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok((JSON.parse(listed.stdout) as { Name: string }[]).some((n) => n.Name === 'cli-node'));
    const wrong = await cli('/usr/bin/baremetal', ['node', 'list'], { ...env, OS_PASSWORD: 'wrong' });
    assert.notEqual(wrong.code, 0);
  });

  it('answers webob\'s 503 when Keystone cannot be reached', async () => {
    const unseen = await ks.token({ user: 'sysreader', password: 'sysreader-password', system: true });
    await ks.stop();
    const accepts = ['application/json', '*/*', 'text/plain'];
    const expected = webob503(accepts);
    for (const [i, accept] of accepts.entries()) {
      const res = await fetch(`${ironic.url}/v1/nodes`, { headers: { 'X-Auth-Token': unseen, Accept: accept } });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('content-type'), expected[i].type, accept);
      assert.equal(await res.text(), expected[i].body, accept);
    }
    assert.equal((await call('GET', '/v1')).status, 200);
    // Cached validations keep working while Keystone is away.
    assert.equal((await call('GET', '/v1/nodes', tokens.reader)).status, 200);
  });
});

async function revoke(token: string): Promise<void> {
  const res = await fetch(`${ks.url}/v3/auth/tokens`, { method: 'DELETE', headers: { 'X-Auth-Token': await ks.adminToken(), 'X-Subject-Token': token } });
  assert.equal(res.status, 204);
}

/** What webob's HTTPServiceUnavailable (keystonemiddleware's answer) renders for each Accept. */
function webob503(accepts: string[]): { type: string; body: string }[] {
  const script = `import json, sys, webob, webob.exc
out = []
for accept in json.load(sys.stdin):
    req = webob.Request.blank('/v1/nodes', headers={'Accept': accept})
    resp = req.get_response(webob.exc.HTTPServiceUnavailable('The Keystone service is temporarily unavailable.'))
    out.append({'type': resp.headers['Content-Type'], 'body': resp.body.decode()})
print(json.dumps(out))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(accepts), env: { PATH: '/usr/bin:/bin', HOME: os.tmpdir() } }).toString()) as { type: string; body: string }[];
}

function cli(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 180000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}
