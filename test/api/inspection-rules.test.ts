import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf } from './support/fixtures';

const V = '1.96';
const R1 = 'f0000000-0000-4000-8000-0000000000a1';
const SENSITIVE = 'f0000000-0000-4000-8000-0000000000a2';
const trait = (name: string) => ({ op: 'add-trait', args: [name] });

describe('/v1/inspection_rules', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('is hidden below 1.96: 404 for reads, 405 for writes', async () => {
    assert.equal((await s.request('GET', '/v1/inspection_rules', { version: '1.95' })).status, 404);
    const post = await s.request('POST', '/v1/inspection_rules', { version: '1.95', body: { actions: [trait('CUSTOM_A')] } });
    assert.equal(post.status, 405);
    assert.equal(faultOf(post.json), 'The API version does not allow inspection rules');
    const v1 = await s.request('GET', '/v1/', { version: V });
    assert.ok(v1.json.inspection_rules && v1.json.continue_inspection);
    assert.equal((await s.request('GET', '/v1/', { version: '1.95' })).json.inspection_rules, undefined);
  });

  it('creates a rule; plugin-data actions gain the plugin_data placeholder as in Ironic', async () => {
    const r = await s.request('POST', '/v1/inspection_rules', {
      version: V,
      body: {
        uuid: R1, priority: 5, description: 'memory',
        conditions: [{ op: '!eq', args: { values: [1, 2] }, loop: [1], extra_key: 'kept' }],
        actions: [{ op: 'set-plugin-data', args: { path: 'a.b', value: '{inventory[cpu][count]}' } }],
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get('location'), `${s.url}/v1/inspection_rules/${R1}`);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'description', 'priority', 'sensitive', 'phase',
      'conditions', 'actions', 'links']);
    assert.deepEqual(r.json.conditions, [{ op: '!eq', args: { values: [1, 2] }, loop: [1], multiple: 'any' }]);
    assert.deepEqual(r.json.actions, [{ op: 'set-plugin-data', args: { path: 'a.b', value: '{inventory[cpu][count]}', plugin_data: {} } }]);
    assert.equal(r.json.sensitive, false);
    assert.equal(r.json.phase, 'main');
    assert.equal(r.json.links[0].href, `${s.url}/v1/inspection/${R1}`);
  });

  it('hides the conditions and actions of a sensitive rule, and keeps it sensitive', async () => {
    const r = await s.request('POST', '/v1/inspection_rules', {
      version: V, body: { uuid: SENSITIVE, sensitive: true, actions: [trait('CUSTOM_SECRET')], conditions: [] },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.actions, null);
    assert.equal(r.json.conditions, null);
    const detail = await s.request('GET', '/v1/inspection_rules?detail=True', { version: V });
    const shown = detail.json.inspection_rules.find((x: { uuid: string }) => x.uuid === SENSITIVE);
    assert.equal(shown.actions, null);
    const unset = await s.request('PATCH', `/v1/inspection_rules/${SENSITIVE}`, {
      version: V, body: [{ op: 'replace', path: '/sensitive', value: false }],
    });
    assert.equal(unset.status, 400);
    assert.equal(faultOf(unset.json), "Couldn't apply patch '[{'op': 'replace', 'path': '/sensitive', 'value': False}]'. " +
      'Reason: Inspection rules cannot have the sensitive flag unset.');
  });

  it('refuses bad rules without writing', async () => {
    const before = await countRows(s.db, 'inspection_rules');
    const cases: [unknown, number, string][] = [
      [{}, 400, "Schema error for inspection_rule: 'actions' is a required property"],
      [{ actions: [] }, 400, 'Schema error for inspection_rule: [] is too short'],
      [{ actions: [{ op: 'bogus', args: {} }] }, 400, "Schema error for inspection_rule: 'bogus' is not one of ['fail', " +
        "'set-attribute', 'set-capability', 'unset-capability', 'extend-attribute', 'add-trait', 'remove-trait', " +
        "'set-plugin-data', 'extend-plugin-data', 'unset-plugin-data', 'log', 'del-attribute', 'set-port-attribute', " +
        "'extend-port-attribute', 'del-port-attribute']"],
      [{ actions: [trait('X')], uuid: 'bad' }, 400, 'Expected UUID for uuid: bad'],
      [{ actions: [trait('X')], priority: 10000, phase: 'x' }, 400,
        'Multiple validation errors occurred: Invalid phase: x. Valid phases are: main; Priority must be between 0 and 9999 for user-defined rules.'],
      [{ actions: [trait('X')], phase: null }, 400, 'Invalid phase: None. Valid phases are: main'],
      [{ actions: [{ op: 'add-trait', args: { x: 1 } }] }, 400, 'missing required argument(s): name; unexpected argument(s): x'],
      [{ actions: [{ op: 'add-trait', args: [] }] }, 400, 'Not enough arguments provided. Missing: name'],
      [{ actions: [trait('X')], uuid: R1 }, 409, `A rule with UUID ${R1} already exists.`],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.request('POST', '/v1/inspection_rules', { version: V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    assert.equal(await countRows(s.db, 'inspection_rules'), before);
  });

  it('lists with Ironic\'s next link (filters first, phase not filtering) and checks fields and sort keys', async () => {
    const page = await s.request('GET', '/v1/inspection_rules?limit=1&phase=main', { version: V });
    assert.equal(page.status, 200);
    assert.deepEqual(Object.keys(page.json.inspection_rules[0]), ['uuid', 'description', 'priority', 'phase', 'links']);
    assert.equal(page.json.next, `${s.url}/v1/inspection?filters={'phase': 'main'}&sort_key=id&sort_dir=asc&` +
      `fields=uuid,priority,phase,description&limit=1&marker=${R1}`);
    const sorted = await s.request('GET', '/v1/inspection_rules?sort_key=actions', { version: V });
    assert.equal(faultOf(sorted.json), 'The sort_key value actions is an invalid field for sorting');
    const marker = await s.request('GET', '/v1/inspection_rules?marker=zzz', { version: V });
    assert.equal(marker.status, 404);
    assert.equal(faultOf(marker.json), 'Rule zzz could not be found.');
    const fields = await s.request('GET', `/v1/inspection_rules/${R1}?fields=uuid,bogus`, { version: V });
    assert.equal(faultOf(fields.json), 'Field(s) "bogus" are not valid');
  });

  it('patches, validating the result, and deletes', async () => {
    const ok = await s.request('PATCH', `/v1/inspection_rules/${R1}`, {
      version: V, body: [{ op: 'replace', path: '/priority', value: 7 }, { op: 'remove', path: '/description' }],
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.priority, 7);
    assert.equal(ok.json.description, null);
    const bad = await s.request('PATCH', `/v1/inspection_rules/${R1}`, { version: V, body: [{ op: 'replace', path: '/phase', value: 'nope' }] });
    assert.equal(faultOf(bad.json), 'Invalid phase: nope. Valid phases are: main');
    const neg = await s.request('PATCH', `/v1/inspection_rules/${R1}`, { version: V, body: [{ op: 'replace', path: '/priority', value: -1 }] });
    assert.equal(faultOf(neg.json), 'Schema error for patch: -1 is less than the minimum of 0');
    const reset = await s.request('PATCH', `/v1/inspection_rules/${R1}`, { version: V, body: [{ op: 'remove', path: '/priority' }] });
    assert.equal(reset.json.priority, 0);
    assert.equal((await s.request('GET', `/v1/inspection_rules/${R1}`, { version: V })).json.priority, 0);
    assert.equal((await s.request('DELETE', `/v1/inspection_rules/${R1}`, { version: V })).status, 204);
    const gone = await s.request('DELETE', `/v1/inspection_rules/${R1}`, { version: V });
    assert.equal(faultOf(gone.json), `Rule ${R1} could not be found.`);
    const bulk = await s.request('DELETE', '/v1/inspection_rules', { version: V });
    assert.equal(faultOf(bulk.json), 'Missing mandatory parameter: inspection_rule_uuid');
  });
});
