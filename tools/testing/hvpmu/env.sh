# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source it
#
# Sourced by the test scripts: where the repository, the kernel tree and the
# build directories are, and how to call the compiler.
#
# Environment: SERIES (kernel series, 6.12 or 6.1; default 6.12 here, the
# series the drivers are written for; make check runs each), KDIR (kernel tree, default .cache/linux-$SERIES made by
# setup.sh; its series is read from its Makefile), BUILD (build
# directories, default $BUILD_ROOT/$SERIES; BUILD_ROOT default build/),
# JOBS (make -j, default nproc).

HVPMU_TESTING=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HVPMU_TESTING/../../.." && pwd)
# shellcheck source=series.sh
. "$HVPMU_TESTING/series.sh"
if [ -n "${KDIR:-}" ]; then
	HVPMU_SERIES=$(hvpmu_tree_series "$KDIR") || {
		echo "KDIR=$KDIR: not a Linux tree of a supported series ($HVPMU_ALL_SERIES)" >&2
		exit 1
	}
else
	HVPMU_SERIES=${SERIES:-6.12}
	HVPMU_SERIES=${HVPMU_SERIES%% *}
	hvpmu_known_series "$HVPMU_SERIES" || {
		echo "SERIES=$HVPMU_SERIES: not a supported series ($HVPMU_ALL_SERIES)" >&2
		exit 1
	}
	KDIR=$REPO/.cache/linux-$HVPMU_SERIES
fi
BUILD_ROOT=${BUILD_ROOT:-$REPO/build}
BUILD=${BUILD:-$BUILD_ROOT/$HVPMU_SERIES}
JOBS=${JOBS:-$(nproc)}
CC_PREFIX=""
command -v ccache >/dev/null && CC_PREFIX="ccache "

# hvpmu_kunitconfigs ARCH...: the KUnit configurations for a kernel of ARCH
# (Linux's name: x86, powerpc, sparc, mips), or of any of the ARCHs:
# kunit/hvpmu.kunitconfig (the helper's suite and what the guests need
# beside the suites: SMP, CPU hotplug, debugfs), then the .kunitconfig
# files that the series ship in $KDIR, each for the architectures whose
# code its suites test. "sparc64-on-x86": shim/sparc64-on-x86.sh builds
# those suites into the x86_64 kernel too. drivers/perf/tests/.kunitconfig,
# the one "kunit.py --kunitconfig=drivers/perf/tests" reads, builds the
# arm64 driver arm_dmc620 with COMPILE_TEST: on x86_64 only, where the
# harness has always built it.
hvpmu_kunitconfigs() {
	local entry f a want
	echo "$HVPMU_TESTING/kunit/hvpmu.kunitconfig"
	for entry in "drivers/perf/tests/.kunitconfig:x86" \
		     "drivers/perf/tests/sun4v.kunitconfig:sparc sparc64-on-x86" \
		     "arch/sparc/kernel/.kunitconfig:sparc sparc64-on-x86" \
		     "drivers/perf/tests/mips_cm.kunitconfig:mips"; do
		f=$KDIR/${entry%%:*}
		a=${entry#*:}
		[ -f "$f" ] || continue
		for want in "$@"; do
			if [[ " $a " == *" $want "* ]]; then
				echo "$f"
				break
			fi
		done
	done
}

# hvpmu_sparc64_unbuildable [TREE]: why TREE (default $KDIR) does not build
# for sparc64, or nothing. Linux 6.12.y (Debian's 6.12.117 at least) moved
# FMODE_NONOTIFY to bit 25, sparc's __O_TMPFILE (0x2000000), and still
# passes it through the open flags: fcntl_init()'s BUILD_BUG_ON fails.
hvpmu_sparc64_unbuildable() {
	local t=${1:-$KDIR}
	grep -Eq '^#define __FMODE_NONOTIFY[[:space:]]' "$t/include/linux/fs.h" &&
	grep -Eq '^#define FMODE_NONOTIFY[[:space:]]+\(\(__force fmode_t\)\(1 << 25\)\)' \
		"$t/include/linux/fs.h" &&
	grep -Eq '^#define __O_TMPFILE[[:space:]]+0x2000000' \
		"$t/arch/sparc/include/uapi/asm/fcntl.h" &&
	echo "FMODE_NONOTIFY (1 << 25) is sparc's __O_TMPFILE: fs/fcntl.c does not build"
}

# hvpmu_sparc64_src DEST: a tree for sparc64 kernels in DEST, a copy of
# $KDIR (hard links) with fixes/6.12-sparc64-fmode-nonotify.patch applied
# when $KDIR has that collision; patch(1) replaces the files it changes,
# so $KDIR stays as it is. Prints DEST.
hvpmu_sparc64_src() {
	local dest=$1
	if ! hvpmu_sparc64_unbuildable > /dev/null; then
		echo "$KDIR"
		return 0
	fi
	rm -rf "$dest" && cp -al "$KDIR" "$dest" &&
	patch -s -p1 -d "$dest" < "$HVPMU_TESTING/fixes/6.12-sparc64-fmode-nonotify.patch" >&2 &&
	! hvpmu_sparc64_unbuildable "$dest" > /dev/null &&
	echo "$dest"
}

# kunit_counts JSON: one "STATUS suite.test" line per test case of a
# kunit.py --json result (STATUS: PASS, FAIL, SKIP, ...).
kunit_counts() {
	python3 - "$1" <<'PY'
import json, sys
def walk(g, prefix):
    for t in g.get("test_cases", []):
        yield prefix + t["name"], t["status"]
    for s in g.get("sub_groups", []):
        yield from walk(s, prefix + s["name"] + ".")
for name, status in walk(json.load(open(sys.argv[1])), ""):
    print(status, name)
PY
}

# Worktrees and clean clones share one ccache: paths under the parent of the
# repository are hashed relative to the build directory.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$REPO")}

# What a kernel log must never contain: every report of the debug options our
# guests run with (WARN, BUG, KASAN, lockdep, UBSAN, debugobjects, RCU
# stalls, hung tasks, oopses). kmemleak's own lines are not here: it reports
# only when scanned, and the guest scripts that scan it judge each object
# (e2e.sh: a leak of an object allocated during the run is a FAIL).
KERNEL_REPORT_RE='(WARNING|BUG|Oops|UBSAN|ODEBUG):|cut here|Kernel panic|general protection fault|Unable to handle kernel|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|rcu.*detected stall|blocked for more than|Call Trace:'

# kernel_reports LOG: print each kernel report in LOG with a few lines of
# context; the exit status is 0 when there was at least one.
kernel_reports() {
	tr -d '\r' < "$1" | grep -E -A6 -- "$KERNEL_REPORT_RE" | head -n 60 |
		grep . && return 0
	return 1
}

# kernel_first_report LOG: the first report line of LOG, for a FAIL line.
kernel_first_report() {
	tr -d '\r' < "$1" | grep -E -- "$KERNEL_REPORT_RE" |
		grep -v -e 'cut here' -e 'Call Trace' | head -n 1 |
		sed 's/^\[ *[0-9.]*\] //'
}

# hvpmu_lock_build: one test run at a time per BUILD_ROOT (all series); a
# second waits for the first (the lock is released when the shell exits).
hvpmu_lock_build() {
	mkdir -p "$BUILD_ROOT"
	exec 8> "$BUILD_ROOT/.lock"
	flock -n 8 || { echo "waiting for another run using $BUILD_ROOT" >&2; flock 8; }
}

# kunit_skip_reason LOG TEST: why KUnit skipped TEST ("suite.case"), from
# the TAP line "ok N case # SKIP reason" of the kernel log LOG.
kunit_skip_reason() {
	tr -d '\r' < "$1" | sed -n "s/^ *ok [0-9]* ${2##*.} # SKIP *//p" |
		head -n 1 | grep . || echo "no reason given"
}
