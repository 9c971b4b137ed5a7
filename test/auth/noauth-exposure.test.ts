/**
 * auth_strategy = noauth listens on loopback only: the `ironic` command refuses a public
 * [api]host_ip naming [api]allow_insecure_noauth, starts with it and warns; the JSON-RPC server
 * does the same with its own strategy and [json_rpc]allow_insecure_noauth.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config, type Overrides } from '../../src/conf/config';
import { embeddedDefaults } from '../../src/conf/embedded';
import { isLoopback } from '../../src/auth/noauth-exposure';
import { serveJsonRpc } from '../../src/rpc/json-rpc-server';
import type { ConductorApi } from '../../src/rpc/conductor-api';
import { startTestServer } from '../api/support/server';

const IRONIC = path.resolve(__dirname, '..', '..', 'src', 'cmd', 'ironic.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'noauth-exposure-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

function ironicConf(name: string, api: string): string {
  const dir = path.join(home, name);
  fs.mkdirSync(dir);
  const file = path.join(dir, 'ironic.conf');
  fs.writeFileSync(file, `[DEFAULT]
auth_strategy = noauth
rpc_transport = none
host = ${name}
state_path = ${dir}
enabled_hardware_types = fake-hardware
[api]
port = 0
${api}
[database]
connection = sqlite:///${dir}/ironic.sqlite
[dhcp]
dhcp_provider = none
`);
  return file;
}

interface Run {
  stderr: () => string;
  /** Resolves with the exit code, or with the listening URL once the API serves. */
  outcome: Promise<{ code: number | null } | { url: string }>;
  kill(): void;
}

/** Runs the real `ironic` command until it exits or reports that the API listens. */
function runIronic(confFile: string): Run {
  const child = spawn(process.execPath, [IRONIC, '--config-file', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const outcome = new Promise<{ code: number | null } | { url: string }>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /ironic-api listening on (\S+)/.exec(stderr);
      if (listening) resolve({ url: listening[1] });
    });
    child.on('exit', (code) => resolve({ code }));
  });
  return { stderr: () => stderr, outcome, kill: () => child.kill('SIGTERM') };
}

/** The log lines (stderr) written while fn runs in this process. */
async function logDuring(fn: () => Promise<void>): Promise<string> {
  let text = '';
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    text += String(chunk);
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    await fn();
  } finally {
    process.stderr.write = original;
  }
  return text;
}

describe('noauth exposure', () => {
  it('tells loopback addresses from public ones', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost']) {
      assert.equal(isLoopback(host), true, host);
    }
    for (const host of ['0.0.0.0', '::', '', '192.168.1.10', '10.0.0.1', 'fe80::1', '::ffff:10.0.0.1', 'ironic.example.com']) {
      assert.equal(isLoopback(host), false, host);
    }
    // The one-command start (`npm start`, no config file) serves on loopback.
    assert.equal(isLoopback(String(embeddedDefaults().api?.host_ip)), true);
  });

  it('ironic refuses noauth on 0.0.0.0 without [api]allow_insecure_noauth, naming it', async () => {
    const run = runIronic(ironicConf('refused', 'host_ip = 0.0.0.0'));
    const outcome = await run.outcome;
    assert.deepEqual(outcome, { code: 1 }, run.stderr());
    assert.match(run.stderr(), /ERROR: Error: Refusing to start ironic-api with auth_strategy = noauth on 0\.0\.0\.0: .*set \[api\]allow_insecure_noauth = true/);
    assert.doesNotMatch(run.stderr(), /listening on/);
  });

  it('with [api]allow_insecure_noauth it starts on 0.0.0.0 and warns', async () => {
    const run = runIronic(ironicConf('allowed', 'host_ip = 0.0.0.0\nallow_insecure_noauth = true'));
    try {
      const outcome = await run.outcome;
      assert.ok('url' in outcome, run.stderr());
      assert.match(outcome.url, /^http:\/\/0\.0\.0\.0:\d+$/);
      assert.match(run.stderr(), / WARNING ironic-ts ironic-api serves auth_strategy = noauth on 0\.0\.0\.0 because \[api\]allow_insecure_noauth is set/);
      const res = await fetch(`${outcome.url.replace('0.0.0.0', '127.0.0.1')}/v1`);
      assert.equal(res.status, 200);
    } finally {
      run.kill();
    }
  });

  it('noauth on loopback starts as before, without a warning', async () => {
    for (const host of ['127.0.0.1', '::1']) {
      const log = await logDuring(async () => {
        const server = await startTestServer({ api: { host_ip: host } });
        try {
          assert.equal((await server.request('GET', '/v1')).status, 200);
        } finally {
          await server.stop();
        }
      });
      assert.match(log, /ironic-api listening on/);
      assert.doesNotMatch(log, /allow_insecure_noauth/);
    }
  });

  it('the JSON-RPC server refuses its own noauth on a public host_ip unless [json_rpc]allow_insecure_noauth', async () => {
    const local = {} as ConductorApi;
    const refused: Overrides[] = [
      { DEFAULT: { auth_strategy: 'noauth' }, json_rpc: { host_ip: '::', port: 0 } },
      // [json_rpc]auth_strategy wins over [DEFAULT]auth_strategy.
      { DEFAULT: { auth_strategy: 'keystone' }, json_rpc: { auth_strategy: 'noauth', host_ip: '0.0.0.0', port: 0 } },
    ];
    for (const overrides of refused) {
      await assert.rejects(serveJsonRpc(new Config([], overrides), local),
        /^Error: Refusing to start the JSON-RPC server with auth_strategy = noauth on (::|0\.0\.0\.0): .*\[json_rpc\]allow_insecure_noauth = true/);
    }
    const warned = await logDuring(async () => {
      const allowed = await serveJsonRpc(new Config([], {
        DEFAULT: { auth_strategy: 'noauth' }, json_rpc: { host_ip: '0.0.0.0', port: 0, allow_insecure_noauth: true },
      }), local);
      await allowed.close();
    });
    assert.match(warned, / WARNING ironic-ts the JSON-RPC server serves auth_strategy = noauth on 0\.0\.0\.0 because \[json_rpc\]allow_insecure_noauth is set/);
    const quiet = await logDuring(async () => {
      const loopback = await serveJsonRpc(new Config([], { DEFAULT: { auth_strategy: 'noauth' }, json_rpc: { host_ip: '127.0.0.1', port: 0 } }), local);
      await loopback.close();
    });
    assert.match(quiet, /JSON-RPC listening on http:\/\/127\.0\.0\.1:/);
    assert.doesNotMatch(quiet, /WARNING/);
  });
});
