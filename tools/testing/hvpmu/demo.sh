#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build an x86_64 kernel with the simulated platform (every hvpmu
# PMU on its model), pack Debian's perf tool and busybox into an initramfs,
# boot it under QEMU and show a short tour with the real perf tool.
#
#   demo.sh [EXTRA_DIR]
#
# EXTRA_DIR: your own scripts (*.sh, run with sh) or executables, copied to
# /extra in the guest and run after the tour, in name order. The guest has
# busybox, perf and the hvpmu modules; /sys/kernel/debug/hvpmu_sim/ injects
# traffic (see tools/testing/hvpmu/SIMULATOR.md).
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 300).
set -uo pipefail

# shellcheck source=e2e/lib.sh
. "$(dirname "$0")/e2e/lib.sh"

extra=${1:-${EXTRA:-}}
if [ -n "$extra" ] && [ ! -d "$extra" ]; then
	echo "demo: FAILED: $extra is not a directory" >&2
	exit 2
fi
hvpmu_lock_build
t0=$(date +%s)
"$REPO/tools/testing/hvpmu/setup.sh" "$HVPMU_SERIES" >&2 || { echo "demo: FAILED: set-up"; exit 1; }
e2e_kernel "$BUILD/e2e-x86_64.log" || {
	echo "demo: FAILED: $E2E_FAILED"
	exit 1
}
e2e_initramfs demo "$extra" || { echo "demo: FAILED: initramfs"; exit 1; }
e2e_say "booting the guest (QEMU TCG, 2 CPUs) after $(( $(date +%s) - t0 ))s"
console="$BUILD/demo-x86_64.console"
results="$BUILD/demo-x86_64.results"
rm -f "$results"
e2e_boot "${TIMEOUT:-300}" "$results" > "$console" 2>&1
qrc=$?
touch "$results"
# The guest's own output (the kernel log is in $console).
tr -d '\r' < "$results" | grep -v '^HVPMU-GUEST-'
e2e_say "done in $(( $(date +%s) - t0 ))s (kernel log: $console)"

# The last line names the first thing that went wrong, if anything did.
guest_rc=$(tr -d '\r' < "$results" | sed -n 's/^HVPMU-GUEST-EXIT //p' | tail -n 1)
first=$(tr -d '\r' < "$results" | sed -n 's/^demo: FAILED: //p' | head -n 1)
if [ -z "$guest_rc" ]; then
	echo "demo: FAILED: the guest did not finish (qemu exit $qrc, see $console)"
elif [ "$guest_rc" != 0 ]; then
	echo "demo: FAILED: ${first:-the tour exited $guest_rc}"
elif kernel_reports "$console" > /dev/null; then
	echo "demo: FAILED: kernel report: $(kernel_first_report "$console")"
else
	exit 0
fi
exit 1
