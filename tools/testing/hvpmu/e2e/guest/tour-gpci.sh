# SPDX-License-Identifier: GPL-2.0
# The demo's hv_gpci part (sourced by demo.sh).

D=$SIM/gpci
P=hv_gpci
E=$P/entitled_capped_uncapped_donated_idle_timebase_by_partition
if [ -d "$PMUS/$P" ] && [ -d "$D" ]; then
	banner "hv_gpci: PAPR H_GetPerformanceCounterInfo (POWER LPAR)"
	ev=""
	for c in entitled_cycles consumed_capped_cycles consumed_uncapped_cycles cycles_donated purr_idle_cycles; do
		ev="$ev${ev:+,}${E}_$c,sibling_part_id=3/"
	done
	inj="for c in entitled_cycles capped_cycles uncapped_cycles donated_cycles idle_cycles; do echo \"partition 3 \$c += 1000000\" > $D/inject; done"
	echo "Five counters of partition 3 read as one group:"
	run_expect '1000000 +hv_gpci/' perf stat -a -e "{$ev}" -- sh -c "$inj"
	echo
	echo "hcalls for one second of perf stat -I 100 (ten reads) of these five events:"
	for mode in group separate; do
		[ $mode = group ] && e="{$ev}" || e="$ev"
		before=$(awk '$1 == "hcalls" { print $2 }' "$D/calls")
		perf stat -I 100 -a -o /dev/null -e "$e" -- sleep 1
		after=$(awk '$1 == "hcalls" { print $2 }' "$D/calls")
		printf '  %-9s %4d hcalls\n' "$mode" $((after - before))
	done
	echo
	echo "Error case: the HMC has not allowed this LPAR to see other partitions:"
	echo "collection off" > "$D/error"
	run_refused 'No permission|not supported' perf stat -a -e "${E}_entitled_cycles,sibling_part_id=1/" -- true
	run sh -c "dmesg | grep hv_gpci | tail -n 1"
	echo "collection on" > "$D/error"
fi
