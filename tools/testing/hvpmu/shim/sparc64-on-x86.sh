#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Test-only: make the sun4v PMU drivers of the series (sparc64 code) build
# into the x86_64 test kernel, in SRC, a copy of the series tree (hard
# links; only the files changed here are replaced). QEMU's sparc64
# machines have one CPU: the KUnit cases that need two CPUs or CPU hotplug,
# and the end-to-end hotplug checks, run in the x86_64 kernel, with the
# drivers reached through their test hooks only (hvpmu_sparc64_shim.h).
#
# It replaces, in the drivers, their suites and models, the asm/ includes
# of sparc64 by hvpmu_sparc64_shim.h and cpu_data(cpu).sock_id by its
# stand-in, applies sun4v-load-without-pmu.patch (the modules stay loaded
# for the tests' probes) and lifts "depends on SPARC64" of their Kconfig
# entries. Each edit must match: a driver changed so that it no longer
# does fails here, loudly, rather than building something else.
#
#   sparc64-on-x86.sh SRC
set -euo pipefail

SHIM_DIR=$(cd "$(dirname "$0")" && pwd)
SRC=$1

die() { echo "sparc64-on-x86.sh: $*" >&2; exit 1; }

# edit FILE SED-EXPR GREP-PATTERN: the pattern must occur, and not after.
edit() {
	local f=$SRC/$1
	grep -Eq -- "$3" "$f" || die "$1: nothing matches '$3'"
	sed -E -i -- "$2" "$f"
	! grep -Eq -- "$3" "$f" || die "$1: '$3' still there"
}

install -m 644 "$SHIM_DIR/hvpmu_sparc64_shim.h" \
	"$SRC/include/linux/hvpmu_sparc64_shim.h"
asm='#include <asm/(cpudata|hypervisor|pcr|spitfire|timer_64)\.h>'
for f in drivers/perf/sun4v_dram_pmu.c drivers/perf/sun4v_mmustat_pmu.c \
	 drivers/perf/tests/sun4v_dram_model.h \
	 drivers/perf/tests/sun4v_dram_pmu_kunit.c \
	 drivers/perf/tests/sun4v_mmustat_model.h; do
	edit "$f" "s@^$asm\$@#include <linux/hvpmu_sparc64_shim.h>@" "^$asm\$"
done
edit drivers/perf/sun4v_dram_pmu.c \
	's/cpu_data\(cpu\)\.sock_id/hvpmu_shim_sock_id(cpu)/' \
	'cpu_data\(cpu\)\.sock_id'
# The modules stay loaded without a PMU of their own (no sun4v here).
patch -s -p1 -d "$SRC" < "$SHIM_DIR/sun4v-load-without-pmu.patch" ||
	die "sun4v-load-without-pmu.patch does not apply"
edit drivers/perf/Kconfig \
	's/^\tdepends on SPARC64 && PERF_EVENTS$/\tdepends on PERF_EVENTS/' \
	'^	depends on SPARC64 && PERF_EVENTS$'
