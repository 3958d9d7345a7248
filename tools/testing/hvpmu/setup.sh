#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare everything the builds and tests need, idempotently:
#  1. install the Debian packages (linux-source-<series> of each kernel
#     series, cross compilers, QEMU, sparse, ccache, kmod, ...) when one is
#     missing, then check that every command the harness calls exists, and
#     stop naming the first missing one;
#  2. unpack each series' linux-source once into .cache/linux-<series>
#     (git-ignored);
#  3. join this repository into each tree: drivers/perf/hvpmu/ holds
#     symlinks to our Kbuild, Kconfig and source directories, and our
#     patches are applied: patches/*.patch apply to every series,
#     patches/<series>/*.patch to that series only (where upstream context
#     differs), all in the order of their file names.
#
#   setup.sh [series...]    series: 6.1 6.12 (default: $SERIES, else both)
#
# The unpacked tree records which patch set it carries (.hvpmu-patches). A
# tree whose patching was interrupted, or that carries another version of
# our patches, is unpacked again (the tarball keeps file times, so a build
# directory rebuilds only what the patches touch).
#
# With KDIR=/path/to/tree, step 2 is skipped and step 3 is done on that tree
# (its series is read from its Makefile); a patch that is neither applied
# there nor applies cleanly stops the set-up with its name (nothing is
# half-applied: each patch is tried dry first).
#
# Two runs at once wait for each other (flock on .cache/.lock).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
PATCHES="$REPO/tools/testing/hvpmu/patches"
CACHE="$REPO/.cache"
# shellcheck source=series.sh
. "$REPO/tools/testing/hvpmu/series.sh"

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

if [ -n "${KDIR:-}" ]; then
	[ -d "$KDIR" ] || die "KDIR=$KDIR is not a directory"
	KDIR=$(cd "$KDIR" && pwd)
	series=$(hvpmu_tree_series "$KDIR") ||
		die "KDIR=$KDIR: not a Linux tree of a supported series ($HVPMU_ALL_SERIES)"
	set -- "$series"
fi
[ $# -gt 0 ] || set -- ${SERIES:-$HVPMU_ALL_SERIES}
for s in "$@"; do
	hvpmu_known_series "$s" || die "unknown kernel series '$s' (supported: $HVPMU_ALL_SERIES)"
done

PKGS="gcc-sparc64-linux-gnu gcc-powerpc64-linux-gnu
      gcc-mips-linux-gnu gcc-mips64el-linux-gnuabi64 qemu-system-x86
      qemu-system-ppc qemu-system-sparc qemu-system-mips sparse bc bison
      flex libelf-dev libssl-dev ccache python3 python3-dev make gcc perl
      cpio xz-utils patch busybox-static linux-perf kmod git util-linux"
[ -n "${KDIR:-}" ] || for s in "$@"; do PKGS="$PKGS linux-source-$s"; done

# Every command the harness calls (check.sh, e2e, native, demo, kunit.py).
# python3-config: the perf of Linux 6.12 (built for the e2e guest) finds
# the interpreter of its event-table generator through it, even with
# NO_LIBPYTHON=1 (tools/perf/Makefile.config), and stops without it.
CMDS="make gcc ld perl python3 python3-config bc bison flex cpio xz tar
      patch git flock
      depmod ccache sparse ldd timeout
      sparc64-linux-gnu-gcc powerpc64-linux-gnu-gcc mips-linux-gnu-gcc
      mips64el-linux-gnuabi64-gcc
      qemu-system-x86_64 qemu-system-ppc64 qemu-system-sparc64
      qemu-system-mipsel"

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
# shellcheck source=apt.sh
. "$REPO/tools/testing/hvpmu/apt.sh"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing:$missing"
	apt_get update -qq || die "apt-get update failed"
	apt_get install -y -qq --no-install-recommends $missing ||
		die "apt-get install failed for:$missing (linux-source-6.12 comes from bookworm-security)"
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

# series_patches SERIES: our patches for SERIES, in the order of their names.
series_patches() {
	local p
	for p in "$PATCHES"/*.patch "$PATCHES/$1"/*.patch; do
		[ -e "$p" ] && printf '%s\t%s\n' "$(basename "$p")" "$p"
	done | sort | cut -f2
}

patch_set_id() {
	series_patches "$1" | xargs cat | sha256sum | cut -d' ' -f1
}

unpack() {
	local series=$1 dir=$2 tarball
	tarball=$(ls /usr/src/linux-source-"$series".tar.* | head -n1)
	say "unpacking $tarball into $dir"
	rm -rf "$dir" "$CACHE/unpack"
	mkdir -p "$CACHE/unpack"
	tar -xf "$tarball" -C "$CACHE/unpack"
	mv "$CACHE/unpack/linux-source-$series" "$dir"
	rmdir "$CACHE/unpack"
	touch "$dir/.hvpmu-unpacked"
}

# apply_patches SERIES DIR: apply each of our patches not yet applied; a
# patch that neither reverses nor applies exactly (no fuzz: a hunk that
# lands somewhere else is worse than a stop) stops with its name.
apply_patches() {
	local dir=$2 p
	for p in $(series_patches "$1"); do
		if patch -d "$dir" -p1 -R -F0 --dry-run -s -f < "$p" >/dev/null 2>&1; then
			continue
		fi
		patch -d "$dir" -p1 -F0 --dry-run -s -f < "$p" >/dev/null 2>&1 ||
			die "${p#"$PATCHES"/} neither is applied to nor applies to $dir"
		say "applying ${p#"$PATCHES"/}"
		patch -d "$dir" -p1 -F0 -s -f --no-backup-if-mismatch < "$p"
	done
}

# prepare SERIES [DIR]: unpack (unless DIR is given), join and patch.
prepare() {
	local series=$1 dir=${2:-} want join e
	want=$(patch_set_id "$series")
	if [ -z "$dir" ]; then
		dir="$CACHE/linux-$series"
		if [ ! -f "$dir/.hvpmu-unpacked" ] ||
		   { [ -e "$dir/.hvpmu-patches" ] &&
		     [ "$(cat "$dir/.hvpmu-patches")" != "$want" ]; } ||
		   [ -e "$dir/.hvpmu-patching" ]; then
			[ -e "$dir/.hvpmu-unpacked" ] &&
				say "$dir carries another or a half-applied patch set"
			unpack "$series" "$dir"
		fi
	fi

	# Join our files: one real directory in the tree whose entries are
	# symlinks into this repository, so an edit here needs no copy.
	join="$dir/drivers/perf/hvpmu"
	mkdir -p "$join"
	for e in Kbuild Kconfig drivers arch include; do
		ln -sfn "$REPO/$e" "$join/$e"
	done

	if [ "$(cat "$dir/.hvpmu-patches" 2>/dev/null)" != "$want" ]; then
		touch "$dir/.hvpmu-patching"
		apply_patches "$series" "$dir"
		echo "$want" > "$dir/.hvpmu-patches"
		rm -f "$dir/.hvpmu-patching"
	fi
	say "kernel tree ready ($series): $dir"
}

for s in "$@"; do
	prepare "$s" "${KDIR:-}"
done
