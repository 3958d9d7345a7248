#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of mips_cm on its own architecture: QEMU's malta with an
# I6400 (MIPS64r6, little-endian, TCG) and the CPS, two VPs of one core
# (-smp 2), with the real perf tool. QEMU's CPUs with a CPS and more than
# one CPU are all MIPSr6, and the userspace must be too: Debian ships none
# (its mips64el is MIPS64r2, which an r6 CPU cannot run; the kernel's
# R2-to-R6 emulator hung busybox's "sleep" here). So perf from the tree's
# tools/perf and busybox from Debian's busybox source package are built,
# static, with Debian's mipsisa64r6el cross compiler. The guest kernel is
# built from a copy of the tree with shim.patch applied after the series;
# the simulated platform (tools/testing/hvpmu/sim, external modules, here
# with the mips_cm front-end alone) registers "mips_cm" on the model of
# the CM debug block, as in the x86_64 guest. The guest loads every module
# with KUnit suites (mips_cm's and the helpers': guest/kunit.sh), runs the
# x86_64 guest's e2e.sh with mips_cm as the only PMU (exact counts, every
# event and field, the designated CPU taken offline while perf counts,
# the sysfs files against the committed listing, unload, kmemleak), then
# the demo's mips_cm tour. shim.patch also works around two bugs of QEMU's
# GIC and CPC that otherwise stall taking a VP offline.
#
# The same guest runs the x86_64 guest's stress and bench for mips_cm
# (--stress, --bench): hvpmu-stress and hvpmu-bench built static for
# MIPS64r6 too, run by stress/stress-guest.sh and bench/bench-guest.sh
# with mips_cm the only PMU and model, on the same kernel (whose debug
# options, lockdep, atomic-sleep, list, debugobjects with timers, UBSAN
# bounds and shift, kmemleak, are in mips64el.config; MIPS has no KASAN).
#
# Prints the guest's "PASS: ..."/"FAIL: ..."/"SKIP: ..." lines and a final
# "N passed, N failed[, N skipped]" line; exits non-zero when a check failed,
# the guest crashed, did not finish, ran fewer checks than it announced or
# than E2E_MIN_CHECKS, or the kernel log holds any report.
#
#   e2e/mips/run.sh [EXTRA_DIR]   (EXTRA_DIR: files copied to /extra in the
#                                  guest, whose *.sh run after the checks
#                                  with perf on the PATH, as for make demo)
#   e2e/mips/run.sh --stress      hvpmu-stress on mips_cm instead of the
#                                  checks, with CPU hotplug, then unload and
#                                  kmemleak (check.sh's stress step, make
#                                  stress; STRESS_* as stress/run.sh)
#   e2e/mips/run.sh --bench       hvpmu-bench's table of mips_cm instead of
#                                  the checks (make bench)
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 1200;
# --bench 900; --stress: from the stress's length, stress/lib.sh);
# STRESS_SECONDS, STRESS_ATTRS, STRESS_SEED, STRESS_ARGS (stress/lib.sh).
set -uo pipefail

MIPS_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$MIPS_DIR/../lib.sh"
# shellcheck source=../../stress/lib.sh
. "$HVPMU_TESTING/stress/lib.sh"
OUT=$BUILD/e2e-mips64el
SRC=$OUT/src
CROSS=mips64el-linux-gnuabi64-
UCROSS=mipsisa64r6el-linux-gnuabi64-
MIPS_CACHE=$REPO/.cache/mips64r6el
# The guest prints about 85 checks (its KUnit cases come on top); far
# fewer means a section silently stopped running.
E2E_MIN_CHECKS=${E2E_MIN_CHECKS:-60}
# MODE: guest (the checks), stress or bench; WHAT names its results.
MODE=guest
WHAT=e2e-mips
case "${1:-}" in
--stress) MODE=stress; WHAT=stress-mips; shift ;;
--bench) MODE=bench; WHAT=bench-mips; shift; E2E_MIN_CHECKS=1 ;;
esac
EXTRA=${1:-}

say() { printf '[%s] %s\n' "$WHAT" "$*" >&2; }
die() {
	echo "FAIL: $WHAT: $*"
	echo "0 passed, 1 failed"
	exit 1
}

# mips_kernel LOG: the guest kernel in $OUT/obj/vmlinux, its modules and
# the simulated platform's in $OUT/modroot.
mips_kernel() {
	local log=$1 mk
	# A copy of the tree (hard links: the unchanged files keep their
	# times, so kbuild rebuilds only what the shim touches).
	rm -rf "$SRC"
	cp -al "$KDIR" "$SRC" || return 1
	patch -s -p1 -d "$SRC" < "$MIPS_DIR/shim.patch" >> "$log" 2>&1 || return 1
	mk=(make -C "$SRC" O="$OUT/obj" ARCH=mips CROSS_COMPILE="$CROSS"
	    CC="${CC_PREFIX}${CROSS}gcc" -j"$JOBS")
	# UBSAN instruments the whole kernel on 6.12; on 6.1 only with
	# UBSAN_SANITIZE_ALL, which allnoconfig would leave off.
	cp "$MIPS_DIR/mips64el.config" "$OUT/mips64el.config" || return 1
	if grep -q '^config UBSAN_SANITIZE_ALL$' "$SRC/lib/Kconfig.ubsan"; then
		echo CONFIG_UBSAN_SANITIZE_ALL=y >> "$OUT/mips64el.config"
	fi
	e2e_allnoconfig "$log" "$OUT/obj" "$OUT/mips64el.config" "${mk[@]}" ||
		return 1
	say "building the mips64el kernel in $OUT/obj (log: $log)"
	"${mk[@]}" vmlinux modules >> "$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }
	e2e_modules_install "$OUT" "$log" "${mk[@]}"
}

# mips_tool NAME SOURCE...: the static MIPS64r6 binary NAME (hvpmu-stress,
# hvpmu-bench) in $OUT/tools, with the flags of the x86_64 builds.
mips_tool() {
	local name=$1
	shift
	mkdir -p "$OUT/tools"
	"${UCROSS}gcc" -static -O2 -Wall -Wextra -Werror -pthread \
		-o "$OUT/tools/$name" "$@"
}

# mips_initramfs: $OUT/initramfs.cpio, with mips_cm as the only PMU and
# model. Its /init runs, with the results on the second serial port: the
# KUnit modules, the x86_64 guest's e2e.sh, then the mips_cm tour and
# EXTRA's *.sh; with --stress and --bench, the x86_64 guest's
# stress-guest.sh or bench-guest.sh alone, their tool in /extra.
mips_initramfs() {
	local root=$OUT/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,root,lib/modules,hvpmu}
	cp "$MIPS_CACHE/busybox" "$root/bin/busybox" &&
	cp "$OUT/perf/perf" "$root/usr/bin/perf" &&
	cp -a "$OUT/modroot/lib/modules/." "$root/lib/modules/" &&
	cp "$E2E_DIR/guest/lib.sh" "$root/hvpmu/" || return 1
	echo mips_cm > "$root/hvpmu/pmus"
	echo mips_cm > "$root/hvpmu/models"
	sed -n 's/^CONFIG_HZ=//p' "$OUT/obj/.config" > "$root/hvpmu/hz"
	case $MODE in
	stress)
		mkdir -p "$root/extra"
		cp "$HVPMU_TESTING/stress/stress-guest.sh" "$root/hvpmu/" &&
		cp "$OUT/tools/hvpmu-stress" "$root/extra/" || return 1
		# TCG on MIPS is slower than on x86_64: more time to wind
		# down and for the boot. The guest's watchdog must fire
		# before the host's SILENCE: at most SLACK (150) s after
		# the last progress line
		stress_extra "$root/extra" 150 300
		mips_tool_init stress-guest.sh > "$root/init"
		;;
	bench)
		mkdir -p "$root/extra"
		cp "$HVPMU_TESTING/bench/bench-guest.sh" "$root/hvpmu/" &&
		cp "$OUT/tools/hvpmu-bench" "$root/extra/" || return 1
		echo "${BENCH_ARGS:-}" > "$root/extra/bench.args"
		mips_tool_init bench-guest.sh > "$root/init"
		;;
	*)
		mips_guest_files "$root" || return 1
		;;
	esac
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$OUT/initramfs.cpio"
}

# mips_tool_init SCRIPT: an /init that runs /hvpmu/SCRIPT alone (it
# announces its checks itself), as the x86_64 guest's e2e_initramfs does.
mips_tool_init() {
	e2e_init_head
	cat <<INIT
sh /hvpmu/$1 > /dev/ttyS1 2>&1
echo "HVPMU-GUEST-EXIT \$?" > /dev/ttyS1
poweroff -f
INIT
}

# mips_guest_files ROOT: the checks' scripts, KUnit modules, sysfs listing,
# EXTRA and /init in the initramfs tree ROOT.
mips_guest_files() {
	local root=$1
	cp "$E2E_DIR"/guest/{kunit.sh,e2e.sh,demo.sh,pmu-mips_cm.sh,tour-mips_cm.sh} \
	   "$root/hvpmu/" || return 1
	# the modules with KUnit suites, run first (guest/kunit.sh)
	e2e_kunit_modules "$OUT/modroot" > "$OUT/kunit-modules"
	[ -s "$OUT/kunit-modules" ] || return 1
	cp "$OUT/kunit-modules" "$root/hvpmu/kunit-modules"
	# mips_cm's part of the committed listing
	awk '/^== / { keep = index($2, "mips_cm/") == 1 } keep' \
		"$E2E_DIR/guest/sysfs-listing.txt" > "$root/hvpmu/sysfs-listing.txt"
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
	# the tour, its commands and output indented; a failure in it is a FAIL
	DEMO_NO_EXTRA=1 sh /hvpmu/demo.sh > /tmp/tour 2>&1
	sed 's/^/    tour: /' /tmp/tour
	if grep -q '^!!! FAILED' /tmp/tour; then
		echo "FAIL: the mips_cm tour: $(grep '^!!! FAILED' /tmp/tour | head -n 1)"
	else
		echo "PASS: the mips_cm tour ($(grep -c '^# perf' /tmp/tour) perf commands)"
	fi
	echo "HVPMU-GUEST-CHECKS $((nk + $(cat /tmp/hvpmu-tally | wc -l) + 1))"
	for f in /extra/*.sh; do
		[ -f "$f" ] || continue
		echo "== $f"
		sh "$f" || echo "EXTRA: $f exited $?"
	done
	echo "HVPMU-GUEST-EXIT $rc"
} > /dev/ttyS1 2>&1
poweroff -f
INIT
}

t0=$(date +%s)
mkdir -p "$OUT"
for c in ${CROSS}gcc ${UCROSS}gcc qemu-system-mips64el patch depmod; do
	command -v "$c" > /dev/null || die "command $c not found (make setup installs it)"
done
e2e_cross_busybox "$MIPS_CACHE" "$UCROSS" mips64r6el "$OUT/busybox.log" || die "busybox build (log: $OUT/busybox.log)"
: > "$OUT/kernel.log"
mips_kernel "$OUT/kernel.log" || die "kernel build (log: $OUT/kernel.log)"
t1=$(date +%s)
say "building perf from $KDIR/tools/perf for mips64r6el in $OUT/perf (log: $OUT/perf.log)"
e2e_perf_make "$OUT/perf" "$OUT/perf.log" ARCH=mips CROSS_COMPILE="$UCROSS" \
	LDFLAGS=-static NO_LIBELF=1 NO_ZLIB=1 NO_LIBCAP=1 ||
	die "perf build (log: $OUT/perf.log)"
case $MODE in
stress) mips_tool hvpmu-stress "$HVPMU_TESTING/stress/hvpmu-stress.c" \
		"$HVPMU_TESTING/stress/pmu.c" || die "building hvpmu-stress" ;;
bench) mips_tool hvpmu-bench "$HVPMU_TESTING/bench/hvpmu-bench.c" \
		"$HVPMU_TESTING/stress/pmu.c" || die "building hvpmu-bench" ;;
esac
t2=$(date +%s)
mips_initramfs || die "initramfs"
# the checks' files as before; the other modes' beside them
case $MODE in
guest) console=$OUT/console; results=$OUT/results; timeout=${TIMEOUT:-1200} ;;
stress) console=$OUT/stress.console; results=$OUT/stress.results
	timeout=${TIMEOUT:-$STRESS_TIMEOUT}
	say "hvpmu-stress $STRESS_ARGV" ;;
bench) console=$OUT/bench.console; results=$OUT/bench.results
	timeout=${TIMEOUT:-900} ;;
esac
# QEMU's malta sometimes jumps the guest's clock by about 26 s at once
# (6,4xx-6,5xx jiffies at HZ=250: 2^32 cycles of a VP's CP0 Count, see
# RESULTS.md), and RCU then reports a stall that is not the guest's doing.
# It also froze once under the stress, printing nothing for 10 minutes:
# no RCU stall report, no word from the guest's watchdog, so neither
# vCPU ran the kernel's timers (CI, 2026-12-04). A guest silent for
# SILENCE seconds with no kernel report is stopped and its vCPUs' state
# kept (e2e_qemu). Either run is booted once more, saying so; its log is
# kept beside. A second failure is the verdict.
# The KUnit guest prints nothing during its longest cases (164 s seen
# on 6.12, 2026-12-04); the stress prints every 10 s.
case $MODE in
stress) SILENCE=${SILENCE:-240} ;;
*) SILENCE=${SILENCE:-600} ;;
esac
attempt=1
while :; do
	rm -f "$results"
	say "booting (kernel log: $console, results: $results)"
	# -append replaces the command line the malta firmware would pass;
	# poweroff -f powers off through the PIIX4 (POWER_RESET_PIIX4_POWEROFF)
	# before the other CPU is stopped: reboot -f stops it first, and 6.12's
	# MIPS stop_this_cpu() reports it dead to RCU from the IPI, which may
	# wake RCU's kthread with smp_call_function_single() and warn (seen once:
	# "WARNING: ... kernel/smp.c:661 smp_call_function_single" after
	# "reboot: Restarting system", the checks all passed);
	# kunit.enable=1: allnoconfig leaves KUNIT_DEFAULT_ENABLED off.
	E2E_VMLINUX=$OUT/obj/vmlinux e2e_qemu "$timeout" "$SILENCE" "$console" \
		"$results" qemu-system-mips64el -M malta \
		-cpu I6400 -smp 2 -m 1G -display none -no-reboot -nodefaults \
		-serial stdio -serial "file:$results" -kernel "$OUT/obj/vmlinux" \
		-initrd "$OUT/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic ignore_loglevel kunit.enable=1"
	rc=$?
	if [ "$attempt" -eq 1 ] && [ "$rc" = 125 ] && ! kernel_reports "$console" > /dev/null; then
		cp "$console" "$console.frozen"
		cp "$console.cpus" "$console.frozen.cpus"
		say "the guest fell silent for $SILENCE s, its kernel and its watchdog saying nothing (QEMU; log: $console.frozen, vCPUs: $console.frozen.cpus): booting once more"
		attempt=2
		continue
	fi
	if [ "$attempt" -eq 1 ] && grep -Eq "rcu_sched kthread timer wakeup didn't happen for 6[3-5][0-9]{2} jiffies" "$console"; then
		cp "$console" "$console.clock-jump"
		say "the guest's clock jumped about 26 s (QEMU; log: $console.clock-jump): booting once more"
		attempt=2
		continue
	fi
	break
done
t3=$(date +%s)
say "longest silence of the guest: $(cat "$console.silence") s (stopped at $SILENCE)"

case $MODE in
stress)
	stress_verdict "$WHAT" "$results" "$rc" "$console"
	say "kernel $((t1 - t0))s, perf and hvpmu-stress $((t2 - t1))s, guest $((t3 - t2))s"
	;;
bench)
	# the PASS/FAIL lines and the table ("| " lines, for bench/run.sh)
	e2e_report "$WHAT" "$results" "$rc" "$console" "$E2E_MIN_CHECKS"
	e2e_log_scan "$WHAT" "$console"
	say "kernel $((t1 - t0))s, perf and hvpmu-bench $((t2 - t1))s, guest $((t3 - t2))s"
	;;
*)
	e2e_report e2e-mips "$results" "$rc" "$console" "$E2E_MIN_CHECKS"
	# the KUnit cases of the modules (guest/kunit.sh)
	rm -rf "$OUT/kunit"
	mkdir -p "$OUT/kunit"
	e2e_kunit_cases "kunit mips64el" "$results.txt" "$OUT/kunit" "$OUT/kunit-modules"
	e2e_log_scan e2e-mips "$console"
	say "kernel $((t1 - t0))s, perf $((t2 - t1))s, guest $((t3 - t2))s, $NCASES KUnit cases"
	;;
esac
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
