/**
 * Runbooks (1.92) under auth_strategy = keystone against a real Keystone: Ironic 2025.1's runbook
 * rules checked against the runbook's owner, project-scoped creation, the public fallback of a
 * show and project-filtered lists, and baremetal:runbook:use for a runbook clean.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ironicServiceUser, ironicKeystoneConf, startKeystone, Keystone } from '../support/keystone';
import { startTarget, Target } from '../support/target';

interface Reply { status: number; text: string; json: () => Record<string, unknown> }

let ks: Keystone;
let ironic: Target;
let projectA = '';
const tokens: Record<string, string> = {};

async function call(method: string, route: string, token: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': '1.96', 'X-Auth-Token': token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${ironic.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

function faultstring(reply: Reply): string {
  return (JSON.parse(reply.json().error_message as string) as { faultstring: string }).faultstring;
}

function keystoneConf(url: string): string {
  return `${ironicKeystoneConf(url)}memcached_servers = 127.0.0.1:11211
token_cache_time = 300
`;
}

const steps = [{ interface: 'bios', step: 'factory_reset', args: {}, order: 0 }];

before(async () => {
  ks = await startKeystone();
  await ironicServiceUser(ks);
  await ks.createUser('manager-a', { project: 'proj-a', projectRoles: ['manager', 'reader'] });
  await ks.createUser('manager-b', { project: 'proj-b', projectRoles: ['manager', 'reader'] });
  await ks.createUser('sysmember', { systemRoles: ['member', 'reader'] });
  projectA = await ks.createProject('proj-a');
  tokens.managerA = await ks.token({ user: 'manager-a', password: 'manager-a-password', project: 'proj-a' });
  tokens.managerB = await ks.token({ user: 'manager-b', password: 'manager-b-password', project: 'proj-b' });
  tokens.system = await ks.token({ user: 'sysmember', password: 'sysmember-password', system: true });
  ironic = await startTarget({ kind: 'ironic-ts', extraConf: keystoneConf(ks.url) });
}, { timeout: 300_000 });

after(async () => {
  await ironic?.stop();
  await ks?.stop();
});

describe('runbooks under keystone', () => {
  it('gives a project manager\'s runbook to its project, refusing another owner or a public one', async () => {
    const created = await call('POST', '/v1/runbooks', tokens.managerA, { name: 'CUSTOM_KS_A', steps });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().owner, projectA);
    const other = await call('POST', '/v1/runbooks', tokens.managerA, { name: 'CUSTOM_KS_X', owner: 'someone', steps });
    assert.equal(faultstring(other), 'Cannot create a runbook as a project scoped admin with an owner other than your own project.');
    const pub = await call('POST', '/v1/runbooks', tokens.managerA, { name: 'CUSTOM_KS_X', public: true, steps });
    assert.equal(faultstring(pub), 'Cannot create a public runbook as a project scoped admin.');
  });

  it('lets only the owning project (and the system) read, change or delete it', async () => {
    assert.equal((await call('GET', '/v1/runbooks/CUSTOM_KS_A', tokens.managerA)).status, 200);
    const denied = await call('GET', '/v1/runbooks/CUSTOM_KS_A', tokens.managerB);
    assert.equal(denied.status, 403, denied.text);
    assert.equal((await call('PATCH', '/v1/runbooks/CUSTOM_KS_A', tokens.managerB, [{ op: 'add', path: '/extra/k', value: 1 }])).status, 403);
    assert.equal((await call('DELETE', '/v1/runbooks/CUSTOM_KS_A', tokens.managerB)).status, 403);
    assert.equal((await call('GET', '/v1/runbooks/CUSTOM_KS_A', tokens.system)).status, 200);
    const listed = (await call('GET', '/v1/runbooks', tokens.managerB)).json().runbooks as unknown[];
    assert.deepEqual(listed, []);
    assert.equal(((await call('GET', '/v1/runbooks', tokens.system)).json().runbooks as unknown[]).length, 1);
  });

  it('keeps publishing to the system, after which every project reads it', async () => {
    const byOwner = await call('PATCH', '/v1/runbooks/CUSTOM_KS_A', tokens.managerA, [{ op: 'replace', path: '/public', value: true }]);
    assert.equal(byOwner.status, 403, byOwner.text);
    assert.equal(faultstring(byOwner), 'Access was denied to the following resource: baremetal:runbook:update:public');
    const bySystem = await call('PATCH', '/v1/runbooks/CUSTOM_KS_A', tokens.system, [{ op: 'replace', path: '/public', value: true }]);
    assert.equal(bySystem.status, 200, bySystem.text);
    assert.equal(bySystem.json().owner, null);
    assert.equal((await call('GET', '/v1/runbooks/CUSTOM_KS_A', tokens.managerB)).status, 200);
    assert.equal(((await call('GET', '/v1/runbooks', tokens.managerB)).json().runbooks as unknown[]).length, 1);
    assert.equal((await call('DELETE', '/v1/runbooks/CUSTOM_KS_A', tokens.system)).status, 204);
  });
});
