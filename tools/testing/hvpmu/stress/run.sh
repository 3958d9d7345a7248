#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress (and check.sh's stress step): build hvpmu-stress statically,
# boot the e2e guest kernel (debug: KASAN, lockdep, UBSAN, kmemleak) with
# the simulated platform and run it there; then scan the whole kernel log.
#
# Prints the guest's PASS/FAIL lines, the stress report, every kernel report
# found, and "N passed, N failed"; exits non-zero on any failure, on a
# kernel report, or when the guest did not finish.
#
#   stress/run.sh [--no-build]  (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh;
#   STRESS_SECONDS  how long the stress runs (default 60)
#   STRESS_ATTRS    run on until this many attributes were tried (default:
#                   none), at most 3 x STRESS_SECONDS
#   STRESS_SEED     the seed (default: printed, from the time)
#   STRESS_ARGS     more hvpmu-stress options (-w N, -U, -L, -v; see -h)
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../e2e/lib.sh"

secs=${STRESS_SECONDS:-60}
args="-t $secs"
[ -n "${STRESS_ATTRS:-}" ] && args="$args -a $STRESS_ATTRS -T $((3 * secs))"
[ -n "${STRESS_SEED:-}" ] && args="$args -s $STRESS_SEED"
args="$args ${STRESS_ARGS:-}"
# The guest: boot and set-up (~40 s), the run, up to 3x longer with an
# attribute target, winding down (readers finish, the last reload: ~60 s),
# the leak scan; the watchdog in the guest fires first.
max=$secs
[ -n "${STRESS_ATTRS:-}" ] && max=$((3 * secs))
watchdog=$((max + 240))
timeout=$((watchdog + 120))

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
echo "$args" > "$extra/stress.args"
echo "$watchdog" > "$extra/stress.watchdog"
e2e_initramfs "$HERE/stress-guest.sh" "$extra" || fail_early "initramfs"

console="$BUILD/stress-x86_64.console"
results="$BUILD/stress-x86_64.results"
rm -f "$results"
e2e_say "booting: hvpmu-stress $args (kernel log: $console, results: $results)"
t1=$(date +%s)
e2e_boot "$timeout" "$results" > "$console" 2>&1
rc=$?
t2=$(date +%s)

e2e_count "$results"
grep -v '^HVPMU-GUEST-' "$results.txt"
e2e_guest_checks stress "$results" "$rc" "$console"
if ! grep -q '^PASS: stress: .* attributes tried' "$results.txt"; then
	e2e_fail stress "no report from hvpmu-stress"
fi
# Every report of the debug kernel (kmemleak's are the guest's to judge).
if ! e2e_log_scan stress "$console"; then
	echo "    report lines by kind:"
	tr -d '\r' < "$console" | grep -E -- "$KERNEL_REPORT_RE" |
		grep -v -e 'cut here' -e 'Call Trace' | sed 's/^\[ *[0-9.]*\] //' |
		sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    /'
fi
e2e_say "build $((t1 - t0))s, guest $((t2 - t1))s"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
