# SPDX-License-Identifier: GPL-2.0
# The demo's hv_gpci part (sourced by demo.sh).

D=$SIM/gpci
P=hv_gpci
E=$P/entitled_capped_uncapped_donated_idle_timebase_by_partition
if [ -d "$PMUS/$P" ] && [ -d "$D" ]; then
	banner "hv_gpci: PAPR H_GetPerformanceCounterInfo (POWER LPAR)"
	echo "A group of five counters of partition 3: one hcall per group read."
	before=$(awk '$1 == "hcalls" { print $2 }' "$D/calls")
	run perf stat -a -e "{${E}_entitled_cycles,sibling_part_id=3/,${E}_consumed_capped_cycles,sibling_part_id=3/,${E}_consumed_uncapped_cycles,sibling_part_id=3/,${E}_cycles_donated,sibling_part_id=3/,${E}_purr_idle_cycles,sibling_part_id=3/}" -- sh -c \
		"for c in entitled_cycles capped_cycles uncapped_cycles donated_cycles idle_cycles; do echo \"partition 3 \$c += 1000000\" > $D/inject; done"
	after=$(awk '$1 == "hcalls" { print $2 }' "$D/calls")
	echo "hcalls made for that perf stat (open, enable, read, close): $((after - before))"
	echo
	echo "Error case: the HMC has not allowed this LPAR to see other partitions:"
	echo "collection off" > "$D/error"
	run perf stat -a -e "${E}_entitled_cycles,sibling_part_id=1/" -- true
	run sh -c "dmesg | grep hv_gpci | tail -n 1"
	echo "collection on" > "$D/error"
fi
