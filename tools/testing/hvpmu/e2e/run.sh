#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests: build the x86_64 guest kernel with the simulated
# platform (build/e2e-x86_64), pack Debian's perf tool and busybox into an
# initramfs, boot it under QEMU (TCG, -smp 2) and run guest/e2e.sh there.
#
# Prints the guest's "PASS: ..."/"FAIL: ..."/"SKIP: ..." lines and a final
# "N passed, N failed[, N skipped]" line; exits non-zero when a check failed,
# the guest crashed, did not finish, exited non-zero, ran fewer checks than
# it announced or than E2E_MIN_CHECKS, or the kernel log holds any report
# (WARNING, BUG, KASAN, lockdep, UBSAN, kmemleak...).
#
#   e2e/run.sh [--no-build]     (--no-build: reuse the kernel already built)
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 1500;
# the debug guest ran its 460 checks in 620 s on a loaded 2-core host; 2400
# on 6.1, whose guest took 1,296 s unloaded and hit 1,500 s under load).
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The guest runs about 290 checks (mips_cm's run in the mips64el guest,
# e2e/mips); far fewer means a section silently stopped running (a
# missing file, a loop over nothing).
E2E_MIN_CHECKS=${E2E_MIN_CHECKS:-280}

t0=$(date +%s)
if [ "${1:-}" != --no-build ]; then
	e2e_kernel "$BUILD/e2e-x86_64.log" || {
		echo "FAIL: e2e: $E2E_FAILED"
		echo "0 passed, 1 failed"
		exit 1
	}
fi
t1=$(date +%s)
e2e_initramfs e2e || { echo "FAIL: e2e: initramfs"; echo "0 passed, 1 failed"; exit 1; }
console="$BUILD/e2e-x86_64.console"
results="$BUILD/e2e-x86_64.results"
rm -f "$results"
e2e_say "booting (kernel log: $console, results: $results)"
guest_timeout=1500
[ "$HVPMU_SERIES" = 6.1 ] && guest_timeout=2400
e2e_boot "${TIMEOUT:-$guest_timeout}" "$results" > "$console" 2>&1
rc=$?
t2=$(date +%s)

e2e_count "$results"
grep -E '^(PASS|FAIL|SKIP): |^    ' "$results.txt" | grep -v -e '^    model:' -e '^    sysfs-listing:' |
	sed -n '/^\(PASS\|FAIL\|SKIP\): /,$p'
seen=$((npass + nfail + nskip))
e2e_guest_checks e2e "$results" "$rc" "$console"
if [ "$seen" -lt "$E2E_MIN_CHECKS" ]; then
	e2e_fail e2e "only $seen checks ran (at least $E2E_MIN_CHECKS expected)"
fi
e2e_log_scan e2e "$console"
e2e_say "build $((t1 - t0))s, guest $((t2 - t1))s"
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
