# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# mips_cm on its model (hvpmu_sim/mips_cm/, format in SIMULATOR.md): a
# CM2 debug block with two 32-bit event counters, a cycle counter and no
# interrupt (the driver polls). Exact counts of every event, the qualifier,
# 64-bit counts across many wraps, and a dead debug block.

P=mips_cm
D=$SIM/mips_cm
if [ -d "$D" ]; then
	for f in "$PMUS/$P"/events/*; do
		e=${f##*/}
		case "$e" in *.*|cycles) continue ;; esac
		expect_count "$P" "$P/$e,qualifier=0x5/" 4321 sh -c \
			"echo '$e 0x5 4321' > $D/inject"
	done
	expect_count "$P: traffic with another qualifier is not counted" \
		"$P/request_count,qualifier=0x5/" 100 sh -c \
		"echo 'request_count 0x6 999' > $D/inject; echo 'request_count 0x5 100' > $D/inject"
	expect_count "$P: 64-bit cycles across 32-bit wraps" "$P/cycles/" \
		10000000000 sh -c "echo 'cycles 10000000000' > $D/inject"
	expect_count "$P: 64-bit event count across 32-bit wraps" \
		"$P/sharing_miss,qualifier=0/" 9000000000 sh -c \
		"echo 'sharing_miss 0 9000000000' > $D/inject"

	dmesg -c > /dev/null
	echo "dead on" > "$D/fault"
	perf stat -a -e "$P/cycles/" -- sh -c "echo 'cycles 1000' > $D/inject; sleep 0.1" > /dev/null 2>&1
	echo "dead off" > "$D/fault"
	check "$P: a dead debug block is logged" sh -c "dmesg | grep -q 'mips_cm: debug block not answering'"
	expect_count "$P: counts again after the debug block came back" "$P/cycles/" \
		777 sh -c "echo 'cycles 777' > $D/inject"
fi
# shellcheck disable=SC2034 # read by e2e.sh (HP_<pmu>)
HP_mips_cm="mips_cm/cycles/|cycles 5000|$D/inject|5000"
