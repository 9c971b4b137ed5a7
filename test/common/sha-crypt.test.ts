import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { CryptError, sha256Crypt, sha512Crypt } from '../../src/common/sha-crypt';

/** The same hash from Debian's openssl, an independent crypt(3) implementation. */
function opensslPasswd(variant: '-5' | '-6', salt: string, password: string): string {
  return execFileSync('openssl', ['passwd', variant, '-salt', salt, password]).toString().trim();
}

for (const [password, salt] of [['Hello world!', 'saltstring'], ['a', 'x'], ['pässwörd with a long tail '.repeat(4), 'abcdefghijklmnop']]) {
  test(`$5$ and $6$ hashes equal openssl's for ${JSON.stringify(password.slice(0, 12))}`, () => {
    assert.equal(sha256Crypt(password, salt), opensslPasswd('-5', salt, password));
    assert.equal(sha512Crypt(password, salt), opensslPasswd('-6', salt, password));
  });
}

test('explicit rounds appear in the hash and change it', () => {
  const hash = sha512Crypt('pw', 'salt', 1000);
  assert.match(hash, /^\$6\$rounds=1000\$salt\$/);
  assert.equal(hash, opensslPasswd('-6', 'rounds=1000$salt', 'pw'));
  assert.notEqual(hash.split('$').pop(), sha512Crypt('pw', 'salt').split('$').pop());
});

test('a salt with characters outside [./0-9A-Za-z] is refused', () => {
  assert.throws(() => sha256Crypt('pw', 'bad$salt'), CryptError);
});
