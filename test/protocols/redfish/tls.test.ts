// verify_ca against an HTTPS emulator whose certificate comes from a throw-away CA.

import assert from 'node:assert/strict';
import { mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RedfishEmulator, startRedfishEmulator } from '../../../src/emulators/redfish';
import { RedfishClient, RedfishConfigError, RedfishTlsError, VerifyCa } from '../../../src/protocols/redfish';
import { TestPki, makeSelfSigned, makeTestPki } from './helpers/pki';

let pki: TestPki;
let otherPki: TestPki;
let emu: RedfishEmulator;

function client(verifyCa: VerifyCa, address = emu.url): RedfishClient {
  return new RedfishClient({ address, username: 'admin', password: 'pw', verifyCa, connectionAttempts: 1, timeoutMs: 5000, systemId: null });
}

before(async () => {
  pki = makeTestPki();
  otherPki = makeTestPki('some other CA');
  emu = await startRedfishEmulator({ systems: 1, auth: { username: 'admin', password: 'pw' }, tls: { key: pki.key, cert: pki.cert } });
});
after(async () => {
  await emu.stop();
  pki.cleanup();
  otherPki.cleanup();
});

describe('verify_ca', () => {
  it('trusts the BMC when given its CA bundle path', async () => {
    assert.match(emu.url, /^https:/);
    assert.equal((await client(pki.caPath).getSystem()).id, '1');
  });

  it('accepts a directory of CA certificates', async () => {
    const dir = join(pki.dir, 'cas');
    mkdirSync(dir, { recursive: true });
    copyFileSync(pki.caPath, join(dir, 'bmc-ca.pem'));
    assert.equal((await client(dir).getSystem()).id, '1');
  });

  it('uses https when redfish_address is host:port', async () => {
    assert.equal((await client(pki.caPath, `127.0.0.1:${emu.port}`).getSystem()).id, '1');
  });

  it('fails with RedfishTlsError against the system store or the wrong CA', async () => {
    await assert.rejects(client(true).getSystem(), RedfishTlsError);
    await assert.rejects(client(otherPki.caPath).getSystem(), RedfishTlsError);
  });

  it('skips verification when false (boolean or word)', async () => {
    assert.equal((await client(false).getSystem()).id, '1');
    assert.equal((await client('False').getSystem()).id, '1');
  });

  it('trusts a self-signed BMC certificate given as its own CA bundle', async () => {
    const self = makeSelfSigned();
    const bmc = await startRedfishEmulator({ systems: 1, tls: { key: self.key, cert: self.cert } });
    try {
      assert.equal((await client(self.caPath, bmc.url).getSystem()).id, '1');
      await assert.rejects(client(true, bmc.url).getSystem(), (err: unknown) => err instanceof RedfishTlsError && err.code === 'DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await bmc.stop();
      self.cleanup();
    }
  });

  it('rejects a value that is neither a path nor a boolean', () => {
    assert.throws(() => client('/no/such/ca.pem'), RedfishConfigError);
    assert.throws(() => client('perhaps'), RedfishConfigError);
  });
});
