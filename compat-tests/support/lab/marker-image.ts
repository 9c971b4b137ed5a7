/**
 * A small real bootable whole-disk image, built without loop devices or root: an MBR (syslinux's)
 * with a FAT boot partition (syslinux installed and files copied with mtools) holding the deploy
 * ramdisk's Debian kernel and a tiny initrd, and an ext4 root partition filled by `mkfs.ext4 -d`
 * (with /etc/shadow, so extra_data can set root's password). The initrd's init (busybox, from the
 * deploy ramdisk) reads the config drive and the root partition and prints
 *   E2E-MARKER uuid=<meta_data.json uuid> file=<e2e-injected-... token> hash=<root's password hash>
 * on the serial console, then idles.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { LabRamdisk } from './ironic';
import { sh } from './network';

export const INJECTED_FILE = '/etc/e2e-injected';
export const MIB = 1024 * 1024;
export const SECTOR = 512;

// The partitions are read raw with busybox, so the initrd needs no file system modules: the config
// drive is an uncompressed ISO (meta_data.json is in it as text) and small files of the ext4 root
// sit whole in their data blocks.
const INIT = `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in /m/*.ko; do insmod "$m"; done
echo "e2e image: reading its partitions"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda2 ] && break; sleep 1; done
uuid=$(for p in /dev/vda[3-9]; do [ -b "$p" ] && grep -a -o -m1 '"uuid": "[0-9a-f-]*"' "$p"; done | head -n1 | cut -d'"' -f4)
file=$(grep -a -o -m1 'e2e-injected-[0-9A-Za-z]*' /dev/vda2 | head -n1)
hash=$(grep -a -o -m1 'root:[$][56][$][^:]*' /dev/vda2 | head -n1 | cut -d: -f2)
echo "E2E-MARKER uuid=$uuid file=$file hash=$hash"
sync
# Stays up, as an instance does: the power sync sees the power state the conductor left.
while true; do sleep 3600; done
`;

const SYSLINUX_CFG = `SERIAL 0 115200
DEFAULT marker
LABEL marker
  KERNEL vmlinuz
  INITRD initrd
  APPEND console=ttyS0,115200n8
`;

/** modules.dep's entries for `wanted`, dependencies first. */
function loadOrder(modulesDep: string, wanted: string[]): string[] {
  const deps = new Map<string, string[]>();
  for (const line of modulesDep.split('\n')) {
    const [mod, rest] = line.split(':');
    if (mod && rest !== undefined) deps.set(mod.trim(), rest.trim().split(/\s+/).filter(Boolean));
  }
  const out: string[] = [];
  const visit = (mod: string): void => {
    if (out.includes(mod)) return;
    if (!deps.has(mod)) throw new Error(`module ${mod} not in modules.dep`);
    for (const dep of deps.get(mod) ?? []) visit(dep);
    out.push(mod);
  };
  wanted.forEach(visit);
  return out;
}

async function buildInitrd(work: string, ramdisk: LabRamdisk): Promise<string> {
  const extract = path.join(work, 'extract');
  const initrd = path.join(work, 'initrd-root');
  await fsp.mkdir(extract, { recursive: true });
  await sh('sh', ['-c', `cd '${extract}' && zstd -dc '${ramdisk.initramfs}' | cpio -idm --quiet 'usr/bin/busybox' 'usr/lib/modules/*'`], 300_000);
  const [kver] = await fsp.readdir(path.join(extract, 'usr/lib/modules'));
  const modDir = path.join(extract, 'usr/lib/modules', kver!);
  const order = loadOrder(await fsp.readFile(path.join(modDir, 'modules.dep'), 'utf8'),
    ['kernel/drivers/block/virtio_blk.ko.xz']);
  for (const dir of ['bin', 'm', 'proc', 'sys', 'dev']) await fsp.mkdir(path.join(initrd, dir), { recursive: true });
  await fsp.copyFile(path.join(extract, 'usr/bin/busybox'), path.join(initrd, 'bin/busybox'));
  await fsp.chmod(path.join(initrd, 'bin/busybox'), 0o755);
  for (const [i, mod] of order.entries()) {
    const name = `${String(i).padStart(2, '0')}-${path.basename(mod).replace(/\.xz$/, '')}`;
    await sh('sh', ['-c', `xz -dc '${path.join(modDir, mod)}' > '${path.join(initrd, 'm', name)}'`]);
  }
  await fsp.writeFile(path.join(initrd, 'init'), INIT, { mode: 0o755 });
  const out = path.join(work, 'initrd');
  await sh('sh', ['-c', `cd '${initrd}' && find . | LC_ALL=C sort | cpio -o -H newc --quiet > '${out}'`]);
  return out;
}

/** An empty FAT file system for the boot partition, made for its place on the disk (hidden sectors). */
export async function formatBootPartition(work: string, sizeMiB: number, startSector: number): Promise<string> {
  const fat = path.join(work, 'boot.img');
  await sh('mformat', ['-i', fat, '-C', '-T', String((sizeMiB * MIB) / SECTOR), '-h', '255', '-s', '63', '-H', String(startSector), '-v', 'E2EBOOT', '::']);
  return fat;
}

/**
 * syslinux installed in place on the disk (so the sector map of ldlinux.sys it records is the
 * disk's), then the kernel, initrd and configuration copied in with mtools at the same offset.
 */
export async function installBootloader(disk: string, offset: number, files: Array<[string, string]>): Promise<void> {
  await sh('syslinux', ['--install', '--offset', String(offset), disk]);
  for (const [from, name] of files) await sh('mcopy', ['-i', `${disk}@@${offset}`, from, `::${name}`]);
}

async function buildRootPartition(work: string, sizeMiB: number): Promise<string> {
  const root = path.join(work, 'rootfs');
  await fsp.mkdir(path.join(root, 'etc'), { recursive: true });
  await fsp.writeFile(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
  await fsp.writeFile(path.join(root, 'etc/shadow'), 'root:*:20000:0:99999:7:::\n', { mode: 0o640 });
  await fsp.writeFile(path.join(root, 'etc/hostname'), 'e2e-image\n');
  await fsp.writeFile(path.join(root, INJECTED_FILE.slice(1)), 'not injected\n');
  const img = path.join(work, 'root.img');
  await sh('mkfs.ext4', ['-q', '-F', '-L', 'e2e-root', '-d', root, img, `${sizeMiB}M`]);
  return img;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export async function buildMarkerImage(dir: string, ramdisk: LabRamdisk): Promise<{ path: string; sha256: string }> {
  const work = path.join(dir, 'marker-image');
  await fsp.mkdir(work, { recursive: true });
  const bootMiB = 32;
  const rootMiB = 24;
  const initrd = await buildInitrd(work, ramdisk);
  const bootStart = MIB / SECTOR;
  const boot = await formatBootPartition(work, bootMiB, bootStart);
  const root = await buildRootPartition(work, rootMiB);
  const disk = path.join(dir, 'marker-disk.raw');
  await sh('truncate', ['-s', `${1 + bootMiB + rootMiB + 1}M`, disk]);
  const rootStart = bootStart + (bootMiB * MIB) / SECTOR;
  await sh('sh', ['-c', `printf 'label: dos\\nstart=${bootStart}, size=${(bootMiB * MIB) / SECTOR}, type=e, bootable\\n` +
    `start=${rootStart}, size=${(rootMiB * MIB) / SECTOR}, type=83\\n' | sfdisk -q '${disk}'`]);
  await sh('dd', [`if=${boot}`, `of=${disk}`, `bs=${SECTOR}`, `seek=${bootStart}`, 'conv=notrunc,sparse', 'status=none']);
  await sh('dd', [`if=${root}`, `of=${disk}`, `bs=${SECTOR}`, `seek=${rootStart}`, 'conv=notrunc,sparse', 'status=none']);
  const cfg = path.join(work, 'syslinux.cfg');
  await fsp.writeFile(cfg, SYSLINUX_CFG);
  await installBootloader(disk, bootStart * SECTOR, [[ramdisk.kernel, 'vmlinuz'], [initrd, 'initrd'], [cfg, 'syslinux.cfg']]);
  await sh('dd', ['if=/usr/lib/syslinux/mbr/mbr.bin', `of=${disk}`, 'bs=440', 'count=1', 'conv=notrunc', 'status=none']);
  if (!process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(work, { recursive: true, force: true });
  return { path: disk, sha256: await sha256(disk) };
}
