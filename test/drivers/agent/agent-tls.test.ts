/**
 * The agent's auto-generated TLS certificate, as IPA 10.2 makes one: stored from the heartbeat
 * (storeAgentCertificate) and then the only certificate the agent client trusts for that node.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { InvalidParameterValue } from '../../../src/common/errors';
import { Config } from '../../../src/conf/config';
import { storeAgentCertificate } from '../../../src/conductor/agent-certificate';
import { AgentClient } from '../../../src/drivers/agent/client';
import { agentHttp, agentVerify } from '../../../src/drivers/agent/transport';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
let dir: string;
let server: https.Server;
let url: string;
let pem: string;

/** A self-signed certificate for 127.0.0.1, as IPA generates for its own address. */
function selfSigned(name: string): { cert: string; key: string } {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-keyout', `${name}.key`, '-out', `${name}.pem`, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
  { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  return { cert: readFileSync(path.join(dir, `${name}.pem`), 'utf8'), key: readFileSync(path.join(dir, `${name}.key`), 'utf8') };
}

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agent-tls-'));
  const tls = selfSigned('agent');
  pem = tls.cert;
  server = https.createServer(tls, (req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(req.method === 'GET' ? { commands: [] } : { command_status: 'SUCCEEDED', command_result: { ok: 1 }, command_error: null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fsp.rm(dir, { recursive: true, force: true });
});

test('the certificate from the heartbeat is stored per node, kept while unchanged and a changed one refused', async () => {
  const conf = new Config([], { agent: { certificates_path: path.join(dir, 'certs') } });
  const stored = await storeAgentCertificate(conf, { uuid: UUID, driver_internal_info: {} }, pem);
  assert.equal(stored, path.join(dir, 'certs', `${UUID}.crt`));
  assert.equal(await fsp.readFile(stored, 'utf8'), pem);
  assert.equal(await storeAgentCertificate(conf, { uuid: UUID, driver_internal_info: { agent_verify_ca: stored } }, `${pem}\n`), stored);
  await assert.rejects(storeAgentCertificate(conf, { uuid: UUID, driver_internal_info: { agent_verify_ca: stored } }, selfSigned('other').cert),
    (err: unknown) => err instanceof InvalidParameterValue && /Detected change in ramdisk provided "agent_verify_ca"/.test(err.message));
});

test('verification follows driver_internal_info, then driver_info, then [agent]verify_ca', async () => {
  const conf = new Config([], { agent: { verify_ca: 'False' } });
  const ca = path.join(dir, 'agent.pem');
  assert.equal(agentVerify(conf, { driver_internal_info: { agent_verify_ca: ca }, driver_info: { agent_verify_ca: 'true' } }), ca);
  assert.equal(agentVerify(conf, { driver_internal_info: {}, driver_info: { agent_verify_ca: 'yes' } }), true);
  assert.equal(agentVerify(conf, { driver_internal_info: {}, driver_info: {} }), false);
  assert.throws(() => agentVerify(conf, { driver_internal_info: { agent_verify_ca: '/no/such/ca.pem' }, driver_info: {} }),
    /Agent CA \/no\/such\/ca.pem is neither a path nor a boolean/);
});

test('an agent with a self-signed certificate is reached only with that certificate', async () => {
  const ca = path.join(dir, 'agent.pem');
  const res = await agentHttp(`${url}/v1/commands/`, { method: 'GET', timeoutMs: 5000, verify: ca });
  assert.equal(res.status, 200);
  await assert.rejects(agentHttp(`${url}/v1/commands/`, { method: 'GET', timeoutMs: 5000, verify: true }), /self-signed certificate/);
  const client = new AgentClient(new Config([], { agent: { command_timeout: 5, max_command_attempts: 1 } }));
  const node = { uuid: UUID, driver_info: {}, driver_internal_info: { agent_url: url, agent_verify_ca: ca } };
  const result = await client.command(node, 'clean.get_clean_steps', {}, { wait: true });
  assert.equal(result.command_status, 'SUCCEEDED');
});
