#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare everything the builds and tests need, idempotently:
#  1. install the Debian packages (linux-source-6.1, cross compilers, QEMU,
#     sparse, ccache, ...) when one is missing;
#  2. unpack linux-source-6.1 once into .cache/ (git-ignored);
#  3. join this repository into the tree: drivers/perf/hvpmu/ holds symlinks
#     to our Kbuild, Kconfig and source directories, and our patches (the
#     Kconfig/Makefile hooks) are applied once.
#
# With KDIR=/path/to/tree, steps 2 is skipped and steps 3 is done on that
# tree instead.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
PATCHES="$REPO/tools/testing/hvpmu/patches"
CACHE="$REPO/.cache"

PKGS="linux-source-6.1 gcc-sparc64-linux-gnu gcc-powerpc64-linux-gnu
      gcc-mips-linux-gnu gcc-mips64el-linux-gnuabi64 qemu-system-x86
      qemu-system-ppc qemu-system-sparc qemu-system-mips sparse bc bison
      flex libelf-dev libssl-dev ccache python3 make gcc perl cpio xz-utils
      patch busybox-static linux-perf kmod git"

say() { printf '[setup] %s\n' "$*"; }

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing:$missing"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
fi

if [ -z "${KDIR:-}" ]; then
	KDIR="$CACHE/linux-6.1"
	if [ ! -f "$KDIR/.hvpmu-unpacked" ]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n1)
		say "unpacking $tarball into $KDIR"
		rm -rf "$KDIR" "$CACHE/unpack"
		mkdir -p "$CACHE/unpack"
		tar -xf "$tarball" -C "$CACHE/unpack"
		mv "$CACHE/unpack"/linux-source-6.1 "$KDIR"
		rmdir "$CACHE/unpack"
		touch "$KDIR/.hvpmu-unpacked"
	fi
fi
KDIR=$(cd "$KDIR" && pwd)

# Join our files: one real directory in the tree whose entries are symlinks
# into this repository, so an edit here needs no copy.
join="$KDIR/drivers/perf/hvpmu"
mkdir -p "$join"
for e in Kbuild Kconfig drivers arch include; do
	ln -sfn "$REPO/$e" "$join/$e"
done

# Apply our hooks; a patch already applied is detected by a dry reverse run.
for p in "$PATCHES"/*.patch; do
	[ -e "$p" ] || continue
	if patch -d "$KDIR" -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1; then
		continue
	fi
	say "applying $(basename "$p")"
	patch -d "$KDIR" -p1 -s -f --no-backup-if-mismatch < "$p"
done

say "kernel tree ready: $KDIR"
