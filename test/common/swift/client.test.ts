/**
 * SwiftAPI's request behaviour against a stub object store ([swift]endpoint_override, no auth):
 * refusals carry openstacksdk's HttpException text (checked against Debian's python3-openstacksdk),
 * the container is looked up before it is created and unchanged bytes are not uploaded again,
 * a missing object on DELETE is SwiftObjectNotFoundError, and temporary URLs are signed for the
 * endpoint's account path.
 * The real Swift behind Keystone is in compat-tests/swift/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureDebian13, inDebian13 } from '../../../compat-tests/support/debian13-root';
import { Config } from '../../../src/conf/config';
import { SwiftApi } from '../../../src/common/swift/client';
import { signTempUrl } from '../../../src/common/swift/temp-url';
import { configdriveTempUrlSeconds } from '../../../src/conductor/configdrive-store';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.writeHead(500).end();
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url}`);
  req.resume();
  req.on('end', () => handler(req, res));
});
const listening = new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => {
  resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}));
after(() => {
  server.closeAllConnections();
  server.close();
});

async function api(): Promise<{ swift: SwiftApi; base: string }> {
  const base = await listening;
  const conf = new Config([], { swift: { endpoint_override: `${base}/v1/AUTH_p1` } });
  return { swift: await SwiftApi.connect(conf), base };
}

/** str() of the exception Debian 13's python3-openstacksdk (Ironic 29.0.5's) raises for this response (raise_from_response). */
function pythonSdkException(method: string, url: string, status: number, reason: string, contentType: string, body: string): string {
  const [file, args] = inDebian13([], '/usr/bin/python3', ['-c',
    'import sys, requests; from openstack import exceptions; a = sys.argv[1:]; r = requests.Response(); ' +
    'r.status_code = int(a[2]); r.reason = a[3]; r.headers["content-type"] = a[4]; r._content = a[5].encode(); ' +
    'r.request = requests.Request(a[0], a[1]).prepare(); r.url = a[1]\n' +
    'try:\n  exceptions.raise_from_response(r)\nexcept exceptions.HttpException as e:\n  print(str(e))',
  method, url, String(status), reason, contentType, body]);
  return execFileSync(file, args).toString().replace(/\n$/, '');
}

describe('SwiftAPI', () => {
  before(() => ensureDebian13(['python3-openstacksdk']));

  it('wraps a refusal as SwiftOperationError with openstacksdk\'s text', async () => {
    const { swift, base } = await api();
    const cases: Array<[number, string, string, string]> = [
      [403, 'Forbidden', 'text/html; charset=UTF-8', '<html><h1>Forbidden</h1><p>Access was denied to this resource.</p></html>'],
      [409, 'Conflict', 'application/json', '{"error": {"message": "busy"}}'],
      [507, 'Insufficient Storage', 'text/plain', 'no space'],
    ];
    for (const [status, reason, type, body] of cases) {
      handler = (req, res) => res.writeHead(req.method === 'HEAD' ? 404 : status, reason, { 'Content-Type': type }).end(body);
      const expected = pythonSdkException('PUT', `${base}/v1/AUTH_p1/c%20d`, status, reason, type, body);
      await assert.rejects(swift.createObject('c d', 'o', Buffer.from('x')), {
        name: 'SwiftOperationError', message: `Swift operation 'put container' failed: ${expected}`,
      });
    }
  });

  it('looks the container up before creating it, and uploads an object only when Swift lacks those bytes', async () => {
    const { swift } = await api();
    const data = Buffer.from('data');
    const md5 = createHash('md5').update(data).digest('hex');
    const sha256 = createHash('sha256').update(data).digest('hex');
    const objects = new Map<string, Record<string, string>>();
    handler = (req, res) => {
      const meta = objects.get(req.url ?? '');
      if (req.method === 'HEAD') res.writeHead(req.url === '/v1/AUTH_p1/c' || meta ? 204 : 404, meta ?? {}).end();
      else {
        if (req.method === 'PUT' && req.url !== '/v1/AUTH_p1/c') {
          objects.set(req.url ?? '', { 'X-Object-Meta-X-Sdk-Md5': String(req.headers['x-object-meta-x-sdk-md5']),
            'X-Object-Meta-X-Sdk-Sha256': String(req.headers['x-object-meta-x-sdk-sha256']) });
        }
        res.writeHead(201).end();
      }
    };
    seen.length = 0;
    await swift.createObject('c', 'configdrive-1', data, { 'X-Delete-After': '60' });
    assert.deepEqual(seen, ['HEAD /v1/AUTH_p1/c', 'HEAD /v1/AUTH_p1/c/configdrive-1', 'PUT /v1/AUTH_p1/c/configdrive-1']);
    assert.deepEqual(objects.get('/v1/AUTH_p1/c/configdrive-1'), { 'X-Object-Meta-X-Sdk-Md5': md5, 'X-Object-Meta-X-Sdk-Sha256': sha256 });
    seen.length = 0;
    await swift.createObject('c', 'configdrive-1', data, { 'X-Delete-After': '60' });
    assert.deepEqual(seen, ['HEAD /v1/AUTH_p1/c', 'HEAD /v1/AUTH_p1/c/configdrive-1'], 'the same bytes are not sent again');
  });

  it('reports a missing object on delete as SwiftObjectNotFoundError', async () => {
    const { swift } = await api();
    handler = (_req, res) => res.writeHead(404).end();
    await assert.rejects(swift.deleteObject('c', 'o'), {
      name: 'SwiftObjectNotFoundError', message: "Swift object o from container c not found. Operation 'delete object' failed.",
    });
  });

  it('signs temporary URLs for the endpoint\'s account path with Temp-Url-Key-2, else Temp-Url-Key', async () => {
    const { swift, base } = await api();
    const now = 1_800_000_000_000;
    handler = (_req, res) => res.writeHead(204, { 'X-Account-Meta-Temp-Url-Key': 'k' }).end();
    assert.equal(await swift.getTempUrl('c', 'o', 60, now), `${base}${signTempUrl('/v1/AUTH_p1/c/o', 1_800_000_060, 'k')}`);
    handler = (_req, res) => res.writeHead(204, { 'X-Account-Meta-Temp-Url-Key': 'k', 'X-Account-Meta-Temp-Url-Key-2': 'k2' }).end();
    assert.equal(await swift.getTempUrl('c', 'o', 60, now), `${base}${signTempUrl('/v1/AUTH_p1/c/o', 1_800_000_060, 'k2')}`);
    handler = (_req, res) => res.writeHead(204).end();
    await assert.rejects(swift.getTempUrl('c', 'o', 60), { name: 'MissingParameterValue', message: /^Swift temporary URLs require a shared secret/ });
  });
});

describe('the configdrive temporary URL lifetime', () => {
  it('is [conductor]configdrive_swift_temp_url_duration, else deploy_callback_timeout, else 1800', () => {
    assert.equal(configdriveTempUrlSeconds(new Config([], { conductor: { configdrive_swift_temp_url_duration: 120 } })), 120);
    assert.equal(configdriveTempUrlSeconds(new Config([], {})), 1800);
    assert.equal(configdriveTempUrlSeconds(new Config([], { conductor: { deploy_callback_timeout: 600 } })), 600);
    assert.equal(configdriveTempUrlSeconds(new Config([], { conductor: { deploy_callback_timeout: 0 } })), 1800);
  });
});
