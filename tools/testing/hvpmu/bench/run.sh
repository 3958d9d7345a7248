#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build hvpmu-bench statically, boot the e2e guest kernel with
# the simulated platform and print its table: each figure beside a
# reference measured in the same run (ratios, never absolute TCG times),
# for the PMUs that guest has. Then mips_cm's rows from the mips64el guest
# (e2e/mips/run.sh --bench), on its own architecture, and hv_gpci's from the
# ppc64le guest (e2e/ppc64/), Linux's driver without the powerpc series
# and with it.
# Fails, with the first thing that went wrong on its last line, when the
# guest did not finish or the kernel log holds a report.
#
#   bench/run.sh [--no-build]   (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; BENCH_ARGS (e.g. "-r 30").
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../e2e/lib.sh
. "$HERE/../e2e/lib.sh"

failed() { echo "bench: FAILED: $*"; exit 1; }

hvpmu_lock_build
t0=$(date +%s)
"$HVPMU_TESTING/setup.sh" "$HVPMU_SERIES" >&2 || failed "set-up"
if [ "${1:-}" != --no-build ]; then
	e2e_kernel "$BUILD/e2e-x86_64.log" ||
		failed "$E2E_FAILED"
fi
extra="$BUILD/bench-extra"
rm -rf "$extra"
mkdir -p "$extra"
gcc -static -O2 -Wall -Wextra -Werror -o "$extra/hvpmu-bench" \
	"$HERE/hvpmu-bench.c" "$HVPMU_TESTING/stress/pmu.c" ||
	failed "building hvpmu-bench"
echo "${BENCH_ARGS:-}" > "$extra/bench.args"
e2e_initramfs "$HERE/bench-guest.sh" "$extra" || failed "initramfs"

console="$BUILD/bench-x86_64.console"
results="$BUILD/bench-x86_64.results"
rm -f "$results"
e2e_say "booting (kernel log: $console)"
e2e_boot "${TIMEOUT:-900}" "$results" > "$console" 2>&1
qrc=$?
touch "$results"
tr -d '\r' < "$results" | sed -n 's/^| //p'
e2e_say "done in $(( $(date +%s) - t0 ))s"

guest_rc=$(tr -d '\r' < "$results" | sed -n 's/^HVPMU-GUEST-EXIT //p' | tail -n 1)
first=$(tr -d '\r' < "$results" | sed -n 's/^FAIL: //p' | head -n 1)
if [ -z "$guest_rc" ]; then
	failed "the guest did not finish (qemu exit $qrc, see $console)"
elif [ "$guest_rc" != 0 ]; then
	failed "${first:-the guest script exited $guest_rc}"
elif kernel_reports "$console" > /dev/null; then
	failed "kernel report: $(kernel_first_report "$console")"
fi

# mips_cm in the mips64el guest (e2e/mips/run.sh --bench): the same table,
# mips_cm's rows (and hvpmu-bench's notes on them).
out="$BUILD/bench-mips64el.out"
e2e_say "mips_cm in the mips64el guest (log: $out)"
"$HVPMU_TESTING/e2e/mips/run.sh" --bench > "$out" 2>&1 ||
	failed "the mips64el guest: $(grep -m1 '^FAIL: ' "$out")"
echo
echo "mips_cm, drivers/perf/mips_cm_pmu.c on the CM model (mips64el malta guest, I6400):"
sed -n 's/^| //p' "$out" | grep -e '^figure' -e mips_cm

# Linux's own hv_gpci in the ppc64le guest (e2e/ppc64/run.sh --bench): as
# the base tree has it, with the series' fixes but not its batching (0419
# reversed), and with the whole series; the same table, hv_gpci's rows.
# As released, the driver's request buffer may cross a 4 KiB boundary,
# which the model refuses (H_PRIVILEGE, as the seed says): then no event
# opens and that run has no figure, only the reason.
for variant in without fixes with; do
	case $variant in
	without) env=(E2E_PPC64_WITHOUT_SERIES=1); label="without the series" ;;
	fixes) env=(E2E_PPC64_REVERSE=0419); label="with the fixes, without 0419 (batching)" ;;
	with) env=(); label="with the series" ;;
	esac
	out="$BUILD/bench-ppc64le-$variant.out"
	e2e_say "hv_gpci in the ppc64le guest, Linux's driver $label (log: $out)"
	env "${env[@]}" "$HVPMU_TESTING/e2e/ppc64/run.sh" --bench > "$out" 2>&1
	rc=$?
	echo
	echo "hv_gpci, Linux's arch/powerpc/perf/hv-gpci.c $label (ppc64le guest):"
	if [ "$rc" -ne 0 ] && [ "$variant" = without ]; then
		sed -n 's/^| //p' "$out" | grep hv_gpci | head -n 5
		echo "    (no figure: $(grep -m1 '^FAIL: ' "$out" | cut -c7-))"
		continue
	fi
	[ "$rc" -eq 0 ] ||
		failed "the ppc64le guest, $label: $(grep -m1 '^FAIL: ' "$out")"
	sed -n 's/^| //p' "$out" | grep -e '^figure' -e hv_gpci
done

# One line per uncore PMU: read() from another CPU than the event's over
# read() on it. On 6.12 perf core reads a PMU with a system-wide scope on
# the calling CPU: more than 1.15 means an IPI came back. (6.1 reads on the
# calling CPU of the event's package, PERF_EV_CAP_READ_ACTIVE_PKG.)
echo
cross=$( { tr -d '\r' < "$results"; cat "$BUILD/bench-mips64el.out"; } |
	sed -n 's/^| //p' | grep '^cross-cpu-read ' | sort -u)
echo "$cross"
if [ "$HVPMU_SERIES" != 6.1 ]; then
	over=$(awk '$3 > 1.15 { print $2 " " $3 }' <<< "$cross")
	[ -z "$over" ] || failed "cross-CPU read costs more than 1.15 local reads: $over"
fi
