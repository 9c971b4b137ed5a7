/**
 * The iscsi deploy's disk write against qemu-img writing the same image to the same target: the
 * issue's bar is at least 0.8x qemu-img's speed.
 *
 *   node dist/bench/iscsi-write.js [--gib 1] [--rounds 3]
 *
 * Debian's tgtd exports a file as LUN 1 on 127.0.0.1; the image is an ext4 partition image of
 * --gib GiB whose filesystem is filled with random data (so no zero block is skipped). Rounds
 * alternate: `qemu-img convert -n` of the image onto the LUN, then the iscsi deploy's workOnDisk
 * (label, root partition image, no swap) onto the same LUN. Prints the median seconds, MiB/s and
 * the ratio.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTgt } from '../compat-tests/support/tgt-target';
import { workOnDisk } from '../src/drivers/iscsi/work-on-disk';
import { median, nowMs } from './support';

const run = promisify(execFile);

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function filledExt4(dir: string, gib: number): Promise<string> {
  const tree = path.join(dir, 'tree');
  await fsp.mkdir(tree);
  // Most of the filesystem is one file of random bytes: every block of the image carries data.
  const mib = Math.floor(gib * 1024 * 0.9);
  await run('dd', ['if=/dev/urandom', `of=${path.join(tree, 'payload')}`, 'bs=1M', `count=${mib}`, 'status=none']);
  const image = path.join(dir, 'root.img');
  await run('/sbin/mkfs.ext4', ['-q', '-F', '-d', tree, image, `${gib * 1024}M`]);
  await fsp.rm(tree, { recursive: true });
  return image;
}

async function main(): Promise<void> {
  const gib = option('gib', 1);
  const rounds = option('rounds', 3);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'iscsi-bench-'));
  const tgt = await startTgt();
  try {
    const image = await filledExt4(dir, gib);
    const lun = path.join(dir, 'lun.img');
    await fsp.writeFile(lun, '');
    await fsp.truncate(lun, (gib * 1024 + 64) * 1024 * 1024);
    const iqn = 'iqn.2008-10.org.openstack:bench';
    await tgt.exportDisk(iqn, lun);
    const target = { address: '127.0.0.1', port: tgt.port, iqn, lun: 1 };
    const qemuImg: number[] = [];
    const ours: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let t = nowMs();
      await run('qemu-img', ['convert', '-n', '-f', 'raw', '-O', 'raw', image, `iscsi://127.0.0.1:${tgt.port}/${iqn}/1`]);
      qemuImg.push((nowMs() - t) / 1000);
      const workDir = await fsp.mkdtemp(path.join(dir, 'work-'));
      t = nowMs();
      await workOnDisk({ target, image, wholeDisk: false, rootMb: gib * 1024, swapMb: 0, ephemeralMb: 0, ephemeralFormat: 'ext4',
        configdrive: null, workDir, timeoutMs: 3_600_000 });
      ours.push((nowMs() - t) / 1000);
      await fsp.rm(workDir, { recursive: true, force: true });
    }
    const mib = (await fsp.stat(image)).size / 1024 / 1024;
    const [q, o] = [median(qemuImg), median(ours)];
    console.log(`image ${mib.toFixed(0)} MiB, ${rounds} rounds, medians (runs: qemu-img ${qemuImg.map((s) => s.toFixed(1)).join(', ')}; ` +
      `ironic-ts ${ours.map((s) => s.toFixed(1)).join(', ')})`);
    console.log(`qemu-img convert   ${q.toFixed(2)} s  ${(mib / q).toFixed(0)} MiB/s`);
    console.log(`iscsi workOnDisk   ${o.toFixed(2)} s  ${(mib / o).toFixed(0)} MiB/s`);
    console.log(`speed ratio (ironic-ts / qemu-img) ${(q / o).toFixed(2)}  (bar: >= 0.8)`);
  } finally {
    await tgt.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
