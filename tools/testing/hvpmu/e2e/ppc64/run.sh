#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of Linux's own hv_gpci (arch/powerpc/perf/hv-gpci.c with
# the series) on a pseries guest under QEMU (TCG, POWER10, -smp 2),
# little-endian or big-endian (E2E_PPC64_ENDIAN), with the real perf tool:
# perf built from the tree's tools/perf, static, and busybox (Debian's
# ppc64el busybox-static; for big-endian, which Debian does not build,
# Debian's busybox source built as it builds busybox-static). The guest
# kernel is built from a copy of the tree with shim.patch applied after
# the series, so that the hv_gpci model (sim/) answers
# H_GET_PERF_COUNTER_INFO; QEMU itself answers H_FUNCTION. The KUnit
# suites run at boot, built in: the model's, those of kunit/*.kunitconfig
# for powerpc and, where the series has it, that of Linux's own hv-gpci.c
# (the native ppc64 tier's suites, in the same kernel as the perf checks);
# then the guest runs guest.sh.
#
# Prints the guest's "PASS: ..."/"FAIL: ..."/"SKIP: ..." lines and a final
# "N passed, N failed[, N skipped]" line; exits non-zero when a check failed,
# the guest crashed, did not finish, ran fewer checks than it announced or
# than E2E_MIN_CHECKS, or the kernel log holds any report.
#
#   e2e/ppc64/run.sh [EXTRA_DIR]   (EXTRA_DIR: files copied to /extra in
#                                   the guest, whose *.sh run after the checks
#                                   with perf on the PATH, as for make demo)
#   e2e/ppc64/run.sh --bench       hvpmu-bench's table of hv_gpci instead of
#                                   the checks (make bench)
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 900);
# E2E_PPC64_WITHOUT_SERIES=1: Linux's hv_gpci as the base tree has it (the
# powerpc series' patches reversed in the copy); E2E_PPC64_REVERSE="0419
# ...": only those patches of it reversed (make bench's "without" figures);
# E2E_PPC64_APPEND: the guest's extra kernel arguments (percpu_alloc=page;
# hv_gpci_sim.cross_4k_ok=1: the model answers a buffer across 4 KiB). The
# five system-information files are compared with sysinfo-listing.txt,
# what Linux's own driver shows on the model; to make it again:
#   E2E_PPC64_WITHOUT_SERIES=1 E2E_PPC64_APPEND=hv_gpci_sim.cross_4k_ok=1 \
#     e2e/ppc64/run.sh; sed -n 's/^    sysinfo-listing: //p' \
#     build/6.12/e2e-ppc64le/results.txt > e2e/ppc64/sysinfo-listing.txt
# E2E_PPC64_ENDIAN: le (the default) or be, the guest's byte order (the
# big-endian guest's check names start with "big-endian: ").
set -uo pipefail

PPC_DIR=$(cd "$(dirname "$0")" && pwd)
. "$PPC_DIR/../lib.sh"
ENDIAN=${E2E_PPC64_ENDIAN:-le}
case $ENDIAN in
le) OUT=$BUILD/e2e-ppc64le CROSS=powerpc64le-linux-gnu-
    PPC_CACHE=$REPO/.cache/ppc64el WHAT=e2e-ppc64
    ENDIAN_CONFIG=CONFIG_CPU_LITTLE_ENDIAN=y ;;
be) OUT=$BUILD/e2e-ppc64be CROSS=powerpc64-linux-gnu-
    PPC_CACHE=$REPO/.cache/ppc64 WHAT=e2e-ppc64be
    ENDIAN_CONFIG=CONFIG_CPU_BIG_ENDIAN=y
    # one guest's checks told from the other's
    exec > >(sed -u -E 's/^(PASS|FAIL|SKIP): /\1: big-endian: /') ;;
*) echo "FAIL: e2e-ppc64: E2E_PPC64_ENDIAN=$ENDIAN (le or be)"
   echo "0 passed, 1 failed"
   exit 1 ;;
esac
SRC=$OUT/src
E2E_MIN_CHECKS=${E2E_MIN_CHECKS:-60}
MODE=guest
[ "${1:-}" = --bench ] && { MODE=bench; shift; E2E_MIN_CHECKS=1; }
EXTRA=${1:-}
REVERSE=${E2E_PPC64_REVERSE:-}
[ "${E2E_PPC64_WITHOUT_SERIES:-0}" = 1 ] && REVERSE=all

say() { printf '[%s] %s\n' "$WHAT" "$*" >&2; }
die() {
	echo "FAIL: $WHAT: $*"
	echo "0 passed, 1 failed"
	exit 1
}

# ppc_config SRC: the kernel's fragment: pseries.config, the byte order,
# the KUnit fragments of kunit/*.kunitconfig for powerpc and the suite of
# the tree SRC's hv-gpci.c where it has one (where two set an option, the
# last wins; each option printed once).
ppc_config() {
	{
		cat "$PPC_DIR/pseries.config"
		echo "$ENDIAN_CONFIG"
		# shellcheck disable=SC2046 # file names without blanks
		cat $(hvpmu_kunitconfigs powerpc)
		if grep -q '^config HV_GPCI_KUNIT_TEST' \
			"$1/arch/powerpc/platforms/pseries/Kconfig"; then
			echo CONFIG_HV_GPCI_KUNIT_TEST=y
		fi
	} | e2e_merge_config
}

# ppc_kernel LOG: the guest kernel in $OUT/vmlinux.
ppc_kernel() {
	local log=$1 mk p n sim=$SRC/arch/powerpc/perf/hvpmu-sim
	# A copy of the tree (hard links: the unchanged files keep their
	# times, so kbuild rebuilds only what the shim touches), the shim
	# patched in, the model and its debugfs files beside it.
	rm -rf "$SRC"
	cp -al "$KDIR" "$SRC" || return 1
	if [ -n "$REVERSE" ]; then
		# the powerpc series' patches (or those named), last first
		for p in $(sed -n 's/^patch //p' \
			   "$HVPMU_TESTING/series/$HVPMU_SERIES/05-powerpc/series" |
			   tac); do
			n=$(basename "$p" | cut -c1-4)
			[ "$REVERSE" = all ] || [[ " $REVERSE " == *" $n "* ]] ||
				continue
			say "reversing $p"
			patch -s -R -p1 -d "$SRC" \
				< "$HVPMU_TESTING/patches/$p" >> "$log" 2>&1 ||
				{ say "cannot reverse $p"; return 1; }
		done
	fi
	patch -s -p1 -d "$SRC" < "$PPC_DIR/shim.patch" >> "$log" 2>&1 || return 1
	mkdir -p "$sim"
	cp "$PPC_DIR"/sim/* "$sim/" || return 1
	mk=(make -C "$SRC" O="$OUT/obj" ARCH=powerpc CROSS_COMPILE="$CROSS"
	    CC="${CC_PREFIX}${CROSS}gcc" -j"$JOBS")
	ppc_config "$SRC" > "$OUT/pseries.config" || return 1
	e2e_allnoconfig "$log" "$OUT/obj" "$OUT/pseries.config" "${mk[@]}" ||
		return 1
	say "building the kernel in $OUT/obj (log: $log)"
	"${mk[@]}" vmlinux >> "$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }
}

# ppc_perf LOG: perf of the tree, static (the guest has no libraries).
ppc_perf() {
	say "building perf from $KDIR/tools/perf with $CROSS in $OUT/perf (log: $1)"
	e2e_perf_make "$OUT/perf" "$1" ARCH=powerpc CROSS_COMPILE="$CROSS" \
		LDFLAGS=-static NO_LIBELF=1 NO_ZLIB=1 NO_LIBCAP=1
}

# ppc_initramfs: $OUT/initramfs.cpio, whose /init runs guest.sh (then
# EXTRA's *.sh) with the results on the second console, hvc1.
ppc_initramfs() {
	local root=$OUT/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,root,hvpmu}
	cp "$PPC_CACHE/busybox" "$root/bin/busybox" &&
	cp "$OUT/perf/perf" "$root/usr/bin/perf" &&
	cp "$E2E_DIR/guest/lib.sh" "$PPC_DIR/guest.sh" "$PPC_DIR/bench.sh" \
	   "$PPC_DIR/sysinfo-listing.txt" "$root/hvpmu/" || return 1
	if [ "$MODE" = bench ]; then
		${CROSS}gcc -static -O2 -Wall -Wextra -Werror \
			-o "$root/hvpmu/hvpmu-bench" \
			"$HVPMU_TESTING/bench/hvpmu-bench.c" \
			"$HVPMU_TESTING/stress/pmu.c" || return 1
		echo "${BENCH_ARGS:-}" > "$root/hvpmu/bench.args"
	fi
	# The named events Linux's driver must list: every event of the
	# tree's hv-gpci-requests.h for counter_info_version 8.
	"$PPC_DIR/requests.sh" "$SRC/arch/powerpc/perf/hv-gpci-requests.h" \
		> "$root/hvpmu/requests.txt" || return 1
	echo "$HVPMU_SERIES" > "$root/hvpmu/series"
	if [ -n "$EXTRA" ]; then
		mkdir -p "$root/extra"
		cp -a "$EXTRA/." "$root/extra/"
	fi
	{ e2e_init_head; cat <<INIT; } > "$root/init"
{
	sh /hvpmu/$MODE.sh
	rc=\$?
	for f in /extra/*.sh; do
		[ -f "\$f" ] || continue
		echo "== \$f"
		sh "\$f" || echo "EXTRA: \$f exited \$?"
	done
	echo "HVPMU-GUEST-EXIT \$rc"
} > /dev/hvc1 2>&1
reboot -f
INIT
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$OUT/initramfs.cpio"
}

# ppc_kunit_cases CONSOLE DIR: a "PASS|SKIP: kunit: suite.case" line per
# KUnit case of the console's KTAP, a FAIL per failed case; a FAIL when
# the model's suite or, where the tree has it, Linux's own hv-gpci.c's did
# not run. NCASES: the cases seen.
ppc_kunit_cases() {
	local console=$1 dir=$2 s
	NCASES=0
	rm -rf "$dir"
	mkdir -p "$dir"
	tr -d '\r' < "$console" > "$dir/console.log"
	(cd "$KDIR" && python3 tools/testing/kunit/kunit.py parse \
		--json="$dir/kunit.json" "$dir/console.log") > "$dir/parse.log" 2>&1
	if [ ! -s "$dir/kunit.json" ]; then
		e2e_fail kunit "kunit.py parse of the console failed ($dir/parse.log)"
		return
	fi
	e2e_kunit_json kunit "$dir/kunit.json" "$dir/console.log"
	for s in hv_gpci_model $(grep -q '^CONFIG_HV_GPCI_KUNIT_TEST=y' \
				 "$OUT/obj/.config" && echo hv_gpci); do
		grep -Eq "^ *ok [0-9]+ $s\$" "$dir/console.log" ||
			e2e_fail kunit "the suite $s did not run and pass (see $console)"
	done
}

t0=$(date +%s)
mkdir -p "$OUT"
for c in ${CROSS}gcc qemu-system-ppc64 dpkg-deb patch; do
	command -v "$c" > /dev/null || die "command $c not found (make setup installs it)"
done
if [ "$ENDIAN" = le ]; then
	e2e_foreign_busybox ppc64el "$PPC_CACHE" ||
		die "could not fetch busybox-static for ppc64el"
else
	# static glibc for big-endian ppc64 (libc6-dev-ppc64-cross)
	[ -e /usr/powerpc64-linux-gnu/lib/libc.a ] ||
		die "no /usr/powerpc64-linux-gnu/lib/libc.a (make setup installs libc6-dev-ppc64-cross)"
	e2e_cross_busybox "$PPC_CACHE" "$CROSS" ppc64 "$OUT/busybox.log" ||
		die "busybox build (log: $OUT/busybox.log)"
fi
: > "$OUT/kernel.log"
ppc_kernel "$OUT/kernel.log" || die "kernel build (log: $OUT/kernel.log)"
t1=$(date +%s)
ppc_perf "$OUT/perf.log" || die "perf build (log: $OUT/perf.log)"
# percpu_alloc=page: the first per-CPU chunk page-mapped, as where
# embedding it fails, so that hv_gpci's per-CPU buffer is in vmalloc space
# (with CONFIG_DEBUG_VIRTUAL, virt_to_phys() warns there). Linux's own
# hv_gpci (E2E_PPC64_WITHOUT_SERIES) gets the embedded chunk it works with.
PPC_APPEND=percpu_alloc=page
[ "$REVERSE" = all ] && PPC_APPEND=
PPC_APPEND=${E2E_PPC64_APPEND-$PPC_APPEND}
t2=$(date +%s)
ppc_initramfs || die "initramfs"
console=$OUT/console
results=$OUT/results
rm -f "$results"
say "booting (kernel log: $console, results: $results)"
timeout --foreground "${TIMEOUT:-900}" qemu-system-ppc64 -M pseries \
	-cpu power10 -smp 2 -m 1G -display none -no-reboot -nodefaults \
	-serial stdio -serial "file:$results" -kernel "$OUT/obj/vmlinux" \
	-initrd "$OUT/initramfs.cpio" \
	-append "console=hvc0 panic=-1 oops=panic ignore_loglevel kunit.enable=1 $PPC_APPEND" \
	> "$console" 2>&1
rc=$?
t3=$(date +%s)

e2e_report "$WHAT" "$results" "$rc" "$console" "$E2E_MIN_CHECKS"
# The KUnit suites ran at boot: their cases from the console's KTAP,
# through the tree's kunit.py, a line each.
ppc_kunit_cases "$console" "$OUT/kunit"
e2e_log_scan "$WHAT" "$console"
say "kernel $((t1 - t0))s, perf $((t2 - t1))s, guest $((t3 - t2))s, $NCASES KUnit cases"
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
