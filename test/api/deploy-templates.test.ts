import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf } from './support/fixtures';

const V = '1.82';
const T1 = 'f0000000-0000-4000-8000-000000000001';
const step = (iface: string, name: string, priority: number | string, args: Record<string, unknown> = {}) =>
  ({ interface: iface, step: name, args, priority });

describe('/v1/deploy_templates', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('creates a template, masking secrets in step args', async () => {
    const r = await s.request('POST', '/v1/deploy_templates', {
      version: V,
      body: { uuid: T1, name: 'CUSTOM_RAID', extra: { e: 1 }, steps: [step('bios', 'apply', '10', { password: 'p', a: 1 }), step('raid', 'create', 0)] },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'name', 'extra', 'links', 'steps']);
    assert.deepEqual(r.json.steps[0], { interface: 'bios', step: 'apply', args: { password: '******', a: 1 }, priority: '10' });
    const shown = await s.request('GET', '/v1/deploy_templates/CUSTOM_RAID', { version: V });
    assert.equal(shown.json.steps[0].priority, 10);
  });

  it('validates names and steps without writing', async () => {
    const before = await countRows(s.db, 'deploy_templates');
    const cases: [unknown, number, string][] = [
      [{ name: 'CUSTOM_RAID', steps: [step('bios', 'a', 1)] }, 409, 'A deploy template with name CUSTOM_RAID already exists.'],
      [{ name: 'bad', steps: [step('bios', 'a', 1)] }, 400,
        "Schema error for template: 'bad' is not valid under any of the given schemas. Possible root cause: 'bad' does not match '^CUSTOM_[A-Z0-9_]+$'"],
      [{ name: 'CUSTOM_X', steps: [] }, 400, 'Schema error for template: [] is too short'],
      [{ name: 'CUSTOM_X', steps: [step('boot', 'a', 1)] }, 400,
        "Schema error for template: 'boot' is not one of ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid']"],
      [{ name: 'CUSTOM_X', steps: [step('bios', 'a', 1), step('bios', 'a', 2)] }, 400,
        'Deploy template invalid: Duplicate deploy steps. A template cannot have multiple deploy steps with the same interface and step. Duplicates: interface: bios, step: a.'],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.request('POST', '/v1/deploy_templates', { version: V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    assert.equal((await s.request('POST', '/v1/deploy_templates', { version: '1.54', body: {} })).status, 405);
    assert.equal((await s.request('GET', '/v1/deploy_templates', { version: '1.54' })).status, 404);
    assert.equal(await countRows(s.db, 'deploy_templates'), before);
  });

  it('patches steps keeping unchanged rows first, as Ironic stores them', async () => {
    const r = await s.request('PATCH', '/v1/deploy_templates/CUSTOM_RAID', {
      version: V, body: [{ op: 'replace', path: '/steps/0/priority', value: 20 }, { op: 'replace', path: '/name', value: 'CUSTOM_RAID2' }],
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.steps.map((x: { interface: string; priority: number }) => [x.interface, x.priority]), [['raid', 0], ['bios', 20]]);
    const bad = await s.request('PATCH', '/v1/deploy_templates/CUSTOM_RAID2', {
      version: V, body: [{ op: 'replace', path: '/steps/0/interface', value: 'boot' }],
    });
    assert.equal(faultOf(bad.json), "Schema error for patch: 'boot' is not one of ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid']");
  });

  it('lists with defaults and pagination, then deletes', async () => {
    const list = await s.request('GET', '/v1/deploy_templates?limit=1', { version: V });
    assert.deepEqual(Object.keys(list.json.deploy_templates[0]), ['uuid', 'name', 'links']);
    assert.equal(list.json.next, `${s.url}/v1/deploy_templates?sort_key=id&sort_dir=asc&fields=uuid,name&limit=1&marker=${T1}`);
    assert.equal((await s.request('DELETE', `/v1/deploy_templates/${T1}`, { version: V })).status, 204);
    assert.equal(await countRows(s.db, 'deploy_template_steps'), 0);
    assert.equal(faultOf((await s.request('GET', '/v1/deploy_templates/CUSTOM_RAID2', { version: V })).json),
      'Deploy template CUSTOM_RAID2 could not be found.');
  });
});
