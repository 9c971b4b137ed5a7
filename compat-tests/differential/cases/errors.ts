// Request validation: bodies, types, identifiers and names.
import type { CaseGroup } from '../types';
import { get, MAX, post, raw } from './build';

const nodes = '/v1/nodes';
const ONE_MIB = 1024 * 1024;
const oversized = JSON.stringify({ driver: 'fake-hardware', extra: { blob: 'x'.repeat(ONE_MIB + 1024) } });
/** Sent as a patch of a node that does not exist: Ironic 29.0.5 stores any depth and would echo it back. */
const deeplyNested = `[{"op": "add", "path": "/extra/a", "value": ${'['.repeat(5000)}${']'.repeat(5000)}}]`;
/** eventlet's limit is on the request line, CRLF included: this one is exactly 8192 bytes. */
const longLine = `/v1/nodes?fields=${'uuid,'.repeat(1630)}uuid`;
const atLineLimit = `${longLine}${'x'.repeat(8192 - 'GET  HTTP/1.1\r\n'.length - longLine.length)}`;

export const errors: CaseGroup = {
  group: 'errors',
  cases: [
    raw('POST', 'malformed JSON', nodes, MAX, '{"driver": "fake-hardware",'),
    raw('POST', 'empty body', nodes, MAX, ''),
    raw('POST', 'body is a JSON string', nodes, MAX, '"fake-hardware"'),
    raw('POST', 'body is a number', nodes, MAX, '5'),
    raw('POST', 'body is null', nodes, MAX, 'null'),
    raw('POST', 'body is a list', nodes, MAX, '[{"driver": "fake-hardware"}]'),
    raw('POST', 'JSON body sent as text/plain', nodes, MAX, '{"driver": "fake-hardware", "name": "textplain"}', {
      headers: { 'Content-Type': 'text/plain' },
    }),
    post('missing driver', nodes, MAX, { name: 'nodriver' }),
    post('unknown driver', nodes, MAX, { driver: 'no-such-driver' }),
    post('unknown field', nodes, MAX, { driver: 'fake-hardware', bogus: 1 }),
    post('two unknown fields', nodes, MAX, { driver: 'fake-hardware', zeta: 1, alpha: 2 }),
    post('driver wrong type', nodes, MAX, { driver: 5 }),
    post('name wrong type', nodes, MAX, { driver: 'fake-hardware', name: 5 }),
    post('extra wrong type', nodes, MAX, { driver: 'fake-hardware', extra: 'x' }),
    post('properties wrong type', nodes, MAX, { driver: 'fake-hardware', properties: [1] }),
    post('maintenance wrong type', nodes, MAX, { driver: 'fake-hardware', maintenance: 'yes' }),
    post('description too long', nodes, MAX, { driver: 'fake-hardware', description: 'd'.repeat(4097) }),
    post('resource_class too long', nodes, MAX, { driver: 'fake-hardware', resource_class: 'r'.repeat(81) }),
    post('bad uuid in body', nodes, MAX, { driver: 'fake-hardware', uuid: 'not-a-uuid' }),
    post('bad chassis_uuid in body', nodes, MAX, { driver: 'fake-hardware', chassis_uuid: 'not-a-uuid' }),
    post('unknown chassis_uuid', nodes, MAX, { driver: 'fake-hardware', chassis_uuid: 'b3d6f2a4-8f0e-4f43-9b7e-1d2f3a4b5c6d' }),
    post('unknown interface value', nodes, MAX, { driver: 'fake-hardware', deploy_interface: 'no-such' }),
    post('disabled interface value', nodes, MAX, { driver: 'fake-hardware', power_interface: 'ipmitool' }),
    post('name not allowed at 1.1', nodes, '1.1', { driver: 'fake-hardware', name: 'at11' }),
    post('invalid name at 1.5 (underscore)', nodes, '1.5', { driver: 'fake-hardware', name: 'bad_name' }),
    post('name with underscore/dot/tilde at 1.10', nodes, '1.10', { driver: 'fake-hardware', name: 'ok_name.v1~x' }),
    post('invalid name with space at 1.10', nodes, '1.10', { driver: 'fake-hardware', name: 'bad name' }),
    post('invalid name with slash', nodes, MAX, { driver: 'fake-hardware', name: 'a/b' }),
    post('name too long', nodes, MAX, { driver: 'fake-hardware', name: 'n'.repeat(256) }),
    post('reserved name detail', nodes, MAX, { driver: 'fake-hardware', name: 'detail' }),
    post('reserved name maintenance', nodes, MAX, { driver: 'fake-hardware', name: 'maintenance' }),
    post('name that is a uuid', nodes, MAX, { driver: 'fake-hardware', name: '0b6e3a47-d1c6-4b36-94ba-5e1b7f9b5c2a' }),
    get('bad ident in path at 1.1', '/v1/nodes/not-a-uuid', '1.1'),
    get('bad ident in path at 1.5', '/v1/nodes/not-a-uuid', '1.5'),
    get('invalid name in path', '/v1/nodes/bad%20name', MAX),
    get('unknown uuid in path', '/v1/nodes/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', MAX),
    get('unknown port', '/v1/ports/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', MAX),
    get('bad port ident', '/v1/ports/not-a-uuid', MAX),
    get('unknown chassis', '/v1/chassis/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', MAX),
    get('bad chassis ident', '/v1/chassis/not-a-uuid', MAX),
    get('unknown portgroup', '/v1/portgroups/1be26c0b-03f2-4d2e-ae87-c02d7f33c123', MAX),
    get('unknown driver', '/v1/drivers/no-such-driver', MAX),
    get('unknown conductor', '/v1/conductors/no-such-host', MAX),
    raw('POST', 'oversized body (> 1 MiB)', nodes, MAX, oversized),
    raw('POST', 'body not UTF-8', nodes, MAX, '{"driver": "fake-hardware", "name": "\xff\xfe"}', { rawBodyEncoding: 'latin1' }),
    raw('PATCH', 'body nested 5,000 levels', `${nodes}/1be26c0b-03f2-4d2e-ae87-c02d7f33c123`, MAX, deeplyNested),
    get('request line of 8 KiB', atLineLimit, MAX),
    get('fields repeated 10,000 times', `/v1/nodes?${Array.from({ length: 10000 }, () => 'fields=uuid').join('&')}`, MAX),
  ],
};
