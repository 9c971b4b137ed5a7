/**
 * Swift temporary URLs for Glance images: signatures checked against Debian's python3-openstacksdk
 * (generate_temp_url, which Ironic 29.0.5's SwiftAPI calls), the container naming of glance_store, the
 * endpoint and account handling, and Ironic's configuration errors.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Config } from '../../../src/conf/config';
import { translateFromGlance } from '../../../src/images/glance/image-meta';
import { signTempUrl } from '../../../src/common/swift/temp-url';
import { swiftContainer, swiftTempUrl } from '../../../src/images/glance/swift-temp-url';

const ID = '3a1f9a2e-6b3c-4d5e-8f70-91a2b3c4d5e6';

function pythonTempUrl(urlPath: string, expires: number, key: string): string {
  return execFileSync('/usr/bin/python3', ['-c',
    // openstacksdk's generate_temp_url, which Ironic 29.0.5's SwiftAPI calls.
    'import sys; from openstack.object_store.v1._proxy import Proxy; ' +
    "print(Proxy.__new__(Proxy).generate_temp_url(sys.argv[1], int(sys.argv[2]), 'GET', absolute=True, temp_url_key=sys.argv[3]))",
    urlPath, String(expires), key],
  { env: { PATH: '/usr/bin:/bin', HOME: '/tmp' } }).toString().trim();
}

const conf = (glance: Record<string, string | number | boolean>) => new Config([], { glance });
const image = translateFromGlance({ id: ID, status: 'active', disk_format: 'raw' });

describe('Swift temporary URLs', () => {
  it('signs as openstacksdk\'s generate_temp_url does', () => {
    for (const [p, exp, key] of [[`/v1/AUTH_abc/glance/${ID}`, 1_900_000_000, 'secret'], ['/v1/AUTH_x/c/o', 1234567890, 'k€y']] as const) {
      assert.equal(signTempUrl(p, exp, key), pythonTempUrl(p, exp, key));
    }
  });

  it('names containers as glance_store, single or multiple', () => {
    assert.equal(swiftContainer(conf({}), ID), 'glance');
    assert.equal(swiftContainer(conf({ swift_store_multiple_containers_seed: 3 }), ID.toUpperCase()), 'glance_3a1');
    assert.equal(swiftContainer(conf({ swift_store_multiple_containers_seed: 10, swift_container: 'img' }), ID), 'img_3a1f9a2e-6b');
  });

  it('builds the URL from the configured endpoint (its /v1/AUTH_ part cut), account and key', async () => {
    const now = 1_800_000_000_000;
    const url = await swiftTempUrl(conf({
      swift_endpoint_url: 'https://swift.example/v1/AUTH_ignored', swift_account: 'AUTH_proj', swift_temp_url_key: 'secret',
      swift_temp_url_duration: 600,
    }), image, now);
    const expires = now / 1000 + 600;
    assert.equal(url, `https://swift.example${pythonTempUrl(`/v1/AUTH_proj/glance/${ID}`, expires, 'secret')}`);
  });

  it('refuses inconsistent settings and missing secrets with Ironic\'s messages', async () => {
    await assert.rejects(swiftTempUrl(conf({ swift_temp_url_duration: 5, swift_temp_url_expected_download_start_delay: 10 }), image),
      { name: 'InvalidParameterValue', message: /^"swift_temp_url_duration" must be greater than or equal to/ });
    await assert.rejects(swiftTempUrl(conf({ swift_store_multiple_containers_seed: 33 }), image),
      { name: 'InvalidParameterValue', message: 'An integer value between 0 and 32 is required for swift_store_multiple_containers_seed.' });
    await assert.rejects(swiftTempUrl(conf({}), image), { name: 'MissingParameterValue', message: /require a Swift endpoint URL/ });
    await assert.rejects(swiftTempUrl(conf({ swift_endpoint_url: 'https://swift.example', swift_account: 'AUTH_p' }), image),
      { name: 'MissingParameterValue', message: /require a shared secret/ });
  });

  const servers: Server[] = [];
  after(async () => {
    for (const srv of servers) {
      srv.closeAllConnections();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    }
  });
  async function listen(srv: Server): Promise<string> {
    servers.push(srv);
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  }

  it('falls back to the [swift] session: catalog endpoint, AUTH_<project id> and the account key (stub Keystone and Swift)', async () => {
    const heads: Array<{ url: string; token: string }> = [];
    const swift = await listen(createServer((req, res) => {
      heads.push({ url: req.url ?? '', token: String(req.headers['x-auth-token']) });
      res.writeHead(204, { 'X-Account-Meta-Temp-Url-Key': 'account-key' }).end();
    }));
    const keystone = await listen(createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'Content-Type': 'application/json', 'X-Subject-Token': 'swift-token' }).end(JSON.stringify({
        token: { expires_at: new Date(Date.now() + 3_600_000).toISOString(), project: { id: 'proj42' },
          catalog: [{ type: 'object-store', endpoints: [{ interface: 'public', region_id: 'R', url: `${swift}/v1/AUTH_proj42` }] }] },
      })));
    }));
    const c = new Config([], {
      swift: { auth_type: 'password', auth_url: keystone, username: 'ironic', password: 'pw', project_name: 'service' },
    });
    const now = 1_800_000_000_000;
    const url = await swiftTempUrl(c, image, now);
    assert.equal(url, `${swift}${pythonTempUrl(`/v1/AUTH_proj42/glance/${ID}`, now / 1000 + 1200, 'account-key')}`);
    assert.deepEqual(heads, [{ url: '/v1/AUTH_proj42', token: 'swift-token' }]);
  });
});
