# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# niagara2_dram (T2, channels 0-3) and vfalls_dram (two-way T2+, nodes 0-1,
# MCUs 0-1) on their models (hvpmu_sim/sun4v/, format in
# SIMULATOR.md): exact counts of every event on every channel,
# 31-bit counters extended past many wraps, a failing read that loses
# nothing, and an absent node refused.

D=$SIM/sun4v
if [ -d "$D" ]; then
	for P in niagara2_dram vfalls_dram; do
		[ -d "$PMUS/$P" ] || { fail "$P not registered by the sun4v model"; continue; }
		# Per event, every channel at once with its own count.
		for f in "$PMUS/$P"/events/*; do
			e=${f##*/}
			case "$e" in *.*) continue ;; esac
			: > "$TMP/list"
			: > "$TMP/inject"
			n=1000
			if [ "$P" = niagara2_dram ]; then
				for ch in 0 1 2 3; do
					n=$((n + 1111))
					echo "$n $P/$e,channel=$ch/" >> "$TMP/list"
					echo "$P channel $ch $e $n" >> "$TMP/inject"
				done
			else
				for node in 0 1; do
					for mcu in 0 1; do
						n=$((n + 1111))
						echo "$n $P/$e,node=$node,mcu=$mcu/" >> "$TMP/list"
						echo "$P node $node mcu $mcu $e $n" >> "$TMP/inject"
					done
				done
			fi
			expect_counts "$P" "$TMP/list" sh -c \
				"while read -r l; do echo \"\$l\" > $D/inject; done < $TMP/inject"
		done
	done

	# 2^31-wide counters: three injections of 2e9, each after a poll.
	expect_count "vfalls_dram: 64-bit count across 31-bit wraps" \
		"vfalls_dram/mem_reads,node=1,mcu=1/" 6000000000 sh -c \
		"for i in 1 2 3; do echo 'vfalls_dram node 1 mcu 1 mem_reads 2000000000' > $D/inject; sleep 0.3; done"

	# A read that fails: the count holds, the next good read adds it all.
	dmesg -c > /dev/null
	expect_count "vfalls_dram: one read failing with ENOACCESS loses nothing" \
		"vfalls_dram/mem_writes,node=0,mcu=1/" 1500 sh -c \
		"echo 'vfalls_dram node 0 mcu 1 mem_writes 1000' > $D/inject; echo 'vfalls_dram get any ENOACCESS 1' > $D/error; sleep 0.3; echo 'vfalls_dram node 0 mcu 1 mem_writes 500' > $D/inject"
	echo "vfalls_dram off" > "$D/error"
	check "vfalls_dram: the ENOACCESS is logged" sh -c "dmesg | grep -q ENOACCESS"

	# Node 2 is absent on a two-way T2+.
	check_fails "vfalls_dram: an absent node is refused" \
		"No such device|not supported|Invalid argument" \
		perf stat -a -e vfalls_dram/mem_reads,node=2,mcu=0/ -- true
	check "sun4v: calls file readable" cat "$D/calls"
fi
# shellcheck disable=SC2034 # read by e2e.sh (HP_<pmu>)
HP_vfalls_dram="vfalls_dram/mem_reads,node=0,mcu=0/|vfalls_dram node 0 mcu 0 mem_reads 5000|$D/inject|5000"
# shellcheck disable=SC2034
HP_niagara2_dram="niagara2_dram/mem_reads,channel=1/|niagara2_dram channel 1 mem_reads 6000|$D/inject|6000"
