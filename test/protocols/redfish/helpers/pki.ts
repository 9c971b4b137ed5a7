// A throw-away CA and a server certificate for 127.0.0.1, made with the openssl CLI.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  caPath: string;
  key: Buffer;
  cert: Buffer;
  cleanup(): void;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function makeTestPki(caName = 'ironic-ts test CA'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'redfish-pki-'));
  openssl(['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${caName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', ...EC, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'], dir);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem',
    '-days', '2', '-extfile', 'ext.cnf'], dir);
  return {
    dir,
    caPath: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key')),
    cert: readFileSync(join(dir, 'server.pem')),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A self-signed server certificate (its own CA), as many BMCs ship. */
export function makeSelfSigned(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'redfish-selfsigned-'));
  openssl(['req', '-x509', ...EC, '-keyout', 'server.key', '-out', 'server.pem', '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1'], dir);
  return {
    dir,
    caPath: join(dir, 'server.pem'),
    key: readFileSync(join(dir, 'server.key')),
    cert: readFileSync(join(dir, 'server.pem')),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
