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
# of sparc64 by hvpmu_sparc64_shim.h and lifts "depends on
# SPARC64" of their Kconfig entries. The T2+ L2 miss source of the CPU PMU
# (arch/sparc/kernel/perf_event_l2ctl.c) and its suite are copied to
# drivers/perf/hvpmu_sparc64/, edited the same way (and
# cpu_data(cpu).sock_id replaced by a stand-in), where
# SPARC_L2CTL_KUNIT_TEST builds both as modules (perf_allow_cpu(), which
# a module cannot call, replaced by a stand-in). Each edit must match: a
# file changed so that it no longer does fails here, loudly, rather than
# building something else.
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
edit drivers/perf/Kconfig \
	's/^\tdepends on SPARC64 && PERF_EVENTS$/\tdepends on PERF_EVENTS/' \
	'^	depends on SPARC64 && PERF_EVENTS$'

# The CPU PMU's l2ctl code and its suite, as modules of their own.
L2=drivers/perf/hvpmu_sparc64
mkdir -p "$SRC/$L2"
for f in perf_event_l2ctl.c perf_event_l2ctl.h perf_event_l2ctl_kunit.c; do
	[ -f "$SRC/arch/sparc/kernel/$f" ] ||
		die "arch/sparc/kernel/$f: not in the tree"
	rm -f "$SRC/$L2/$f"
	cp "$SRC/arch/sparc/kernel/$f" "$SRC/$L2/$f"
done
for f in $L2/perf_event_l2ctl.c $L2/perf_event_l2ctl_kunit.c; do
	edit "$f" "s@^$asm\$@#include <linux/hvpmu_sparc64_shim.h>@" "^$asm\$"
done
edit $L2/perf_event_l2ctl.c \
	's/cpu_data\(cpu\)\.sock_id/hvpmu_shim_sock_id(cpu)/' \
	'cpu_data\(cpu\)\.sock_id'
edit $L2/perf_event_l2ctl.c \
	's/(^|[^_[:alnum:]])perf_allow_cpu\((attr)?\)/\1hvpmu_shim_perf_allow_cpu()/' \
	'(^|[^_[:alnum:]])perf_allow_cpu\((attr)?\)'
printf '\n#include <linux/module.h>\nMODULE_DESCRIPTION("test shim: T2+ l2ctl");\nMODULE_LICENSE("GPL");\n' \
	>> "$SRC/$L2/perf_event_l2ctl.c"
printf 'obj-$(CONFIG_SPARC_L2CTL_KUNIT_TEST) += perf_event_l2ctl.o perf_event_l2ctl_kunit.o\n' \
	> "$SRC/$L2/Makefile"
cat > "$SRC/$L2/Kconfig" <<'EOF2'
config SPARC_L2CTL_KUNIT_TEST
	tristate "test shim: the sparc64 CPU PMU's T2+ l2ctl and its suite"
	depends on KUNIT && PERF_EVENTS
EOF2
# sed -i, not >>: the tree's files are hard links to the series tree.
sed -i '$a obj-y += hvpmu_sparc64/' "$SRC/drivers/perf/Makefile"
sed -E -i 's@^endmenu$@source "drivers/perf/hvpmu_sparc64/Kconfig"\nendmenu@' \
	"$SRC/drivers/perf/Kconfig"
grep -q '^source "drivers/perf/hvpmu_sparc64/Kconfig"$' "$SRC/drivers/perf/Kconfig" ||
	die "drivers/perf/Kconfig: no endmenu to source the shim's Kconfig before"
