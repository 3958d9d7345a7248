#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of the sun4v PMUs (niagara2_dram, vfalls_dram,
# niagara_mmustat) on their own architecture: sparc64, big-endian, the
# one place where the mmustat buffer's words and the folding of the 32-bit
# DRAM counters run in the byte order of the hardware. QEMU's sun4u
# (OpenBIOS, an UltraSPARC IIi, the only sparc64 machine QEMU 7.2 boots
# without proprietary firmware) has no sun4v hypervisor and one CPU: the
# drivers load there as platform drivers without a device, and the
# simulated platform (tools/testing/hvpmu/sim, external modules) registers
# the three PMUs on the models of the hypervisor, as in the x86_64 guest;
# the hotplug checks SKIP (/hvpmu/no-hotplug says why). The guest kernel
# is built from a copy of the tree (env.sh's hvpmu_sparc64_src: with
# fixes/6.12-sparc64-fmode-nonotify.patch on 6.12.y); perf from the
# tree's tools/perf and busybox from Debian's busybox source package are
# built static with Debian's sparc64 cross compiler (Debian has no sparc64 port of its own any more).
# The guest loads every module with KUnit suites (the drivers', the
# helpers' and the simulated platform's: guest/kunit.sh), runs the x86_64
# guest's e2e.sh with the three sun4v PMUs (exact counts, every event and
# field, refused strings, the sysfs files against the committed listing
# with the designated CPU 0, unload with and without an event open,
# kmemleak), then the demo's tours of the sun4v PMUs and niagara_mmustat.
#
# The same guest runs the x86_64 guest's stress and bench on the three PMUs
# (--stress, --bench): hvpmu-stress and hvpmu-bench built static for
# sparc64 too, run by stress/stress-guest.sh and bench/bench-guest.sh, on
# the same kernel (whose debug options, lockdep, atomic-sleep, list,
# debugobjects with timers, kmemleak, are in sparc64.config; sparc64 has
# neither KASAN nor UBSAN).
#
# sun4u has one serial port: the kernel's console, which also carries the
# results at the end (the guest keeps them until then; sparc_init_tail).
#
# Prints the guest's "PASS: ..."/"FAIL: ..."/"SKIP: ..." lines and a final
# "N passed, N failed[, N skipped]" line; exits non-zero when a check failed,
# the guest crashed, did not finish, ran fewer checks than it announced or
# than E2E_MIN_CHECKS, or the kernel log holds any report.
#
#   e2e/sparc64/run.sh [EXTRA_DIR]  (EXTRA_DIR: files copied to /extra in
#                                    the guest, whose *.sh run after the
#                                    checks with perf on the PATH)
#   e2e/sparc64/run.sh --stress     hvpmu-stress on the three PMUs instead
#                                    of the checks, then unload and
#                                    kmemleak (STRESS_* as stress/run.sh;
#                                    with one CPU its hotplug worker is
#                                    refused every offline: a SKIP)
#   e2e/sparc64/run.sh --bench      hvpmu-bench's table of the three PMUs
#                                    instead of the checks
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 2400;
# --bench 1200; --stress: from the stress's length, stress/lib.sh);
# STRESS_SECONDS, STRESS_ATTRS, STRESS_SEED, STRESS_ARGS (stress/lib.sh).
set -uo pipefail

SPARC_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$SPARC_DIR/../lib.sh"
# shellcheck source=../../stress/lib.sh
. "$HVPMU_TESTING/stress/lib.sh"
OUT=$BUILD/e2e-sparc64
SRC=$OUT/src
CROSS=sparc64-linux-gnu-
SPARC_CACHE=$REPO/.cache/sparc64
SPARC_PMUS="niagara2_dram vfalls_dram niagara_mmustat"
SPARC_MODELS="sun4v mmustat"
# The guest prints 306 checks (2026-11-27, 6.12 and 6.1; its 71 KUnit
# cases come on top); far fewer means a section silently stopped running.
E2E_MIN_CHECKS=${E2E_MIN_CHECKS:-290}
# MODE: guest (the checks), stress or bench; WHAT names its results.
MODE=guest
WHAT=e2e-sparc64
case "${1:-}" in
--stress) MODE=stress; WHAT=stress-sparc64; shift ;;
--bench) MODE=bench; WHAT=bench-sparc64; shift; E2E_MIN_CHECKS=1 ;;
esac
EXTRA=${1:-}

say() { printf '[%s] %s\n' "$WHAT" "$*" >&2; }
die() {
	echo "FAIL: $WHAT: $*"
	echo "0 passed, 1 failed"
	exit 1
}

# sparc_config: the kernel's fragment: the KUnit suites of
# kunit/*.kunitconfig for sparc as modules, then sparc64.config (where
# both set an option, sparc64.config wins; each option printed once).
sparc_config() {
	{
		# shellcheck disable=SC2046 # file names without blanks
		sed -E 's/^(CONFIG_[A-Z0-9_]*_KUNIT_TEST)=y$/\1=m/' \
			$(hvpmu_kunitconfigs sparc)
		cat "$SPARC_DIR/sparc64.config"
	} | e2e_merge_config
}

# sparc_kernel LOG: the guest kernel in $OUT/obj/arch/sparc/boot/image,
# its modules and the simulated platform's in $OUT/modroot.
sparc_kernel() {
	local log=$1 mk src
	# A copy of the tree (hard links: the unchanged files keep their
	# times, so kbuild rebuilds only what the patches touch), with
	# 6.12.y's fix for sparc64 where it needs one.
	src=$(hvpmu_sparc64_src "$SRC" 2>> "$log") || return 1
	if [ "$src" != "$SRC" ]; then
		rm -rf "$SRC"
		cp -al "$KDIR" "$SRC" || return 1
	fi
	mk=(make -C "$SRC" O="$OUT/obj" ARCH=sparc CROSS_COMPILE="$CROSS"
	    CC="${CC_PREFIX}${CROSS}gcc" -j"$JOBS")
	sparc_config > "$OUT/sparc64.config" || return 1
	e2e_allnoconfig "$log" "$OUT/obj" "$OUT/sparc64.config" "${mk[@]}" ||
		return 1
	say "building the sparc64 kernel in $OUT/obj (log: $log)"
	"${mk[@]}" image modules >> "$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }
	e2e_modules_install "$OUT" "$log" "${mk[@]}"
}

# sparc_tool NAME SOURCE...: the static sparc64 binary NAME (hvpmu-stress,
# hvpmu-bench) in $OUT/tools, with the flags of the x86_64 builds.
sparc_tool() {
	local name=$1
	shift
	mkdir -p "$OUT/tools"
	"${CROSS}gcc" -static -O2 -Wall -Wextra -Werror -pthread \
		-o "$OUT/tools/$name" "$@"
}

# sparc_initramfs: $OUT/initramfs.cpio, with the three sun4v PMUs and
# their two models. Its /init runs, with the results kept for the end
# (sparc_init_tail): the KUnit modules, the x86_64 guest's e2e.sh, then the tours and
# EXTRA's *.sh; with --stress and --bench, the x86_64 guest's
# stress-guest.sh or bench-guest.sh alone, their tool in /extra.
sparc_initramfs() {
	local root=$OUT/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,root,lib/modules,hvpmu}
	cp "$SPARC_CACHE/busybox" "$root/bin/busybox" &&
	cp "$OUT/perf/perf" "$root/usr/bin/perf" &&
	cp -a "$OUT/modroot/lib/modules/." "$root/lib/modules/" &&
	cp "$E2E_DIR/guest/lib.sh" "$root/hvpmu/" || return 1
	echo "$SPARC_PMUS" > "$root/hvpmu/pmus"
	echo "$SPARC_MODELS" > "$root/hvpmu/models"
	# One CPU: the designated CPU has nowhere to go (e2e.sh skips).
	echo "QEMU's sun4u has one CPU: no other CPU to take over the designated one" \
		> "$root/hvpmu/no-hotplug"
	sed -n 's/^CONFIG_HZ=//p' "$OUT/obj/.config" > "$root/hvpmu/hz"
	case $MODE in
	stress)
		mkdir -p "$root/extra"
		cp "$HVPMU_TESTING/stress/stress-guest.sh" "$root/hvpmu/" &&
		cp "$OUT/tools/hvpmu-stress" "$root/extra/" || return 1
		# TCG on sparc64 is slower than on x86_64: more time to wind
		# down and for the leak scan, and for the boot
		stress_extra "$root/extra" 420 300
		sparc_tool_init stress-guest.sh > "$root/init"
		;;
	bench)
		mkdir -p "$root/extra"
		cp "$HVPMU_TESTING/bench/bench-guest.sh" "$root/hvpmu/" &&
		cp "$OUT/tools/hvpmu-bench" "$root/extra/" || return 1
		echo "${BENCH_ARGS:-}" > "$root/extra/bench.args"
		sparc_tool_init bench-guest.sh > "$root/init"
		;;
	*)
		sparc_guest_files "$root" || return 1
		;;
	esac
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$OUT/initramfs.cpio"
}

# sparc_tool_init SCRIPT: an /init that runs /hvpmu/SCRIPT alone (it
# announces its checks itself), as the x86_64 guest's e2e_initramfs does.
sparc_tool_init() {
	e2e_init_head
	cat <<INIT
{
	sh /hvpmu/$1
	echo "HVPMU-GUEST-EXIT \$?"
} > /tmp/results 2>&1
INIT
	sparc_init_tail
}

# sparc_init_tail: the last lines of /init. sun4u has one serial port
# (OpenBIOS describes one "su"), the console: the results, kept in
# /tmp/results, go to it at the end between HVPMU-RESULTS-BEGIN/END
# markers, with the kernel's messages off (dmesg -n 1: the kernel runs
# with loglevel=8, not ignore_loglevel, for this), so that none splits a
# result line; the host takes them out of the console (sparc_split).
sparc_init_tail() {
	cat <<'INIT'
dmesg -n 1
{
	echo HVPMU-RESULTS-BEGIN
	cat /tmp/results
	echo HVPMU-RESULTS-END
} > /dev/ttyS0
poweroff -f
INIT
}

# sparc_guest_files ROOT: the checks' scripts, KUnit modules, sysfs listing,
# EXTRA and /init in the initramfs tree ROOT.
sparc_guest_files() {
	local root=$1
	cp "$E2E_DIR"/guest/{kunit.sh,e2e.sh,demo.sh,pmu-sun4v.sh,pmu-mmustat.sh} \
	   "$E2E_DIR"/guest/{tour-sun4v.sh,tour-mmustat.sh} "$root/hvpmu/" || return 1
	# the modules with KUnit suites, run first (guest/kunit.sh)
	e2e_kunit_modules "$OUT/modroot" > "$OUT/kunit-modules"
	[ -s "$OUT/kunit-modules" ] || return 1
	cp "$OUT/kunit-modules" "$root/hvpmu/kunit-modules"
	# The sun4v PMUs' part of the committed listing, as it is: the guest
	# shows a cpumask naming one online CPU as "one online CPU" (guest/
	# lib.sh cpumask_one_online), whichever CPU the kernel designated.
	awk -v pmus=" $SPARC_PMUS " '
		/^== / { p = $2; sub(/\/.*/, "", p); keep = index(pmus, " " p " ") > 0
			 if (keep) print; next }
		keep' "$E2E_DIR/guest/sysfs-listing.txt" > "$root/hvpmu/sysfs-listing.txt"
	[ -s "$root/hvpmu/sysfs-listing.txt" ] || return 1
	if [ -n "$EXTRA" ]; then
		mkdir -p "$root/extra"
		cp -a "$EXTRA/." "$root/extra/"
	fi
	{ e2e_init_head; cat <<'INIT'; } > "$root/init"
{
	# the KUnit modules, then the checks of the x86_64 guest
	sh /hvpmu/kunit.sh
	rc=$?
	nk=$(cat /tmp/hvpmu-tally | wc -l)
	sh /hvpmu/e2e.sh || rc=1
	# the tours, their commands and output indented; a failure in one is
	# a FAIL
	DEMO_NO_EXTRA=1 sh /hvpmu/demo.sh > /tmp/tour 2>&1
	sed 's/^/    tour: /' /tmp/tour
	if grep -q '^!!! FAILED' /tmp/tour; then
		echo "FAIL: the sun4v tours: $(grep '^!!! FAILED' /tmp/tour | head -n 1)"
	else
		echo "PASS: the sun4v tours ($(grep -c '^# perf' /tmp/tour) perf commands)"
	fi
	echo "HVPMU-GUEST-CHECKS $((nk + $(cat /tmp/hvpmu-tally | wc -l) + 1))"
	for f in /extra/*.sh; do
		[ -f "$f" ] || continue
		echo "== $f"
		sh "$f" || echo "EXTRA: $f exited $?"
	done
	echo "HVPMU-GUEST-EXIT $rc"
} > /tmp/results 2>&1
INIT
	sparc_init_tail >> "$root/init"
}

# sparc_split RAW CONSOLE RESULTS: the guest's console RAW in two, the
# lines between the markers of sparc_init_tail in RESULTS, the kernel's
# log (all the rest) in CONSOLE. A guest that did not get to the end
# printed no results.
sparc_split() {
	awk -v con="$2" -v res="$3" '
		{ l = $0; sub(/\r$/, "", l) }
		l == "HVPMU-RESULTS-BEGIN" { inres = 1; next }
		l == "HVPMU-RESULTS-END" { inres = 0; next }
		inres { print > res; next }
		{ print > con }' "$1"
	touch "$2" "$3"
}

t0=$(date +%s)
mkdir -p "$OUT"
for c in ${CROSS}gcc qemu-system-sparc64 patch depmod; do
	command -v "$c" > /dev/null || die "command $c not found (make setup installs it)"
done
# static glibc for sparc64 (libc6-dev-sparc64-cross), for perf and busybox
[ -e /usr/sparc64-linux-gnu/lib/libc.a ] ||
	die "no /usr/sparc64-linux-gnu/lib/libc.a (make setup installs libc6-dev-sparc64-cross)"
e2e_cross_busybox "$SPARC_CACHE" "$CROSS" sparc64 "$OUT/busybox.log" || die "busybox build (log: $OUT/busybox.log)"
tb=$(date +%s)
: > "$OUT/kernel.log"
sparc_kernel "$OUT/kernel.log" || die "kernel build (log: $OUT/kernel.log)"
t1=$(date +%s)
say "building perf from $KDIR/tools/perf for sparc64 in $OUT/perf (log: $OUT/perf.log)"
# with execvp.c's execvp(): static glibc's fails in perf (its header says how)
mkdir -p "$OUT/perf"
rm -f "$OUT/perf/perf"	# (perf's make does not relink when LDFLAGS change)
"${CROSS}gcc" -O2 -Wall -Werror -c -o "$OUT/execvp.o" "$SPARC_DIR/execvp.c" ||
	die "building execvp.o"
e2e_perf_make "$OUT/perf" "$OUT/perf.log" ARCH=sparc CROSS_COMPILE="$CROSS" \
	LDFLAGS="-static $OUT/execvp.o" NO_LIBELF=1 NO_ZLIB=1 NO_LIBCAP=1 ||
	die "perf build (log: $OUT/perf.log)"
case $MODE in
stress) sparc_tool hvpmu-stress "$HVPMU_TESTING/stress/hvpmu-stress.c" \
		"$HVPMU_TESTING/stress/pmu.c" || die "building hvpmu-stress" ;;
bench) sparc_tool hvpmu-bench "$HVPMU_TESTING/bench/hvpmu-bench.c" \
		"$HVPMU_TESTING/stress/pmu.c" || die "building hvpmu-bench" ;;
esac
t2=$(date +%s)
sparc_initramfs || die "initramfs"
# the checks' files as before; the other modes' beside them
case $MODE in
guest) console=$OUT/console; results=$OUT/results; timeout=${TIMEOUT:-2400} ;;
stress) console=$OUT/stress.console; results=$OUT/stress.results
	timeout=${TIMEOUT:-$STRESS_TIMEOUT}
	say "hvpmu-stress $STRESS_ARGV" ;;
bench) console=$OUT/bench.console; results=$OUT/bench.results
	timeout=${TIMEOUT:-1200} ;;
esac
rm -f "$results"
say "booting (kernel log: $console, results: $results)"
# OpenBIOS loads the kernel and the initramfs; -append replaces its
# command line. poweroff -f powers off through the sun4u power device
# (machine_power_off(): OpenBIOS's SUNW,power-off); a reboot would end in
# OpenBIOS's "Reboot failed!" panic. loglevel=8 rather than
# ignore_loglevel: every message on the console, but the guest can turn
# them off for the results (sparc_init_tail). kunit.enable=1: allnoconfig
# leaves KUNIT_DEFAULT_ENABLED off.
timeout --foreground "$timeout" qemu-system-sparc64 -M sun4u -m 1G \
	-display none -no-reboot -nodefaults -serial stdio \
	-kernel "$OUT/obj/arch/sparc/boot/image" -initrd "$OUT/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=8 kunit.enable=1" \
	> "$console.raw" 2>&1
rc=$?
t3=$(date +%s)
sparc_split "$console.raw" "$console" "$results"

case $MODE in
stress)
	stress_verdict "$WHAT" "$results" "$rc" "$console"
	say "busybox $((tb - t0))s, kernel $((t1 - tb))s, perf and hvpmu-stress $((t2 - t1))s, guest $((t3 - t2))s"
	;;
bench)
	# the PASS/FAIL lines and the table ("| " lines, for bench/run.sh)
	e2e_report "$WHAT" "$results" "$rc" "$console" "$E2E_MIN_CHECKS"
	e2e_log_scan "$WHAT" "$console"
	say "busybox $((tb - t0))s, kernel $((t1 - tb))s, perf and hvpmu-bench $((t2 - t1))s, guest $((t3 - t2))s"
	;;
*)
	e2e_report "$WHAT" "$results" "$rc" "$console" "$E2E_MIN_CHECKS"
	# the KUnit cases of the modules (guest/kunit.sh)
	rm -rf "$OUT/kunit"
	mkdir -p "$OUT/kunit"
	e2e_kunit_cases "kunit sparc64" "$results.txt" "$OUT/kunit" "$OUT/kunit-modules"
	e2e_log_scan "$WHAT" "$console"
	say "busybox $((tb - t0))s, kernel $((t1 - tb))s, perf $((t2 - t1))s, guest $((t3 - t2))s, $NCASES KUnit cases"
	;;
esac
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
