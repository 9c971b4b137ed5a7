/** bcrypt against Debian's python3-bcrypt and htpasswd: same digests, same verdicts. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bcryptHash, bcryptVerify, decodeBase64 } from '../../src/auth/bcrypt';
import { piWords } from '../../src/auth/pi-words';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bcrypt-test-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

/** python3-bcrypt's hashpw for each (password hex, salt string). */
function pythonHashes(cases: { password: Buffer; salt: string }[]): string[] {
  const script = `import bcrypt, json, sys
cases = json.load(sys.stdin)
print(json.dumps([bcrypt.hashpw(bytes.fromhex(c['p']), c['s'].encode()).decode() for c in cases]))`;
  const out = execFileSync('/usr/bin/python3', ['-c', script], {
    env: { PATH: '/usr/bin:/bin', HOME: home },
    input: JSON.stringify(cases.map((c) => ({ p: c.password.toString('hex'), s: c.salt }))),
  });
  return JSON.parse(out.toString()) as string[];
}

describe('bcrypt', () => {
  it('derives Blowfish\'s constants from pi', () => {
    const w = piWords();
    assert.equal(w[0], 0x243f6a88);
    assert.equal(w[17], 0x8979fb1b);
    assert.equal(w[18], 0xd1310ba6);
    assert.equal(w[w.length - 1], 0x3ac372e6);
  });

  it('matches python3-bcrypt digest for digest', () => {
    const passwords = ['', 'a', 'hello world', 'pässwörd ✓', 'x'.repeat(71), 'y'.repeat(72), 'z'.repeat(100)]
      .map((p) => Buffer.from(p, 'utf8'));
    const cases = passwords.flatMap((password, i) => [4, 5].map((cost) => ({
      password,
      salt: `$2b$0${cost}$${'./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.slice(i * 3, i * 3 + 21)}O`,
    })));
    const expected = pythonHashes(cases);
    for (const [i, c] of cases.entries()) {
      const [, , cost, rest] = c.salt.split('$');
      assert.equal(bcryptHash(c.password, Number(cost), decodeBase64(rest, 16)), expected[i], `case ${i}`);
      assert.equal(bcryptVerify(c.password, expected[i]), true);
    }
  });

  it('verifies htpasswd -B ($2y$) entries and rejects wrong passwords', () => {
    const line = execFileSync('/usr/bin/htpasswd', ['-nbB', '-C', '6', 'user', 'open sesame']).toString().trim();
    const hash = line.slice('user:'.length);
    assert.match(hash, /^\$2y\$06\$/);
    assert.equal(bcryptVerify(Buffer.from('open sesame'), hash), true);
    assert.equal(bcryptVerify(Buffer.from('open sesamE'), hash), false);
    assert.equal(bcryptVerify(Buffer.from('open sesame'), hash.replace('$2y$', '$1$')), false);
    assert.equal(bcryptVerify(Buffer.from('open sesame'), hash.slice(0, -1)), false);
  });

  it('only the first 72 bytes of a password count', () => {
    const hash = pythonHashes([{ password: Buffer.from('k'.repeat(72)), salt: '$2b$04$abcdefghijklmnopqrstuu' }])[0];
    assert.equal(bcryptVerify(Buffer.from('k'.repeat(90)), hash), true);
    assert.equal(bcryptVerify(Buffer.from('k'.repeat(71)), hash), false);
  });
});
