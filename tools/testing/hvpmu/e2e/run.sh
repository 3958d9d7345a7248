#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests: build the x86_64 guest kernel with the simulated
# platform (build/e2e-x86_64), pack Debian's perf tool and busybox into an
# initramfs, boot it under QEMU (TCG, -smp 2) and run guest/e2e.sh there.
#
# Prints the guest's "PASS: ..."/"FAIL: ..." lines and a final
# "N passed, N failed" line; exits non-zero when a check failed, the guest
# crashed or did not finish.
#
#   e2e/run.sh [--no-build]     (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 600).
set -uo pipefail

. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
if [ "${1:-}" != --no-build ]; then
	e2e_kernel "$BUILD/e2e-x86_64.log" || {
		echo "FAIL: e2e: kernel build (log: $BUILD/e2e-x86_64.log)"
		echo "0 passed, 1 failed"
		exit 1
	}
fi
t1=$(date +%s)
e2e_initramfs e2e || { echo "FAIL: e2e: initramfs"; echo "0 passed, 1 failed"; exit 1; }
console="$BUILD/e2e-x86_64.console"
e2e_say "booting (console: $console)"
e2e_boot "${TIMEOUT:-600}" > "$console" 2>&1
rc=$?
t2=$(date +%s)

tr -d '\r' < "$console" | grep -E '^(PASS|FAIL|SKIP): |^    ' | grep -v '^    model:' |
	sed -n '/^\(PASS\|FAIL\|SKIP\): /,$p'
npass=$(tr -d '\r' < "$console" | grep -c '^PASS: ')
nfail=$(tr -d '\r' < "$console" | grep -c '^FAIL: ')
nskip=$(tr -d '\r' < "$console" | grep -c '^SKIP: ')
if ! tr -d '\r' < "$console" | grep -q '^HVPMU-GUEST-EXIT'; then
	echo "FAIL: e2e: the guest did not finish (qemu exit $rc; see $console)"
	grep -E 'BUG|WARNING|Oops|panic|Call Trace' "$console" | head -n 20
	nfail=$((nfail + 1))
elif grep -qE '(BUG|WARNING):|Oops|Kernel panic' "$console"; then
	echo "FAIL: e2e: kernel warnings in the console log"
	grep -E -A5 '(BUG|WARNING):|Oops' "$console" | head -n 30
	nfail=$((nfail + 1))
fi
e2e_say "build $((t1 - t0))s, guest $((t2 - t1))s"
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
