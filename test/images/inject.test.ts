import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { injectExtraData, setRootPassword } from '../../src/images/inject';
import { validateExtraData } from '../../src/images/extra-data-schema';
import { sha512Crypt } from '../../src/common/sha-crypt';

const run = promisify(execFile);
const SHADOW = 'root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n';
let dir: string;
let image: string;

async function debugfsCat(img: string, p: string): Promise<Buffer> {
  const { stdout } = await run('/sbin/debugfs', ['-R', `cat "${p}"`, img], { encoding: 'buffer' });
  return stdout;
}

async function debugfsStat(img: string, p: string): Promise<string> {
  return (await run('/sbin/debugfs', ['-R', `stat "${p}"`, img])).stdout;
}

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'inject-'));
  const tree = path.join(dir, 'tree');
  await fsp.mkdir(path.join(tree, 'etc'), { recursive: true });
  await fsp.writeFile(path.join(tree, 'etc', 'shadow'), SHADOW, { mode: 0o640 });
  await fsp.writeFile(path.join(tree, 'etc', 'motd'), 'old motd\n');
  image = path.join(dir, 'root.img');
  await run('/sbin/mkfs.ext4', ['-q', '-F', '-d', tree, image, '16M']);
});

after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

test('sha512-crypt matches openssl passwd -6 and the spec vectors', async () => {
  for (const [pw, salt] of [['secret', 'abcdefgh'], ['pässwörd with spaces', 'Zz./09'], ['a-much-longer-password-than-sixty-four-bytes-to-cover-the-repeat-path-of-the-algorithm!', 'x']] as const) {
    const { stdout } = await run('openssl', ['passwd', '-6', '-salt', salt, pw]);
    assert.equal(sha512Crypt(pw, salt), stdout.trim());
  }
  assert.equal(
    sha512Crypt('Hello world!', 'saltstringsaltstring', 10000),
    '$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.',
  );
});

test('admin_pass and files are injected into a copy; original untouched', async () => {
  const before = await fsp.readFile(image);
  const out = path.join(dir, 'node.img');
  const motd = Buffer.from('welcome to ironic-ts\n');
  const key = crypto.randomBytes(3000);
  const res = await injectExtraData(image, out, {
    admin_pass: 'S3cret!',
    files: [
      { path: '/etc/motd', contents: motd.toString('base64') },
      { path: '/root/.ssh/authorized_keys', contents: key.toString('base64') },
    ],
    os_type: 'linux',
  }, { now: new Date('2026-01-01T00:00:00Z') });
  assert.equal(res.passwordSet, true);
  assert.deepEqual(await fsp.readFile(image), before);

  const shadow = (await debugfsCat(out, '/etc/shadow')).toString();
  const root = shadow.split('\n')[0]!.split(':');
  assert.match(root[1]!, /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
  assert.equal(root[2], String(Math.floor(Date.parse('2026-01-01T00:00:00Z') / 86400000)));
  assert.equal(shadow.split('\n')[1], 'daemon:*:19000:0:99999:7:::');
  const salt = root[1]!.split('$')[2]!;
  const { stdout } = await run('openssl', ['passwd', '-6', '-salt', salt, 'S3cret!']);
  assert.equal(root[1], stdout.trim());
  assert.match(await debugfsStat(out, '/etc/shadow'), /Mode:\s+0640/);

  assert.deepEqual(await debugfsCat(out, '/etc/motd'), motd);
  assert.deepEqual(await debugfsCat(out, '/root/.ssh/authorized_keys'), key);
  assert.match(await debugfsStat(out, '/root/.ssh'), /Type: directory/);
  // The filesystem is still consistent.
  await run('/sbin/e2fsck', ['-fn', out]);
});

test('filesystem at an offset inside a disk image', async () => {
  const disk = path.join(dir, 'disk.img');
  await fsp.writeFile(disk, Buffer.concat([Buffer.alloc(1024 * 1024), await fsp.readFile(image)]));
  const out = path.join(dir, 'disk-node.img');
  await injectExtraData(disk, out, { files: [{ path: '/etc/hostname', contents: Buffer.from('box\n').toString('base64') }] }, { offset: 1024 * 1024 });
  const { stdout } = await run('/sbin/debugfs', ['-R', 'cat /etc/hostname', `${out}?offset=1048576`]);
  assert.equal(stdout, 'box\n');
});

test('failures are typed and leave no half-made copy', async () => {
  const junk = path.join(dir, 'junk.img');
  await fsp.writeFile(junk, Buffer.alloc(1024 * 1024));
  const out = path.join(dir, 'junk-out.img');
  await assert.rejects(injectExtraData(junk, out, { admin_pass: 'x' }), { name: 'InjectionError' });
  await assert.rejects(fsp.stat(out));
  const tree = path.join(dir, 'noshadow');
  await fsp.mkdir(tree);
  const img2 = path.join(dir, 'noshadow.img');
  await run('/sbin/mkfs.ext4', ['-q', '-F', '-d', tree, img2, '8M']);
  await assert.rejects(injectExtraData(img2, path.join(dir, 'ns-out.img'), { admin_pass: 'x' }), { name: 'InjectionError', message: /shadow/ });
  await assert.rejects(injectExtraData(image, path.join(dir, 'w.img'), { admin_pass: 'x', os_type: 'windows' }), { name: 'InjectionError' });
  await assert.rejects(injectExtraData(image, image, { admin_pass: 'x' }), { name: 'InjectionError' });
});

test('extra_data validation', () => {
  assert.deepEqual(validateExtraData({}), {});
  assert.throws(() => validateExtraData({ admin_pass: 1 }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData({ bogus: 1 }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData({ files: [{ path: 'relative', contents: '' }] }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData({ files: [{ path: '/a/../b', contents: '' }] }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData({ files: [{ path: '/a', contents: '%%%' }] }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData({ os_type: 'bsd' }), { name: 'ExtraDataValidationError' });
  assert.throws(() => validateExtraData([]), { name: 'ExtraDataValidationError' });
});

test('setRootPassword keeps other entries and requires root', () => {
  const out = setRootPassword(SHADOW, '$6$x$y', new Date(86400000 * 20000));
  assert.equal(out.split('\n')[0], 'root:$6$x$y:20000:0:99999:7:::');
  assert.throws(() => setRootPassword('daemon:*:1:::::\n', 'h', new Date()), { name: 'InjectionError' });
});
