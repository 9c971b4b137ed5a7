/**
 * The Glance client's own rules, against small stand-in HTTP servers (labelled stubs: the real
 * Glance and Keystone are exercised in compat-tests/deploy/glance-*.test.ts): image refs,
 * catalog endpoint choice, record translation, retries on 503, error translation and token
 * reuse.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Config } from '../../../src/conf/config';
import { GlanceImageService } from '../../../src/images/glance/client';
import { imageApiRoot } from '../../../src/images/glance/endpoint';
import { endpointFromCatalog } from '../../../src/common/keystone/endpoint';
import { translateFromGlance } from '../../../src/images/glance/image-meta';
import { isGlanceImage, parseImageId } from '../../../src/images/glance/image-ref';
import { tokensUrl } from '../../../src/common/keystone/session';

const ID = '4f1d9a2e-6b3c-4d5e-8f70-91a2b3c4d5e6';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];

async function stub(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

const activeImage = (extra: Record<string, unknown> = {}) => ({
  id: ID, name: 'img', status: 'active', visibility: 'public', owner: 'p1', size: 3, disk_format: 'qcow2',
  container_format: 'bare', checksum: 'c'.repeat(32), os_hash_algo: 'sha512', os_hash_value: 'f'.repeat(128), tags: ['a'],
  schema: '/v2/schemas/image', kernel_id: 'k', ...extra,
});

describe('image references', () => {
  it('recognises UUIDs and glance:// hrefs, and refuses the rest with InvalidImageRef', () => {
    assert.equal(isGlanceImage(ID), true);
    assert.equal(isGlanceImage(ID.replace(/-/g, '')), true);
    assert.equal(isGlanceImage(`glance://glance.example/${ID}`), true);
    assert.equal(isGlanceImage('http://example.com/x.img'), false);
    assert.equal(isGlanceImage(undefined), false);
    assert.equal(parseImageId(`glance://${ID}`), ID);
    assert.throws(() => parseImageId('glance://not-a-uuid'), { name: 'InvalidImageRef', message: 'Invalid image href glance://not-a-uuid.' });
  });
});

describe('endpoint choice', () => {
  const catalog = [
    { type: 'identity', endpoints: [{ interface: 'public', url: 'http://ks' }] },
    { type: 'image', name: 'glance', endpoints: [
      { interface: 'public', region_id: 'R1', url: 'http://public-r1:9292' },
      { interface: 'internal', region_id: 'R2', url: 'http://internal-r2:9292/v2/' },
      { interface: 'public', region_id: 'R2', url: 'http://public-r2:9292' },
    ] },
  ];
  const filter = (f: Partial<{ interfaces: string[]; region: string | null; serviceName: string | null }>) =>
    ({ serviceType: 'image', serviceName: null, interfaces: ['internal', 'public'], region: null, ...f });

  it('takes the first valid interface that has an endpoint, in the region asked for', () => {
    assert.equal(endpointFromCatalog(catalog, filter({})), 'http://internal-r2:9292/v2/');
    assert.equal(endpointFromCatalog(catalog, filter({ region: 'R1' })), 'http://public-r1:9292');
    assert.equal(endpointFromCatalog(catalog, filter({ interfaces: ['public'], region: 'R2' })), 'http://public-r2:9292');
    assert.throws(() => endpointFromCatalog(catalog, filter({ interfaces: ['admin'] })), {
      name: 'CatalogNotFound', message: 'Service type image with endpoint type admin not found in keystone service catalog.',
    });
    assert.throws(() => endpointFromCatalog(catalog, filter({ serviceName: 'other' })), { name: 'CatalogNotFound' });
  });

  it('cuts a versioned endpoint back to the API root, and finds the v3 tokens URL', () => {
    assert.equal(imageApiRoot('http://internal-r2:9292/v2/'), 'http://internal-r2:9292');
    assert.equal(imageApiRoot('http://g/image'), 'http://g/image');
    assert.equal(tokensUrl('http://ks:5000'), 'http://ks:5000/v3/auth/tokens');
    assert.equal(tokensUrl('http://ks:5000/identity/v3/'), 'http://ks:5000/identity/v3/auth/tokens');
  });
});

describe('image records', () => {
  it('keeps the standard attributes and moves the rest into properties, decoding block_device_mapping', () => {
    const meta = translateFromGlance(activeImage({ block_device_mapping: '[{"a": 1}]', img_type: 'partition' }));
    assert.equal(meta.disk_format, 'qcow2');
    assert.equal(meta.os_hash_algo, 'sha512');
    assert.deepEqual(meta.tags, ['a']);
    assert.equal(meta.properties.kernel_id, 'k');
    assert.equal(meta.properties.img_type, 'partition');
    assert.deepEqual(meta.properties.block_device_mapping, [{ a: 1 }]);
    assert.equal('disk_format' in meta.properties, false);
    assert.equal(meta.deleted_at, null);
  });
});

describe('GlanceImageService with a stub Glance', () => {
  const serviceFor = (glance: Record<string, string | number | string[]>) => new GlanceImageService(new Config([], { glance }));

  it('retries a 503 [glance]num_retries times, then raises GlanceConnectionFailed', async () => {
    let calls = 0;
    const url = await stub((_req, res) => {
      calls++;
      res.writeHead(503).end('busy');
    });
    await assert.rejects(serviceFor({ endpoint_override: url, num_retries: 1 }).show(ID), (err: Error) => {
      assert.equal(err.name, 'GlanceConnectionFailed');
      assert.match(err.message, new RegExp(`^Connection to glance endpoint ${url} failed: HTTP 503`));
      return true;
    });
    assert.equal(calls, 2);
  });

  it('answers after a retry when Glance recovers', async () => {
    let calls = 0;
    const url = await stub((_req, res) => (++calls === 1 ? res.writeHead(503).end() : json(res, 200, activeImage())));
    const meta = await serviceFor({ endpoint_override: url, num_retries: 2 }).show(ID);
    assert.equal(meta.id, ID);
    assert.equal(calls, 2);
  });

  it('translates 404, 403 and the status and visibility checks into Ironic errors', async () => {
    const records: Record<string, [number, unknown]> = {
      [`/v2/images/${ID}`]: [404, {}],
      '/v2/images/00000000-0000-0000-0000-000000000001': [403, {}],
      '/v2/images/00000000-0000-0000-0000-000000000002': [200, activeImage({ id: '00000000-0000-0000-0000-000000000002', status: 'saving' })],
      '/v2/images/00000000-0000-0000-0000-000000000003': [200, activeImage({ id: '00000000-0000-0000-0000-000000000003', visibility: 'shared' })],
    };
    const url = await stub((req, res) => {
      const [status, body] = records[req.url ?? ''] ?? [500, {}];
      json(res, status, body);
    });
    const glance = serviceFor({ endpoint_override: url });
    await assert.rejects(glance.show(ID), { name: 'ImageNotFound', message: `Image ${ID} could not be found.` });
    await assert.rejects(glance.show('00000000-0000-0000-0000-000000000001'),
      { name: 'ImageNotAuthorized', message: 'Not authorized for image 00000000-0000-0000-0000-000000000001.' });
    await assert.rejects(glance.show('00000000-0000-0000-0000-000000000002'), {
      name: 'ImageUnacceptable',
      message: 'Image 00000000-0000-0000-0000-000000000002 is unacceptable: The image is required to be in an active state.',
    });
    // Without a user token (no [glance] auth), only public images are available (is_image_available).
    await assert.rejects(glance.show('00000000-0000-0000-0000-000000000003'), { name: 'ImageNotFound' });
  });

  it('authenticates once, reuses the token, sends it to Glance and renews it on a 401', async () => {
    let issued = 0;
    const glanceSeen: string[] = [];
    const glanceUrl = await stub((req, res) => {
      glanceSeen.push(String(req.headers['x-auth-token']));
      // The first token is revoked after two uses.
      if (req.headers['x-auth-token'] === 'tok-1' && glanceSeen.length > 2) return json(res, 401, {});
      json(res, 200, activeImage({ visibility: 'private' }));
    });
    const keystone = await stub((req, res) => {
      let body = '';
      req.on('data', (c) => { body += String(c); });
      req.on('end', () => {
        const auth = JSON.parse(body).auth;
        assert.equal(req.url, '/v3/auth/tokens');
        assert.deepEqual(auth.identity.password.user, { name: 'ironic', password: 'pw', domain: { id: 'default' } });
        assert.deepEqual(auth.scope, { project: { name: 'service', domain: { id: 'default' } } });
        issued++;
        json(res, 201, { token: {
          expires_at: new Date(Date.now() + 3_600_000).toISOString(), project: { id: 'p-service' },
          catalog: [{ type: 'image', endpoints: [{ interface: 'public', region_id: 'RegionOne', url: glanceUrl }] }],
        } }, { 'X-Subject-Token': `tok-${issued}` });
      });
    });
    const glance = serviceFor({
      auth_type: 'password', auth_url: keystone, username: 'ironic', password: 'pw', project_name: 'service',
      user_domain_id: 'default', project_domain_id: 'default',
    });
    // A private image is available: the service's own token is trusted as Glance answered.
    await glance.show(ID);
    await glance.show(ID);
    await glance.show(ID);
    assert.equal(issued, 2);
    assert.deepEqual(glanceSeen, ['tok-1', 'tok-1', 'tok-1', 'tok-2']);
    const data = await glance.dataRequest(ID);
    assert.equal(data.url, `${glanceUrl}/v2/images/${ID}/file`);
    assert.deepEqual(data.headers, { 'X-Auth-Token': 'tok-2' });
  });

  it('needs endpoint_override or auth to find Glance, and refuses unknown auth plugins', async () => {
    await assert.rejects(serviceFor({}).endpoint(), {
      name: 'CatalogNotFound', message: 'Service type image with endpoint type internal not found in keystone service catalog.',
    });
    assert.throws(() => serviceFor({ auth_type: 'kerberos' }),
      { name: 'ConfigInvalid', message: 'The plugin kerberos could not be found' });
  });
});
