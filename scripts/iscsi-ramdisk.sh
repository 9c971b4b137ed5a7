#!/usr/bin/env bash
# The iscsi deploy's ramdisk (the design's deploy ramdisk): the Debian kernel, busybox, tgt and
# scripts/iscsi-ramdisk/init in a small gzip initramfs.
#
#   scripts/iscsi-ramdisk.sh build    build unless a build of the same inputs is cached; prints the
#                                     directory holding iscsi-deploy.kernel and iscsi-deploy.initramfs
#   scripts/iscsi-ramdisk.sh path     print that directory (built or not)
#
# The kernel and busybox-static are Debian packages fetched with `apt-get download` and unpacked
# (never installed); tgtd and tgtadm come from the machine's own Debian tgt package, with the
# libraries they link. Cached outside the repository in $IRONIC_TS_CACHE_DIR/iscsi-ramdisk/<hash>
# (default cache /var/cache/ironic-ts), the hash covering this script, scripts/iscsi-ramdisk/ and
# the package versions used. Builds take a lock and happen in a scratch directory renamed into place.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

here=$(cd "$(dirname "$0")" && pwd -P)
files=$here/iscsi-ramdisk
cache=${IRONIC_TS_CACHE_DIR:-/var/cache/ironic-ts}

die() { echo "iscsi-ramdisk: $*" >&2; exit 1; }

kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1
}

candidate() { apt-cache policy "$1" | sed -n 's/^ *Candidate: //p'; }

inputs_hash() {
  local kpkg
  kpkg=$(kernel_package)
  {
    cat "$here/iscsi-ramdisk.sh"
    find "$files" -type f | LC_ALL=C sort | xargs cat
    echo "$kpkg $(candidate "$kpkg") busybox-static $(candidate busybox-static)"
    dpkg-query -W -f='${Version}' tgt
  } | sha256sum | cut -c1-16
}

# Copies a binary and every library it links (with the dynamic loader) into the root.
copy_with_libs() {
  local root=$1 bin=$2 lib
  install -D -m 755 "$bin" "$root$bin"
  for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
    # 755: the dynamic loader among them must be executable.
    [[ -e $root$lib ]] || install -D -m 755 "$(readlink -f "$lib")" "$root$lib"
  done
}

copy_modules() {
  local root=$1 kroot=$2 kver mod ko
  kver=$(ls "$kroot/lib/modules")
  depmod -b "$kroot" "$kver"
  for mod in $(grep -v '^#' "$files/modules"); do
    # A module built into the kernel, or absent, has nothing to copy.
    for ko in $(modprobe -d "$kroot" -S "$kver" --show-depends "$mod" 2>/dev/null | sed -n 's/^insmod //p' | cut -d' ' -f1); do
      install -D -m 644 "$ko" "$root${ko#"$kroot"}"
    done
  done
  cp "$kroot/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/"
  depmod -b "$root" "$kver"
  grep -v '^#' "$files/modules" >"$root/etc/ramdisk-modules"
}

build() {
  command -v tgtd >/dev/null || die "tgt is missing (scripts/debian-packages.txt)"
  local scratch=$out.building started=$SECONDS kpkg
  rm -rf "$scratch" "$out"
  mkdir -p "$scratch/debs" "$scratch/kernel" "$scratch/busybox" "$scratch/root"
  kpkg=$(kernel_package)
  [[ -n $kpkg ]] || die "no Debian kernel package found (apt-get update?)"
  (cd "$scratch/debs" && apt-get download -q -o APT::Sandbox::User=root "$kpkg" busybox-static >/dev/null) || die "apt-get download failed"
  dpkg-deb -x "$scratch"/debs/linux-image-*.deb "$scratch/kernel"
  dpkg-deb -x "$scratch"/debs/busybox-static_*.deb "$scratch/busybox"
  local root=$scratch/root
  mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,var/run/tgtd}
  install -m 755 "$scratch/busybox/bin/busybox" "$root/bin/busybox"
  copy_with_libs "$root" "$(command -v tgtd)"
  copy_with_libs "$root" "$(command -v tgtadm)"
  copy_modules "$root" "$scratch/kernel"
  install -m 755 "$files/init" "$root/init"
  cp "$scratch"/kernel/boot/vmlinuz-* "$scratch/iscsi-deploy.kernel"
  (cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null --create --format=newc --quiet) | gzip -9 >"$scratch/iscsi-deploy.initramfs"
  rm -rf "$scratch/debs" "$scratch/kernel" "$scratch/busybox" "$root"
  printf 'built %s in %s s\n' "$(date -u +%FT%TZ)" "$((SECONDS - started))" >"$scratch/build-info"
  mv "$scratch" "$out"
  echo "iscsi-ramdisk: built in $((SECONDS - started)) s" >&2
}

out=$cache/iscsi-ramdisk/$(inputs_hash)
built() { [[ -f $out/iscsi-deploy.kernel && -f $out/iscsi-deploy.initramfs ]]; }

case ${1:-} in
  path) echo "$out" ;;
  build)
    mkdir -p "$cache/iscsi-ramdisk"
    exec 9>"$cache/iscsi-ramdisk/.lock"
    flock 9
    built || build
    echo "$out"
    ;;
  *) echo "usage: $0 build | path" >&2; exit 2 ;;
esac
