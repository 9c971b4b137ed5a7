/**
 * [DEFAULT]use_json: every log line is one JSON object with oslo.log's JSONFormatter keys; lines
 * written while serving a request carry its id in context.request_id (the one the response's
 * Openstack-Request-Id names), and lines about a node its uuid in extra.node_uuid.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startTarget, type Target } from '../support/target';
import { provision } from '../support/ironic-http';

let target: Target;

before(async () => {
  target = await startTarget({ extraConf: 'use_json = true\ndebug = true' });
});

after(async () => {
  await target?.stop();
});

test('use_json writes JSON lines with the request id and the node uuid', async () => {
  const res = await fetch(`${target.url}/v1/nodes`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': 'latest' },
    body: JSON.stringify({ driver: 'fake-hardware', driver_info: { ipmi_password: 'json-S3cret' } }),
  });
  assert.equal(res.status, 201);
  const uuid = ((await res.json()) as { uuid: string }).uuid;
  const manage = await fetch(`${target.url}/v1/nodes/${uuid}/states/provision`, {
    method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': 'latest' },
    body: JSON.stringify({ target: 'manage' }),
  });
  assert.equal(manage.status, 202);
  const requestId = manage.headers.get('openstack-request-id');
  await provision(target.url, uuid, 'provide', 'available');

  const text = fs.readFileSync(path.join(target.dir, 'stdout.log'), 'utf8');
  assert.ok(!text.includes('json-S3cret'));
  const records = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  assert.ok(records.length > 5);
  for (const r of records) {
    assert.equal(typeof r.message, 'string');
    assert.match(r.levelname, /^(DEBUG|INFO|WARNING|ERROR)$/);
    assert.equal(r.name, 'ironic-ts');
    assert.equal(typeof r.process, 'number');
    assert.ok('request_id' in r.context && 'node_uuid' in r.extra);
  }
  const moved = records.filter((r) => String(r.message).includes('moved to provision state "verifying"'));
  assert.equal(moved.length, 1);
  assert.equal(moved[0].context.request_id, requestId);
  assert.equal(moved[0].extra.node_uuid, uuid);
});
