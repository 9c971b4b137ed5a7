#!/usr/bin/env bash
# A Debian 13 (trixie) root next to this Debian 12 machine, for peers newer than Debian 12 ships
# (today: Ironic 29.0.5 for the 2025.1 reference; later IPA, Nova, Neutron... of Debian 13).
#
#   scripts/debian13-root.sh path                      print where the root is (built or not)
#   scripts/debian13-root.sh ensure [PKG...]           build the root if it is not there yet
#                                                      (debootstrap, a few minutes, about 1 GB), then
#                                                      install those of PKG it lacks; prints its path
#   scripts/debian13-root.sh run [--bind DIR]... CMD... run CMD in the root, in a mount namespace of
#                                                      its own with /proc, /dev and each DIR (at the
#                                                      same path) mounted; CMD replaces this process,
#                                                      so the pid of a backgrounded call is CMD's
#
# The root is a cache outside the repository: $IRONIC_TS_CACHE_DIR/debian13, the cache directory
# defaulting to /var/cache/ironic-ts. It is built once and reused; building and installing take a
# lock (flock) so concurrent callers wait instead of racing. A half-built root is never used: the
# build happens in a scratch directory that is renamed into place once debootstrap has finished.
# Processes in the root share the host's network (127.0.0.1 is the host's loopback). Needs root.
# DEBIAN_MIRROR overrides the mirror (default http://deb.debian.org/debian).
set -euo pipefail

cache=${IRONIC_TS_CACHE_DIR:-/var/cache/ironic-ts}
root=$cache/debian13
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

die() { echo "debian13-root: $*" >&2; exit 1; }

# Holds the cache's lock on fd 9 until the script exits.
lock() {
  mkdir -p "$cache"
  exec 9>"$cache/debian13.lock"
  flock 9
}

built() { [[ -f $root/.ironic-ts-built ]]; }

build() {
  command -v debootstrap >/dev/null || {
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  }
  local scratch=$root.building log=$cache/debian13-debootstrap.log
  rm -rf "$scratch" "$root"
  echo "debian13-root: building $root (debootstrap trixie, a few minutes)" >&2
  debootstrap --variant=minbase trixie "$scratch" "$mirror" >"$log" 2>&1 || die "debootstrap failed; see $log"
  # Package scripts must never start services inside the root.
  printf '#!/bin/sh\nexit 101\n' >"$scratch/usr/sbin/policy-rc.d"
  chmod 755 "$scratch/usr/sbin/policy-rc.d"
  touch "$scratch/.ironic-ts-built"
  mv "$scratch" "$root"
}

# CMD... in the root with /proc and /dev only (for dpkg and apt).
chrooted() {
  unshare -m --propagation private sh -c '
    r=$1; shift
    mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" || exit 1
    exec chroot "$r" "$@"' sh "$root" "$@"
}

install_missing() {
  local pkg missing=() log=$cache/debian13-apt.log
  for pkg in "$@"; do
    chroot "$root" dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  ((${#missing[@]})) || return 0
  echo "debian13-root: installing ${missing[*]}" >&2
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  { chrooted apt-get update -q &&
    chrooted env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
    >"$log" 2>&1 || die "installing ${missing[*]} failed; see $log"
}

ensure() {
  lock
  built || build
  install_missing "$@"
  echo "$root"
}

run() {
  local binds=()
  while [[ ${1:-} == --bind ]]; do
    [[ -d ${2:-} ]] || die "--bind needs an existing directory, got '${2:-}'"
    binds+=("$(cd "$2" && pwd -P)")
    shift 2
  done
  (($#)) || die "run: no command"
  built || die "no Debian 13 root at $root: run '$0 ensure' first"
  exec unshare -m --propagation private sh -c '
    r=$1; count=$2; shift 2
    # The root bound onto itself is a mount point, as / is for tools that remount it (ip netns exec).
    mount --bind "$r" "$r" && mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" || exit 1
    while [ "$count" -gt 0 ]; do
      mkdir -p "$r$1" && mount --bind "$1" "$r$1" || exit 1
      shift; count=$((count - 1))
    done
    exec chroot "$r" "$@"' sh "$root" "${#binds[@]}" "${binds[@]}" "$@"
}

case ${1:-} in
  path) echo "$root" ;;
  ensure) shift; ensure "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 path | ensure [PKG...] | run [--bind DIR]... CMD..." >&2; exit 2 ;;
esac
