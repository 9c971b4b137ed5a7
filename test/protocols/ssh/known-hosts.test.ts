/**
 * known_hosts matching against files written and hashed by OpenSSH's own ssh-keygen, so the
 * hashed form (`|1|salt|hmac`) and `[host]:port` names are OpenSSH's, not ours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkKnownHosts, sha256Fingerprint } from '../../../src/protocols/ssh/known-hosts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'known-hosts-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** A fresh ed25519 host key: its `type base64` public line and its blob. */
function hostKey(name: string): { line: string; blob: Buffer } {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  const [type, b64] = fs.readFileSync(`${file}.pub`, 'utf8').trim().split(/\s+/);
  return { line: `${type} ${b64}`, blob: Buffer.from(b64, 'base64') };
}

const a = hostKey('a');
const b = hostKey('b');

function hashed(text: string): string {
  const file = path.join(dir, `kh-${Math.random().toString(16).slice(2)}`);
  fs.writeFileSync(file, text);
  execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
  return fs.readFileSync(file, 'utf8');
}

test('plain names: the port form, known, changed and unknown', () => {
  const text = `# comment\n[10.0.0.5]:2222 ${a.line}\nhv1.example.com,10.0.0.6 ${a.line} comment\n`;
  assert.equal(checkKnownHosts(text, '10.0.0.5', 2222, a.blob), 'known');
  assert.equal(checkKnownHosts(text, '10.0.0.5', 2222, b.blob), 'changed');
  assert.equal(checkKnownHosts(text, '10.0.0.5', 22, a.blob), 'unknown', 'port 22 is the bare name');
  assert.equal(checkKnownHosts(text, '10.0.0.6', 22, a.blob), 'known');
  assert.equal(checkKnownHosts(text, 'HV1.example.com', 22, a.blob), 'known', 'names compare without case');
  assert.equal(checkKnownHosts('', '10.0.0.6', 22, a.blob), 'unknown');
});

test('names hashed by ssh-keygen -H still match, and only their own host', () => {
  const text = hashed(`[10.0.0.5]:2222 ${a.line}\n10.0.0.6 ${b.line}\n`);
  assert.ok(!text.includes('10.0.0.'), 'the names are hashed');
  assert.equal(checkKnownHosts(text, '10.0.0.5', 2222, a.blob), 'known');
  assert.equal(checkKnownHosts(text, '10.0.0.6', 22, b.blob), 'known');
  assert.equal(checkKnownHosts(text, '10.0.0.6', 22, a.blob), 'changed');
  assert.equal(checkKnownHosts(text, '10.0.0.7', 22, a.blob), 'unknown');
});

test('wildcards, negation and @revoked', () => {
  const text = `10.0.1.*,!10.0.1.9 ${a.line}\n@revoked * ${b.line}\n@cert-authority * ${b.line}\n`;
  assert.equal(checkKnownHosts(text, '10.0.1.4', 22, a.blob), 'known');
  assert.equal(checkKnownHosts(text, '10.0.1.9', 22, a.blob), 'unknown', 'negated');
  assert.equal(checkKnownHosts(text, '10.0.1.4', 22, b.blob), 'revoked');
});

test('fingerprints read as ssh-keygen -l prints them', () => {
  const printed = execFileSync('ssh-keygen', ['-lf', path.join(dir, 'a.pub')]).toString().split(' ')[1];
  assert.equal(sha256Fingerprint(a.blob), printed);
});
