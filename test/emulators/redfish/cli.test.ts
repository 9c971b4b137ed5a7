// src/cmd/redfish-emulator.ts: starts, serves, and exits cleanly on SIGTERM.

import assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { RedfishClient } from '../../../src/protocols/redfish';
import { makeTestPki } from '../../protocols/redfish/helpers/pki';

const CLI = resolve(__dirname, '../../../src/cmd/redfish-emulator.js');

/** The URL the CLI prints, or a failure carrying its stderr if it exits first. */
function announcedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /at (https?:\/\/127\.0\.0\.1:\d+)\/redfish\/v1\//.exec(out)?.[1];
      if (url) resolveUrl(url);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code} before announcing its URL: ${err}`)));
  });
}

describe('redfish-emulator CLI', () => {
  it('serves the requested systems until SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--system-ids', 'r1,r2,r3', '--port', '0', '--username', 'ops', '--password', 'pw'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await announcedUrl(child);
      assert.match(url, /^http:/);
      const auth = { Authorization: `Basic ${Buffer.from('ops:pw').toString('base64')}` };
      const systems = (await (await fetch(`${url}/redfish/v1/Systems`, { headers: auth })).json()) as { Members: unknown[] };
      assert.equal(systems.Members.length, 3);
      assert.equal((await fetch(`${url}/redfish/v1/Systems`)).status, 401);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });

  it('speaks HTTPS with --tls-cert/--tls-key', async () => {
    const pki = makeTestPki();
    const child = spawn(process.execPath, [CLI, '--port', '0', '--tls-cert', `${pki.dir}/server.pem`, '--tls-key', `${pki.dir}/server.key`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await announcedUrl(child);
      assert.match(url, /^https:/);
      const client = new RedfishClient({ address: url, verifyCa: pki.caPath, systemId: null, connectionAttempts: 1 });
      assert.equal((await client.getSystem()).id, '1');
    } finally {
      child.kill('SIGTERM');
      pki.cleanup();
    }
    await once(child, 'exit');
  });

  it('rejects bad arguments with exit status 2', () => {
    const res = spawnSync(process.execPath, [CLI, '--port', 'eighty'], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(res.status, 2);
    assert.match(res.stderr, /--port must be a non-negative integer/);
  });
});
