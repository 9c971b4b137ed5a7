/**
 * [api]enable_ssl_api: the API answers over HTTPS with oslo.service's [ssl] certificate and key,
 * and with [ssl]ca_file only to clients presenting a certificate that CA signed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as https from 'node:https';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import { makeTestPki } from '../protocols/redfish/helpers/pki';
import { startTestServer } from './support/server';
import { Config } from '../../src/conf/config';
import { createListener } from '../../src/common/ssl-server';

function get(url: string, opts: https.RequestOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https.get(url, opts, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

test('serves HTTPS with [ssl]cert_file and key_file', async () => {
  const pki = makeTestPki();
  const server = await startTestServer({
    api: { enable_ssl_api: 'true', host_ip: '127.0.0.1' },
    ssl: { cert_file: path.join(pki.dir, 'server.pem'), key_file: path.join(pki.dir, 'server.key') },
  });
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${server.url}/v1`, { ca: readFileSync(pki.caPath) });
    assert.equal(res.status, 200);
    const v1 = JSON.parse(res.body) as { id: string; links: Array<{ href: string }> };
    assert.equal(v1.id, 'v1');
    // Links name the scheme the request came in on.
    assert.equal(v1.links[0].href, `${server.url}/v1/`);
    // A client that does not trust the CA fails the handshake.
    await assert.rejects(get(`${server.url}/v1`, {}), /self-signed|unable to verify|certificate/i);
  } finally {
    await server.stop();
    pki.cleanup();
  }
});

test('with [ssl]ca_file a client certificate signed by that CA is required', async () => {
  const pki = makeTestPki();
  // A client certificate from the same CA.
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: pki.dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=client']);
  openssl(['x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '2']);
  const server = await startTestServer({
    api: { enable_ssl_api: 'true', host_ip: '127.0.0.1' },
    ssl: { cert_file: path.join(pki.dir, 'server.pem'), key_file: path.join(pki.dir, 'server.key'), ca_file: pki.caPath },
  });
  try {
    const ca = readFileSync(pki.caPath);
    await assert.rejects(get(`${server.url}/v1`, { ca }), /certificate|socket hang up|ECONNRESET|alert/i);
    const res = await get(`${server.url}/v1`, {
      ca, cert: readFileSync(path.join(pki.dir, 'client.pem')), key: readFileSync(path.join(pki.dir, 'client.key')),
    });
    assert.equal(res.status, 200);
  } finally {
    await server.stop();
    pki.cleanup();
  }
});

test('SSL without [ssl]cert_file or with an unreadable key refuses to listen, naming the option', () => {
  assert.throws(() => createListener(new Config([], {}), true, () => undefined), /^Error: \[ssl\]cert_file is required when SSL is enabled$/);
  const conf = new Config([], { ssl: { cert_file: '/dev/null', key_file: '/nonexistent/key.pem' } });
  assert.throws(() => createListener(conf, true, () => undefined), /^Error: Unable to read \[ssl\]key_file \/nonexistent\/key\.pem/);
});
