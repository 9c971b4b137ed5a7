/**
 * The iscsi deploy's pieces for the lab (its ramdisk is in ./ramdisk.ts): pxelinux for the `pxe` boot
 * interface, and a partition-image instance: an ext4 root (with /etc/shadow for extra_data) plus a
 * kernel and initrd the `boot` entry starts. The initrd's init
 * (busybox, modules and kernel from the iscsi ramdisk) finds the partitions by their signatures
 * (ext4's UUID, swap's SWAPSPACE2, the configdrive's meta_data.json) and prints
 *   ISCSI-MARKER root=<root= argument> rootdev=<its partition> uuid=<meta_data.json uuid> file=<injected token>
 *   hash=<root's password hash> swap=<the swap partition>
 * on the serial console, then powers the machine off.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { LabRamdisk } from './ironic';
import { INJECTED_FILE } from './marker-image';
import { sh } from './network';

/** pxelinux.0 and ldlinux.c32 (Debian's pxelinux and syslinux-common) where the boot loader looks. */
export async function placePxelinux(tftpRoot: string): Promise<void> {
  await fsp.mkdir(tftpRoot, { recursive: true });
  await fsp.copyFile('/usr/lib/PXELINUX/pxelinux.0', path.join(tftpRoot, 'pxelinux.0'));
  await fsp.copyFile('/usr/lib/syslinux/modules/bios/ldlinux.c32', path.join(tftpRoot, 'ldlinux.c32'));
}

const INSTANCE_INIT = `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /etc/ramdisk-modules); do modprobe "$m" 2>/dev/null; done
echo "iscsi instance: reading its partitions"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda1 ] && break; sleep 1; done
root=$(tr ' ' '\\n' </proc/cmdline | sed -n 's/^root=//p')
want=$(echo "\${root#UUID=}" | tr -d '-')
rootdev=""; cd=""; swap=""
for p in /dev/vda[1-9]; do
  [ -b "$p" ] || continue
  # ext4's UUID sits 104 bytes into its superblock (which starts at 1024).
  [ "$(od -An -tx1 -j1128 -N16 "$p" | tr -d ' \\n')" = "$want" ] && rootdev=$p
  [ "$(od -An -c -j4086 -N10 "$p" | tr -d ' \\n')" = "SWAPSPACE2" ] && swap=$p
  [ -z "$cd" ] && grep -a -q -m1 '"uuid": ' "$p" && [ "$p" != "$rootdev" ] && cd=$p
done
uuid=$(grep -a -o -m1 '"uuid": "[0-9a-f-]*"' "$cd" | head -n1 | cut -d'"' -f4)
file=$(grep -a -o -m1 'e2e-injected-[0-9A-Za-z]*' "$rootdev" | head -n1)
hash=$(grep -a -o -m1 'root:[$][56][$][^:]*' "$rootdev" | head -n1 | cut -d: -f2)
echo "ISCSI-MARKER root=$root rootdev=$rootdev uuid=$uuid file=$file hash=$hash swap=$swap"
sync
poweroff -f
`;

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export interface IscsiInstance {
  image: string;
  sha256: string;
  kernel: string;
  initrd: string;
}

export async function buildIscsiInstance(dir: string, ramdisk: LabRamdisk): Promise<IscsiInstance> {
  const work = path.join(dir, 'iscsi-instance');
  const tree = path.join(work, 'initrd');
  await fsp.mkdir(tree, { recursive: true });
  await sh('sh', ['-c', `cd '${tree}' && gzip -dc '${ramdisk.initramfs}' | cpio -idm --quiet`]);
  await fsp.writeFile(path.join(tree, 'init'), INSTANCE_INIT, { mode: 0o755 });
  const initrd = path.join(dir, 'instance.initrd');
  await sh('sh', ['-c', `cd '${tree}' && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip > '${initrd}'`]);
  const rootfs = path.join(work, 'rootfs');
  await fsp.mkdir(path.join(rootfs, 'etc'), { recursive: true });
  await fsp.writeFile(path.join(rootfs, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
  await fsp.writeFile(path.join(rootfs, 'etc/shadow'), 'root:*:20000:0:99999:7:::\n', { mode: 0o640 });
  await fsp.writeFile(path.join(rootfs, INJECTED_FILE.slice(1)), 'not injected\n');
  const image = path.join(dir, 'instance-root.img');
  await sh('mkfs.ext4', ['-q', '-F', '-L', 'iscsi-root', '-d', rootfs, image, '24M']);
  const kernel = path.join(dir, 'instance.kernel');
  await fsp.copyFile(ramdisk.kernel, kernel);
  await fsp.rm(work, { recursive: true, force: true });
  return { image, sha256: await sha256(image), kernel, initrd };
}
