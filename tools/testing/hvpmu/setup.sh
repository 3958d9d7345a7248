#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare everything the builds and tests need, idempotently:
#  1. install the Debian packages (linux-source-6.1, cross compilers, QEMU,
#     sparse, ccache, kmod, ...) when one is missing, then check that every
#     command the harness calls exists, and stop naming the first missing one;
#  2. unpack linux-source-6.1 once into .cache/ (git-ignored);
#  3. join this repository into the tree: drivers/perf/hvpmu/ holds symlinks
#     to our Kbuild, Kconfig and source directories, and our patches (the
#     Kconfig/Makefile hooks) are applied.
#
# The unpacked tree records which patch set it carries (.hvpmu-patches). A
# tree whose patching was interrupted, or that carries another version of
# our patches, is unpacked again (the tarball keeps file times, so a build
# directory rebuilds only what the patches touch).
#
# With KDIR=/path/to/tree, step 2 is skipped and step 3 is done on that tree;
# a patch that is neither applied there nor applies cleanly stops the set-up
# with its name (nothing is half-applied: each patch is tried dry first).
#
# Two runs at once wait for each other (flock on .cache/.lock).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
PATCHES="$REPO/tools/testing/hvpmu/patches"
CACHE="$REPO/.cache"

PKGS="linux-source-6.1 gcc-sparc64-linux-gnu gcc-powerpc64-linux-gnu
      gcc-mips-linux-gnu gcc-mips64el-linux-gnuabi64 qemu-system-x86
      qemu-system-ppc qemu-system-sparc qemu-system-mips sparse bc bison
      flex libelf-dev libssl-dev ccache python3 make gcc perl cpio xz-utils
      patch busybox-static linux-perf kmod git util-linux"

# Every command the harness calls (check.sh, e2e, native, demo, kunit.py).
CMDS="make gcc ld perl python3 bc bison flex cpio xz tar patch git flock
      depmod ccache sparse ldd timeout
      sparc64-linux-gnu-gcc powerpc64-linux-gnu-gcc mips-linux-gnu-gcc
      mips64el-linux-gnuabi64-gcc
      qemu-system-x86_64 qemu-system-ppc64 qemu-system-sparc64
      qemu-system-mipsel"

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing:$missing"
	# env: sudo resets the environment, so the variable goes through it.
	$SUDO apt-get update -qq
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
fi

# depmod and friends live in /sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
for c in $CMDS; do
	command -v "$c" >/dev/null || die "command '$c' not found after installing packages"
done
[ -x /bin/busybox ] || die "/bin/busybox not found (busybox-static)"
[ -e /usr/bin/perf ] || compgen -G '/usr/bin/perf_[0-9]*' >/dev/null ||
	die "command 'perf' not found (linux-perf)"

mkdir -p "$CACHE"
exec 9> "$CACHE/.lock"
flock -n 9 || { say "waiting for another set-up of $CACHE"; flock 9; }

patch_set_id() {
	cat "$PATCHES"/*.patch 2>/dev/null | sha256sum | cut -d' ' -f1
}

unpack() {
	local dir=$1 tarball
	tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n1)
	say "unpacking $tarball into $dir"
	rm -rf "$dir" "$CACHE/unpack"
	mkdir -p "$CACHE/unpack"
	tar -xf "$tarball" -C "$CACHE/unpack"
	mv "$CACHE/unpack"/linux-source-6.1 "$dir"
	rmdir "$CACHE/unpack"
	touch "$dir/.hvpmu-unpacked"
}

# apply_patches DIR: apply each of our patches not yet applied; a patch
# that neither reverses nor applies cleanly stops with its name.
apply_patches() {
	local dir=$1 p
	for p in "$PATCHES"/*.patch; do
		[ -e "$p" ] || continue
		if patch -d "$dir" -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1; then
			continue
		fi
		patch -d "$dir" -p1 --dry-run -s -f < "$p" >/dev/null 2>&1 ||
			die "$(basename "$p") neither is applied to nor applies to $dir"
		say "applying $(basename "$p")"
		patch -d "$dir" -p1 -s -f --no-backup-if-mismatch < "$p"
	done
}

want=$(patch_set_id)
if [ -z "${KDIR:-}" ]; then
	KDIR="$CACHE/linux-6.1"
	if [ ! -f "$KDIR/.hvpmu-unpacked" ] ||
	   { [ -e "$KDIR/.hvpmu-patches" ] &&
	     [ "$(cat "$KDIR/.hvpmu-patches")" != "$want" ]; } ||
	   [ -e "$KDIR/.hvpmu-patching" ]; then
		[ -e "$KDIR/.hvpmu-unpacked" ] &&
			say "the tree carries another or a half-applied patch set"
		unpack "$KDIR"
	fi
fi
[ -d "$KDIR" ] || die "KDIR=$KDIR is not a directory"
KDIR=$(cd "$KDIR" && pwd)

# Join our files: one real directory in the tree whose entries are symlinks
# into this repository, so an edit here needs no copy.
join="$KDIR/drivers/perf/hvpmu"
mkdir -p "$join"
for e in Kbuild Kconfig drivers arch include; do
	ln -sfn "$REPO/$e" "$join/$e"
done

if [ "$(cat "$KDIR/.hvpmu-patches" 2>/dev/null)" != "$want" ]; then
	touch "$KDIR/.hvpmu-patching"
	apply_patches "$KDIR"
	echo "$want" > "$KDIR/.hvpmu-patches"
	rm -f "$KDIR/.hvpmu-patching"
fi

say "kernel tree ready: $KDIR"
