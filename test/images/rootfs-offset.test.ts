import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { injectExtraData } from '../../src/images/inject';
import { findRootFilesystemOffset } from '../../src/images/rootfs-offset';

const run = promisify(execFile);
let dir: string;
let fsImage: string;

/** A whole-disk image: sfdisk's partition table, a small first partition and the ext4 root as the second. */
async function diskWith(label: 'gpt' | 'dos'): Promise<string> {
  const disk = path.join(dir, `${label}.img`);
  await fsp.writeFile(disk, Buffer.alloc(0));
  await fsp.truncate(disk, 16 * 1024 * 1024);
  const table = `label: ${label}\nstart=2048, size=2048, type=${label === 'gpt' ? 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B' : 'ef'}\n` +
    `start=4096, type=${label === 'gpt' ? '0FC63DAF-8483-4772-8E79-3D69D8477DE4' : '83'}\n`;
  await new Promise<void>((resolve, reject) => {
    const child = execFile('/usr/sbin/sfdisk', ['--no-reread', '--no-tell-kernel', '-q', disk], (err) => (err ? reject(err) : resolve()));
    child.stdin!.end(table);
  });
  const fh = await fsp.open(disk, 'r+');
  try {
    await fh.write(await fsp.readFile(fsImage), 0, undefined, 4096 * 512);
  } finally {
    await fh.close();
  }
  return disk;
}

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rootfs-offset-'));
  const tree = path.join(dir, 'tree');
  await fsp.mkdir(path.join(tree, 'etc'), { recursive: true });
  await fsp.writeFile(path.join(tree, 'etc', 'shadow'), 'root:*:19000:0:99999:7:::\n', { mode: 0o640 });
  fsImage = path.join(dir, 'root.fs');
  await run('/sbin/mkfs.ext4', ['-q', '-F', '-d', tree, fsImage, '6M']);
});
after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

test('a bare filesystem starts at 0; nothing ext in a blank image', async () => {
  assert.equal(await findRootFilesystemOffset(fsImage), 0);
  const blank = path.join(dir, 'blank.img');
  await fsp.writeFile(blank, Buffer.alloc(64 * 1024));
  assert.equal(await findRootFilesystemOffset(blank), null);
});

for (const label of ['dos', 'gpt'] as const) {
  test(`the ext root partition of an ${label} disk is found and injectable`, async () => {
    const disk = await diskWith(label);
    const offset = await findRootFilesystemOffset(disk);
    assert.equal(offset, 4096 * 512);
    const out = path.join(dir, `${label}-injected.img`);
    await injectExtraData(disk, out, { files: [{ path: '/etc/motd', contents: Buffer.from('partitioned\n').toString('base64') }] },
      { offset: offset! });
    const { stdout } = await run('/sbin/debugfs', ['-R', 'cat /etc/motd', `${out}?offset=${offset}`]);
    assert.equal(stdout, 'partitioned\n');
  });
}
