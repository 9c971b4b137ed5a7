/**
 * SwiftAPI's request behaviour against a stub object store ([swift]endpoint_override, no auth):
 * refusals carry swiftclient's ClientException text (checked against Debian's python3-swiftclient),
 * 5xx answers are retried [swift]swift_max_retries times, a missing object on DELETE is
 * SwiftObjectNotFoundError, and temporary URLs are signed for the endpoint's account path.
 * The real Swift behind Keystone is in compat-tests/swift/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

async function api(retries = 0): Promise<{ swift: SwiftApi; base: string }> {
  const base = await listening;
  const conf = new Config([], { swift: { endpoint_override: `${base}/v1/AUTH_p1`, swift_max_retries: retries } });
  return { swift: await SwiftApi.connect(conf), base };
}

function pythonClientException(msg: string, port: string, urlPath: string, status: number, reason: string, body: string, txn: string): string {
  return execFileSync('/usr/bin/python3', ['-c',
    'import sys; from swiftclient.exceptions import ClientException as C; a = sys.argv[1:]; ' +
    "print(str(C(a[0], 'http', '127.0.0.1', int(a[1]), a[2], '', int(a[3]), a[4], '', a[5].encode(), " +
    "{'X-Trans-Id': a[6]})))", msg, port, urlPath, String(status), reason, body, txn],
  { env: { PATH: '/usr/bin:/bin', HOME: '/tmp' } }).toString().replace(/\n$/, '');
}

describe('SwiftAPI', () => {
  it('wraps a refusal as SwiftOperationError with swiftclient\'s text', async () => {
    const { swift, base } = await api();
    for (const body of ['<html><h1>Forbidden</h1><p>Access was denied to this resource.</p></html>', 'short \'quoted\'\n']) {
      handler = (_req, res) => res.writeHead(403, { 'X-Trans-Id': 'tx123-abc' }).end(body);
      const expected = pythonClientException('Container PUT failed', new URL(base).port, '/v1/AUTH_p1/c%20d', 403, 'Forbidden', body, 'tx123-abc');
      await assert.rejects(swift.createObject('c d', 'o', Buffer.from('x')), {
        name: 'SwiftOperationError', message: `Swift operation 'put container' failed: ${expected}`,
      });
    }
  });

  it('retries 5xx answers swift_max_retries times, then reports the last one', async () => {
    const { swift } = await api(1);
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      res.writeHead(calls === 1 ? 503 : 201).end();
    };
    seen.length = 0;
    await swift.createObject('c', 'configdrive-1', Buffer.from('data'), { 'X-Delete-After': '60' });
    assert.deepEqual(seen, ['PUT /v1/AUTH_p1/c', 'PUT /v1/AUTH_p1/c', 'PUT /v1/AUTH_p1/c/configdrive-1']);
    handler = (_req, res) => res.writeHead(503).end();
    seen.length = 0;
    await assert.rejects(swift.accountTempUrlKey(), { name: 'SwiftOperationError', message: /^Swift operation 'head account' failed: Account HEAD failed: .* 503 Service Unavailable$/ });
    assert.equal(seen.length, 2);
  });

  it('reports a missing object on delete as SwiftObjectNotFoundError', async () => {
    const { swift } = await api();
    handler = (_req, res) => res.writeHead(404).end();
    await assert.rejects(swift.deleteObject('c', 'o'), {
      name: 'SwiftObjectNotFoundError', message: "Swift object o from container c not found. Operation 'delete object' failed.",
    });
  });

  it('signs temporary URLs for the endpoint\'s account path with the account key', async () => {
    const { swift, base } = await api();
    handler = (_req, res) => res.writeHead(204, { 'X-Account-Meta-Temp-Url-Key': 'k' }).end();
    const now = 1_800_000_000_000;
    assert.equal(await swift.getTempUrl('c', 'o', 60, now), `${base}${signTempUrl('/v1/AUTH_p1/c/o', 1_800_000_060, 'k')}`);
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
