/** htpasswd digests checked with the bcrypt library: Debian's python3-bcrypt and htpasswd digests verify as Python does. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPassword, costOf, decoyDigest } from '../../src/auth/bcrypt-digest';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bcrypt-test-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

/** python3-bcrypt's hashpw for each password, with a fresh salt of this cost and prefix. */
function pythonHashes(passwords: Buffer[], cost: number, prefix: '2a' | '2b'): string[] {
  const script = `import bcrypt, json, sys
print(json.dumps([bcrypt.hashpw(bytes.fromhex(p), bcrypt.gensalt(${cost}, prefix=b'${prefix}')).decode() for p in json.load(sys.stdin)]))`;
  const out = execFileSync('/usr/bin/python3', ['-c', script], {
    env: { PATH: '/usr/bin:/bin', HOME: home },
    input: JSON.stringify(passwords.map((p) => p.toString('hex'))),
  });
  return JSON.parse(out.toString()) as string[];
}

const PASSWORDS = ['', 'a', 'hello world', 'pässwörd ✓', 'x'.repeat(71), 'y'.repeat(72), 'z'.repeat(100)]
  .map((p) => Buffer.from(p, 'utf8'));

describe('bcrypt digests', () => {
  for (const prefix of ['2b', '2a'] as const) {
    it(`verifies python3-bcrypt's $${prefix}$ digests and rejects other passwords`, async () => {
      const digests = pythonHashes(PASSWORDS, 4, prefix);
      for (const [i, digest] of digests.entries()) {
        assert.ok(digest.startsWith(`$${prefix}$04$`), digest);
        assert.equal(await checkPassword(PASSWORDS[i], digest), true, `password ${i}`);
        assert.equal(await checkPassword(Buffer.concat([PASSWORDS[i].subarray(0, 60), Buffer.from('!')]), digest), false, `password ${i}`);
      }
    });
  }

  it('verifies htpasswd -B ($2y$) entries and rejects wrong passwords and malformed digests', async () => {
    const line = execFileSync('/usr/bin/htpasswd', ['-nbB', '-C', '6', 'user', 'open sesame']).toString().trim();
    const digest = line.slice('user:'.length);
    assert.match(digest, /^\$2y\$06\$/);
    assert.equal(costOf(digest), 6);
    assert.equal(await checkPassword(Buffer.from('open sesame'), digest), true);
    assert.equal(await checkPassword(Buffer.from('open sesamE'), digest), false);
    assert.equal(await checkPassword(Buffer.from('open sesame'), digest.replace('$2y$', '$1$')), false);
    assert.equal(await checkPassword(Buffer.from('open sesame'), digest.slice(0, -1)), false);
  });

  it('only the first 72 bytes of a password count, for every variant', async () => {
    // Not one repeated letter: a key read cyclically would hide a wrong length.
    const alphabet = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 0x61 + (i % 26)));
    for (const prefix of ['2a', '2b'] as const) {
      const [digest] = pythonHashes([alphabet(72)], 4, prefix);
      for (const variant of [digest, `$2y$${digest.slice(4)}`]) {
        assert.equal(await checkPassword(alphabet(90), variant), true);
        // Past 255 bytes too (the library's own $2a$ key length wraps there).
        assert.equal(await checkPassword(alphabet(300), variant), true);
        assert.equal(await checkPassword(alphabet(71), variant), false);
      }
    }
  });

  it('a decoy digest has the asked cost and no password matches it', async () => {
    for (const cost of [4, 5]) {
      const decoy = decoyDigest(cost);
      assert.equal(costOf(decoy), cost);
      for (const password of PASSWORDS) assert.equal(await checkPassword(password, decoy), false);
    }
    assert.equal(costOf(decoyDigest(0)), 4);
  });
});
