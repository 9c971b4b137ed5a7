import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { StreamVerifier, algoForDigest, imageFileName, parseChecksumFile, resolveChecksum } from '../../src/images/checksum';

test('algorithm from digest length', () => {
  assert.equal(algoForDigest('a'.repeat(32)), 'md5');
  assert.equal(algoForDigest('a'.repeat(64)), 'sha256');
  assert.equal(algoForDigest('a'.repeat(128)), 'sha512');
  assert.throws(() => algoForDigest('xyz'), { name: 'ChecksumError' });
});

test('checksum files: GNU, binary-marker, BSD and single-digest forms', () => {
  const h1 = 'a'.repeat(64);
  const h2 = 'b'.repeat(64);
  assert.equal(parseChecksumFile(`${h1}  other.img\n${h2}  disk.qcow2\n`, 'disk.qcow2'), h2);
  assert.equal(parseChecksumFile(`${h2} *disk.qcow2\n`, 'disk.qcow2'), h2);
  assert.equal(parseChecksumFile(`SHA256 (disk.qcow2) = ${h2}\n`, 'disk.qcow2'), h2);
  assert.equal(parseChecksumFile(`${h1}\n`, 'anything'), h1);
  assert.throws(() => parseChecksumFile(`${h1}  x.img\n${h2}  y.img\n`, 'z.img'), { name: 'ChecksumError' });
  assert.equal(imageFileName('http://h/p/disk%201.img?x=1'), 'disk 1.img');
});

test('os_hash fields win over image_checksum; URL checksums are fetched', async () => {
  const spec = await resolveChecksum({ image_checksum: 'c'.repeat(32), image_os_hash_algo: 'SHA512', image_os_hash_value: 'D'.repeat(128) }, 'x', async () => '');
  assert.deepEqual(spec, { algo: 'sha512', value: 'd'.repeat(128) });
  const fetched = await resolveChecksum({ image_checksum: 'http://h/SUMS' }, 'http://h/img.raw', async (u) => {
    assert.equal(u, 'http://h/SUMS');
    return `${'e'.repeat(64)}  img.raw\n`;
  });
  assert.deepEqual(fetched, { algo: 'sha256', value: 'e'.repeat(64) });
  assert.equal(await resolveChecksum({}, 'x', async () => ''), undefined);
  await assert.rejects(resolveChecksum({ image_os_hash_algo: 'crc32', image_os_hash_value: '00' }, 'x', async () => ''), { name: 'ChecksumError' });
});

test('stream verifier detects a mismatch', () => {
  const data = Buffer.from('image bytes');
  const good = new StreamVerifier({ algo: 'md5', value: crypto.createHash('md5').update(data).digest('hex') }, 'src');
  good.update(data.subarray(0, 3));
  good.update(data.subarray(3));
  good.verify();
  const bad = new StreamVerifier({ algo: 'md5', value: '0'.repeat(32) }, 'src');
  bad.update(data);
  assert.throws(() => bad.verify(), { name: 'ChecksumMismatchError' });
});
