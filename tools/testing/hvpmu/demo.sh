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
# traffic (see Documentation/admin-guide/perf/hvpmu-sim.rst).
#
# Environment: KDIR, BUILD, JOBS as check.sh; TIMEOUT (guest seconds, 300).
set -uo pipefail

. "$(dirname "$0")/e2e/lib.sh"

extra=${1:-${EXTRA:-}}
if [ -n "$extra" ] && [ ! -d "$extra" ]; then
	echo "demo: $extra is not a directory" >&2
	exit 2
fi
t0=$(date +%s)
"$REPO/tools/testing/hvpmu/setup.sh" >&2 || exit 1
e2e_kernel "$BUILD/e2e-x86_64.log" || {
	echo "demo: kernel build failed, see $BUILD/e2e-x86_64.log" >&2
	exit 1
}
e2e_initramfs demo "$extra" || exit 1
e2e_say "booting the guest (QEMU TCG, 2 CPUs) after $(( $(date +%s) - t0 ))s"
# Only the guest's own output, not the boot log.
e2e_boot "${TIMEOUT:-300}" | tr -d '\r' |
	sed -n '/^==== hvpmu demo/,/^==== end of the demo/p'
rc=${PIPESTATUS[0]}
e2e_say "done in $(( $(date +%s) - t0 ))s"
[ "$rc" -eq 0 ]
