#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare everything the builds and tests need, idempotently:
#  1. install the Debian packages (linux-source-<series> of each kernel
#     series, cross compilers, QEMU, sparse, ccache, kmod, ...) when one is
#     missing, then check that every command the harness calls exists, and
#     stop naming the first missing one;
#  2. per series, write the patch series (tools/testing/hvpmu/patches.sh
#     --no-check: a pristine git repository of Debian's linux-source-<series>
#     in .cache/pristine-<series>, the series in
#     build/test-patches/<series>/), signed by the harness's throwaway
#     identity (HVPMU_TEST_SENDER in series.sh, passed as HVPMU_SENDER), so
#     that no git identity need be configured; the series for the
#     maintainers are make patches' (build/patches/, the sender's own);
#  3. make the kernel tree every build uses, .cache/linux-<series>: a clone
#     of the pristine repository with exactly that series applied by git am,
#     nothing else (no link into this repository, no hook patch).
#
#   setup.sh [series...]    series: 6.1 6.12 (default: $SERIES, else both)
#
# The tree records the series it carries (.git/hvpmu-series, a hash of the
# patch files); it is checked out and patched again only when the series
# changed (git rewrites only the files that differ, so build directories
# rebuild only what the series touches).
#
# With KDIR=/path/to/tree, steps 2 and 3 are skipped: that tree must have
# the series applied already (git am build/patches/<series>/*/0*.patch, see
# the README); the set-up stops when it does not.
#
# Two runs at once wait for each other (flock on .cache/.lock).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
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

# python3-ply, python3-git: checkpatch's SPDX check (scripts/spdxcheck.py);
# without them it prints a traceback and checks nothing.
# gcc-powerpc64le-linux-gnu, libc6-dev-ppc64el-cross: the ppc64le e2e
# guest's kernel and its static perf; libc6-dev-ppc64-cross: the
# big-endian ppc64 guest's static perf and busybox;
# gcc-mipsisa64r6el-linux-gnuabi64,
# libc6-dev-mips64r6el-cross: the mips guest's static perf and busybox
# (MIPS64r6, see e2e/mips/run.sh); libc6-dev-sparc64-cross: the sparc64
# guest's (e2e/sparc64/run.sh). gcc-aarch64-linux-gnu: the arm64 cross
# build of arm_dmc620_pmu, the existing driver the helper series converts.
# The linter shellcheck: the check of the harness's scripts in make lint.
PKGS="gcc-sparc64-linux-gnu gcc-powerpc64-linux-gnu gcc-powerpc64le-linux-gnu
      gcc-aarch64-linux-gnu shellcheck
      libc6-dev-ppc64el-cross libc6-dev-ppc64-cross
      gcc-mipsisa64r6el-linux-gnuabi64
      libc6-dev-mips64r6el-cross libc6-dev-sparc64-cross
      gcc-mips-linux-gnu gcc-mips64el-linux-gnuabi64 qemu-system-x86
      qemu-system-ppc qemu-system-sparc qemu-system-mips sparse bc bison
      flex libelf-dev libssl-dev ccache python3 python3-dev make gcc perl
      cpio xz-utils bzip2 patch busybox-static linux-perf kmod git util-linux
      dt-schema yamllint libyaml-dev pkg-config python3-ply python3-git"
[ -n "${KDIR:-}" ] || for s in "$@"; do PKGS="$PKGS linux-source-$s"; done

# Every command the harness calls (check.sh, e2e, native, demo, kunit.py).
# python3-config: the perf of Linux 6.12 (built for the e2e guest) finds
# the interpreter of its event-table generator through it, even with
# NO_LIBPYTHON=1 (tools/perf/Makefile.config), and stops without it.
CMDS="make gcc ld perl python3 python3-config bc bison flex cpio xz bzip2 tar
      patch git flock
      depmod ccache sparse ldd timeout
      sparc64-linux-gnu-gcc powerpc64-linux-gnu-gcc powerpc64le-linux-gnu-gcc
      mips-linux-gnu-gcc aarch64-linux-gnu-gcc dpkg-deb
      mips64el-linux-gnuabi64-gcc mipsisa64r6el-linux-gnuabi64-gcc
      qemu-system-x86_64 qemu-system-ppc64 qemu-system-sparc64
      qemu-system-mipsel qemu-system-mips64el qemu-system-mips64
      dt-mk-schema dt-validate dt-doc-validate yamllint pkg-config"

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

# series_files SERIES: the patches of every series of SERIES, in order.
series_files() {
	local p
	for p in "$REPO/$HVPMU_TEST_PATCHES/$1"/*/0*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		[ -e "$p" ] && echo "$p"
	done
}

# prepare SERIES: the tree of SERIES with exactly its series applied.
prepare() {
	local series=$1 dir=$CACHE/linux-$1 pdir=$CACHE/pristine-$1 commit want
	local files
	HVPMU_SENDER=$HVPMU_TEST_SENDER PATCHES_OUT=$REPO/$HVPMU_TEST_PATCHES \
		"$REPO/tools/testing/hvpmu/patches.sh" --no-check "$series" >/dev/null ||
		die "writing the series of $series failed (tools/testing/hvpmu/patches.sh --no-check $series)"
	commit=$(cat "$pdir/.git/hvpmu-pristine")
	mapfile -t files < <(series_files "$series")
	[ ${#files[@]} -gt 0 ] || die "no series for $series in $HVPMU_TEST_PATCHES/$series"
	want=$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)
	if [ ! -d "$dir/.git" ] || ! git -C "$dir" cat-file -e "$commit" 2>/dev/null; then
		say "cloning the pristine $series tree into $dir"
		rm -rf "$dir"
		git clone -q --shared --no-checkout "$pdir" "$dir"
		git -C "$dir" config gc.auto 0
	fi
	if [ "$(cat "$dir/.git/hvpmu-series" 2>/dev/null)" != "$want" ]; then
		rm -f "$dir/.git/hvpmu-series"
		git -C "$dir" am --abort >/dev/null 2>&1 || true
		git -C "$dir" checkout -q -f --detach "$commit"
		git -C "$dir" clean -q -f -d -x
		say "applying the series of $series (${#files[@]} patches)"
		git -C "$dir" -c user.name="$HVPMU_TEST_NAME" \
			-c user.email="$HVPMU_TEST_EMAIL" am -q "${files[@]}" ||
			die "git am of the $series series onto $dir failed"
		echo "$want" > "$dir/.git/hvpmu-series"
	fi
	say "kernel tree ready ($series): $dir"
}

# check_kdir DIR: a tree of the user's, which must carry the series.
check_kdir() {
	local f
	for f in drivers/perf/sun4v_dram_pmu.c drivers/perf/mips_cm_pmu.c \
		 include/linux/perf/pmu_format.h; do
		[ -f "$1/$f" ] ||
			die "KDIR=$1 lacks $f: apply the series first (make patches; git am build/patches/<series>/*/0*.patch)"
	done
	say "kernel tree ready: $1"
}

if [ -n "${KDIR:-}" ]; then
	check_kdir "$KDIR"
	exit 0
fi
for s in "$@"; do
	prepare "$s"
done
