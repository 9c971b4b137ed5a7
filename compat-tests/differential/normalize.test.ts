// The normalisation and comparison rules the differential test relies on (no servers needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareResponses } from './compare';
import { Normalizer } from './normalize';
import type { RawResponse } from './http-client';

const U1 = '8cc7226d-28d3-4b88-8424-9d78ab787cbc';
const U2 = '4570be5d-a0a8-4e41-a8aa-7e8b5c33fb40';

function raw(body: unknown, headers: Record<string, string> = {}, status = 200): RawResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, bodyText: JSON.stringify(body) };
}

test('uuids are numbered by first appearance and stay stable for the whole run', () => {
  const n = new Normalizer(17001, '1.82');
  const first = n.response(raw({ a: U1, b: `node ${U2}` }), { maxVersionNormalized: false });
  const second = n.response(raw({ again: U2.toUpperCase() }), { maxVersionNormalized: false });
  assert.deepEqual(first.body, { a: '<uuid:1>', b: 'node <uuid:2>' });
  assert.deepEqual(second.body, { again: '<uuid:2>' });
});

test('captured uuids are named after their variable', () => {
  const n = new Normalizer(17001, '1.82');
  n.nameUuid(U1, 'N1');
  const r = n.response(raw({ uuid: U1 }, { location: `http://127.0.0.1:17001/v1/nodes/${U1}` }, 201), { maxVersionNormalized: false });
  assert.deepEqual(r.body, { uuid: '<uuid:N1>' });
  assert.equal(r.headers['location'], 'http://<host>/v1/nodes/<uuid:N1>');
});

test('timestamps, request ids, host:port and conductor names are replaced', () => {
  const n = new Normalizer(17001, '1.82');
  const r = n.response(
    raw(
      { created_at: '2026-12-02T10:00:31.718064+00:00', conductor: 'reference', href: 'http://127.0.0.1:17001/v1/conductors/reference' },
      { 'openstack-request-id': `req-${U1}` },
    ),
    { maxVersionNormalized: false },
  );
  assert.deepEqual(r.body, { conductor: '<host>', created_at: '<ts>', href: 'http://<host>/v1/conductors/<host>' });
  assert.equal(r.headers['openstack-request-id'], '<present>');
  assert.equal(r.headers['x-openstack-request-id'], null);
});

test('error_message JSON strings are unpacked for structural comparison', () => {
  const n = new Normalizer(17001, '1.82');
  const inner = JSON.stringify({ faultcode: 'Client', faultstring: `Node ${U1} could not be found.`, debuginfo: null });
  const r = n.response(raw({ error_message: inner }, {}, 404), { maxVersionNormalized: false });
  assert.deepEqual(r.body, { error_message: { debuginfo: null, faultcode: 'Client', faultstring: 'Node <uuid:1> could not be found.' } });
});

test('lists built from Python sets are compared as sets', () => {
  const n = new Normalizer(17001, '1.82');
  const r = n.response(raw({ enabled_raid_interfaces: ['no-raid', 'fake'], hosts: ['b', 'a'] }), { maxVersionNormalized: false });
  assert.deepEqual(r.body, { enabled_raid_interfaces: ['fake', 'no-raid'], hosts: ['b', 'a'] });
});

test('the maximum version is replaced only when the case asks for it', () => {
  const n = new Normalizer(17001, '1.82');
  const headers = { 'x-openstack-ironic-api-version': '1.82', 'x-openstack-ironic-api-maximum-version': '1.82' };
  const body = { version: '1.82', text: 'range is: [1.1, 1.82].', other: '1.821' };
  const plain = n.response(raw(body, headers), { maxVersionNormalized: false });
  const normalized = n.response(raw(body, headers), { maxVersionNormalized: true });
  assert.equal(plain.headers['x-openstack-ironic-api-version'], '1.82');
  assert.equal(normalized.headers['x-openstack-ironic-api-version'], '<max>');
  assert.deepEqual(normalized.body, { other: '1.821', text: 'range is: [1.1, <max>].', version: '<max>' });
});

test('against an outgrown reference, statements of the maximum compare as <max> in every case', () => {
  const n = new Normalizer(17001, '1.82', { maxVersionEverywhere: true });
  const headers = { 'x-openstack-ironic-api-version': '1.82', 'x-openstack-ironic-api-maximum-version': '1.82' };
  const body = {
    version: { version: '1.82', min_version: '1.1' },
    range: 'The supported version range is: [1.1, 1.82].',
    needs: 'The minimal required API version should be 1.82',
  };
  const r = n.response(raw(body, headers), { maxVersionNormalized: false });
  assert.equal(r.headers['x-openstack-ironic-api-maximum-version'], '<max>');
  assert.equal(r.headers['x-openstack-ironic-api-version'], '1.82');
  assert.deepEqual(r.body, {
    needs: 'The minimal required API version should be 1.82',
    range: 'The supported version range is: [1.1, <max>].',
    version: { min_version: '1.1', version: '<max>' },
  });
});

test('comparison ignores key order and reports each differing path', () => {
  const a = { status: 200, headers: { 'x-openstack-ironic-api-version': '1.1' }, body: { a: 1, b: [1, 2], c: { d: 'x' } } };
  const b = { status: 201, headers: { 'x-openstack-ironic-api-version': null }, body: { c: { d: 'y' }, b: [1], a: 1, e: true } };
  assert.deepEqual(compareResponses(a, { ...a, body: { c: { d: 'x' }, b: [1, 2], a: 1 } }), []);
  assert.deepEqual(
    compareResponses(a, b).map((d) => d.path),
    ['status', 'header x-openstack-ironic-api-version', 'body.b.length', 'body.c.d', 'body.e'],
  );
});

test('the body spelling (Python json.dumps vs compact JSON) is part of the comparison', () => {
  const n = new Normalizer(17001, '1.82');
  const python = { status: 200, headers: {}, bodyText: '{"a": 1, "b": ["\\u00e9", null]}' };
  const compact = { status: 200, headers: {}, bodyText: '{"a":1,"b":["é",null]}' };
  const err = { status: 404, headers: {}, bodyText: JSON.stringify({ error_message: '{"faultcode":"Client"}' }) };
  assert.equal(n.response(python, { maxVersionNormalized: false }).headers['(body format)'], 'python-json');
  assert.equal(n.response(compact, { maxVersionNormalized: false }).headers['(body format)'], 'compact-json');
  assert.equal(n.response(err, { maxVersionNormalized: false }).headers['(body format)'], 'compact-json, error_message compact-json');
  assert.equal(n.response({ status: 204, headers: {}, bodyText: '' }, { maxVersionNormalized: false }).headers['(body format)'], 'empty');
});
