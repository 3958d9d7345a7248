#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress (and check.sh's stress step): build hvpmu-stress statically,
# boot the e2e guest kernel (debug: KASAN, lockdep, UBSAN, kmemleak) with
# the simulated platform and run it there, over the PMUs that guest has;
# then scan the whole kernel log. mips_cm is stressed in the mips guest
# (e2e/mips/run.sh --stress), which check.sh's stress step runs next.
#
# Prints the guest's PASS/FAIL lines, the stress report, every kernel report
# found, and "N passed, N failed"; exits non-zero on any failure, on a
# kernel report, or when the guest did not finish.
#
#   stress/run.sh [--no-build]  (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; STRESS_SECONDS, STRESS_ATTRS,
# STRESS_SEED, STRESS_ARGS (stress/lib.sh: the run's length, the seed,
# more hvpmu-stress options).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../e2e/lib.sh
. "$HERE/../e2e/lib.sh"
# shellcheck source=lib.sh
. "$HERE/lib.sh"

fail_early() { echo "FAIL: stress: $*"; echo "0 passed, 1 failed"; exit 1; }

t0=$(date +%s)
if [ "${1:-}" != --no-build ]; then
	e2e_kernel "$BUILD/e2e-x86_64.log" ||
		fail_early "$E2E_FAILED"
fi
extra="$BUILD/stress-extra"
rm -rf "$extra"
mkdir -p "$extra"
gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$extra/hvpmu-stress" \
	"$HERE/hvpmu-stress.c" "$HERE/pmu.c" || fail_early "building hvpmu-stress"
# The guest: boot and set-up (~40 s), the run, winding down (readers
# finish, the last reload: ~60 s), the leak scan.
stress_extra "$extra" 240 120
e2e_initramfs "$HERE/stress-guest.sh" "$extra" || fail_early "initramfs"

console="$BUILD/stress-x86_64.console"
results="$BUILD/stress-x86_64.results"
rm -f "$results"
e2e_say "booting: hvpmu-stress $STRESS_ARGV (kernel log: $console, results: $results)"
t1=$(date +%s)
e2e_boot "$STRESS_TIMEOUT" "$results" > "$console" 2>&1
rc=$?
t2=$(date +%s)

stress_verdict stress "$results" "$rc" "$console"
e2e_say "build $((t1 - t0))s, guest $((t2 - t1))s"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
