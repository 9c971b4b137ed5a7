#!/usr/bin/env bash
# The deploy ramdisk: a kernel and an initramfs built from Debian 13 (trixie) packages, with
# ironic-python-agent 10.2 and the tools it runs, started by scripts/ramdisk/init.
#
#   scripts/ironic-ramdisk.sh build    build unless a build of the same inputs is cached; prints the
#                                      directory holding ironic-agent.kernel and ironic-agent.initramfs
#   scripts/ironic-ramdisk.sh path     print that directory (built or not)
#
# Cached outside the repository in $IRONIC_TS_CACHE_DIR/ramdisk/<hash> (the cache directory
# defaulting to /var/cache/ironic-ts), the hash covering this script and scripts/ramdisk/, so a
# change to either builds anew. Builds take a lock (flock) and happen in a scratch directory renamed
# into place once complete, so a half-built ramdisk is never used. Needs root (debootstrap, chroot).
# DEBIAN_MIRROR overrides the mirror (default http://deb.debian.org/debian).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
files=$here/ramdisk
cache=${IRONIC_TS_CACHE_DIR:-/var/cache/ironic-ts}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

die() { echo "ironic-ramdisk: $*" >&2; exit 1; }

inputs_hash() {
  (cd "$here" && cat ironic-ramdisk.sh && find ramdisk -type f | LC_ALL=C sort | xargs cat) |
    sha256sum | cut -c1-16
}

out=$cache/ramdisk/$(inputs_hash)

built() { [[ -f $out/ironic-agent.kernel && -f $out/ironic-agent.initramfs ]]; }

# CMD... in the root at $1 with /proc and /dev mounted (for dpkg, apt and depmod).
chrooted() {
  unshare -m --propagation private sh -c '
    r=$1; shift
    mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" || exit 1
    exec chroot "$r" "$@"' sh "$@"
}

listed() { grep -v '^#' "$files/$1" | grep -v '^$'; }

installed() { chroot "$1" dpkg-query -W -f='${Status}' "$2" 2>/dev/null | grep -q 'install ok installed'; }

install_packages() {
  local root=$1
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  # The kernel's postinst would build an initramfs-tools initrd nobody boots.
  chroot "$root" dpkg-divert --local --rename --add /usr/sbin/update-initramfs >/dev/null
  printf '#!/bin/sh\nexit 0\n' >"$root/usr/sbin/update-initramfs"
  chmod 755 "$root/usr/sbin/update-initramfs"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  chrooted "$root" apt-get update -q
  # shellcheck disable=SC2046
  chrooted "$root" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends $(listed packages.txt)
}

purge_unneeded() {
  local root=$1 pkg present=()
  for pkg in $(listed purge.txt); do installed "$root" "$pkg" && present+=("$pkg"); done
  ((${#present[@]})) || return 0
  chrooted "$root" env DEBIAN_FRONTEND=noninteractive dpkg --purge --force-depends "${present[@]}"
}

# The agent must still import and the tools it runs must still find their libraries.
check() {
  local root=$1 tool missing
  chrooted "$root" python3 -c 'import ironic_python_agent.cmd.agent, ironic_python_agent.hardware, ironic_python_agent.inspector, ironic_python_agent.extensions.image, ironic_python_agent.extensions.standby, ironic_python_agent.extensions.rescue'
  for tool in qemu-img parted sgdisk sfdisk lsblk blkid dmidecode lshw udevadm ip mkfs.vfat mkfs.ext4 hdparm busybox; do
    missing=$(chroot "$root" sh -c "ldd \$(command -v $tool) 2>&1 | grep 'not found'" || true)
    [[ -z $missing ]] || { echo "ironic-ramdisk: $tool lacks libraries: $missing" >&2; return 1; }
  done
}

install_init() {
  local root=$1
  install -m 755 "$files/init" "$root/init"
  install -d "$root/usr/share/ironic-ts-ramdisk"
  install -m 755 "$files/udhcpc.script" "$root/usr/share/ironic-ts-ramdisk/udhcpc.script"
  echo ironic-agent >"$root/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 ironic-agent\n' >"$root/etc/hosts"
  : >"$root/etc/resolv.conf"
  [[ -e $root/dev/console ]] || mknod -m 600 "$root/dev/console" c 5 1
}

# Drops what a ramdisk never reads: documentation, locales, apt's lists and caches, and the kernel
# modules of hardware a provisioning ramdisk does not drive (graphics, sound, wireless, media...).
slim() {
  local root=$1 kver
  rm -rf "$root"/usr/share/{doc,man,info,locale,lintian,linda,bash-completion} \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
    "$root"/var/log/* "$root"/usr/share/i18n "$root"/usr/lib/udev/hwdb.d
  find "$root"/usr/lib/python3/dist-packages -type d -name tests -prune -exec rm -rf {} +
  kver=$(ls "$root/lib/modules")
  local mods=$root/lib/modules/$kver/kernel
  rm -rf "$mods"/drivers/{gpu,media,staging,infiniband,iio,isdn,bluetooth,hid,input,video,comedi,thunderbolt,platform,usb/gadget} \
    "$mods"/drivers/net/{wireless,can,ieee802154,wwan,usb} "$mods"/sound \
    "$mods"/net/{bluetooth,wireless,mac80211,can,netfilter,ipv4/netfilter,ipv6/netfilter} \
    "$mods"/fs/{ocfs2,gfs2,ceph,smb,nfs,nfsd,ubifs,afs,coda,orangefs}
  chroot "$root" depmod "$kver"
}

pack() {
  local root=$1 dest=$2
  cp "$root"/boot/vmlinuz-* "$dest/ironic-agent.kernel"
  rm -rf "$root"/boot/*
  # newc cpio, zstd-compressed (Debian's kernel unpacks zstd initramfs images).
  (cd "$root" && find . -xdev \( -path './proc/*' -o -path './sys/*' \) -prune -o -print0 | LC_ALL=C sort -z |
    cpio --null --create --format=newc --quiet) | zstd -q -T0 -12 >"$dest/ironic-agent.initramfs"
}

build() {
  command -v debootstrap >/dev/null || die "debootstrap is missing (scripts/debian-packages.txt)"
  local scratch=$out.building started=$SECONDS
  local root=$scratch/root log=$scratch.log
  rm -rf "$scratch" "$out"
  mkdir -p "$scratch"
  echo "ironic-ramdisk: building $out (debootstrap trixie and packages, several minutes; log $log)" >&2
  {
    debootstrap --variant=minbase trixie "$root" "$mirror" &&
      install_packages "$root" && purge_unneeded "$root" && check "$root" &&
      install_init "$root" && slim "$root" && pack "$root" "$scratch"
  } >"$log" 2>&1 || die "build failed; see $log"
  rm -rf "$root"
  printf 'built %s in %s s\n' "$(date -u +%FT%TZ)" "$((SECONDS - started))" >"$scratch/build-info"
  mv "$scratch" "$out"
  mv "$log" "$out/build.log"
  echo "ironic-ramdisk: built in $((SECONDS - started)) s" >&2
}

case ${1:-} in
  path) echo "$out" ;;
  build)
    mkdir -p "$cache/ramdisk"
    exec 9>"$cache/ramdisk/.lock"
    flock 9
    built || build
    echo "$out"
    ;;
  *) echo "usage: $0 build | path" >&2; exit 2 ;;
esac
