#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KUnit on x86_64: every suite of kunit/*.kunitconfig, built as a module
# into the guest kernel of the end-to-end tests (e2e/lib.sh: debug options,
# KASAN, lockdep, UBSAN, kmemleak), loaded one module at a time in a guest
# (e2e/guest/kunit.sh). One kernel build serves this tier, e2e, stress and
# demo. Each test case's result is a line "PASS|FAIL|SKIP: kunit x86_64:
# suite.case" (from kunit.py parse of each module's log); then the whole
# kernel log is scanned for reports.
#
#   kunit/x86_64.sh [--no-build]    (--no-build: reuse the kernel built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 1500);
# KUNIT_MODULES: run only these test modules (names without .ko).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../e2e/lib.sh
. "$HERE/../e2e/lib.sh"

fail_early() { echo "FAIL: kunit x86_64: $*"; echo "0 passed, 1 failed"; exit 1; }

t0=$(date +%s)
if [ "${1:-}" != --no-build ]; then
	e2e_kernel "$BUILD/e2e-x86_64.log" || fail_early "$E2E_FAILED"
fi
t1=$(date +%s)

# The test modules: those with KUnit suites in them.
extra="$BUILD/kunit-x86_64-extra"
rm -rf "$extra"
mkdir -p "$extra"
e2e_kunit_modules "$E2E_OUT/modroot" > "$extra/kunit-modules"
if [ -n "${KUNIT_MODULES:-}" ]; then
	tr ' ' '\n' <<< "$KUNIT_MODULES" | grep -xF -f - "$extra/kunit-modules" \
		> "$extra/kunit-modules.only"
	mv "$extra/kunit-modules.only" "$extra/kunit-modules"
fi
[ -s "$extra/kunit-modules" ] || fail_early "no module with KUnit suites in $E2E_OUT/modroot"
e2e_initramfs kunit "$extra" || fail_early "initramfs"

console="$BUILD/kunit-x86_64.console"
results="$BUILD/kunit-x86_64.results"
out="$BUILD/kunit-x86_64"
rm -rf "$results" "$out"
mkdir -p "$out"
e2e_say "booting: KUnit modules $(tr '\n' ' ' < "$extra/kunit-modules")(kernel log: $console)"
e2e_boot "${TIMEOUT:-1500}" "$results" > "$console" 2>&1
rc=$?
t2=$(date +%s)

e2e_count "$results"
grep -E '^(PASS|FAIL|SKIP): |^    [^K]' "$results.txt"
e2e_guest_checks "kunit x86_64" "$results" "$rc" "$console"

e2e_kunit_cases "kunit x86_64" "$results.txt" "$out" "$extra/kunit-modules"
e2e_log_scan "kunit x86_64" "$console"
e2e_say "kunit x86_64: $NCASES test cases; build $((t1 - t0))s, guest $((t2 - t1))s"
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
