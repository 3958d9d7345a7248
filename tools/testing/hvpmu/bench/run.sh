#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build hvpmu-bench statically, boot the e2e guest kernel with
# the simulated platform and print its table: each figure beside a
# reference measured in the same run (ratios, never absolute TCG times).
# Fails, with the first thing that went wrong on its last line, when the
# guest did not finish or the kernel log holds a report.
#
#   bench/run.sh [--no-build]   (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; BENCH_ARGS (e.g. "-r 30").
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
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
