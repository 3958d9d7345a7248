# SPDX-License-Identifier: GPL-2.0
#
# hv_gpci on the hcall model (hvpmu_sim/gpci/, format in hvpmu-gpci.rst):
# counter_info_version 8 firmware, our partition is 3. Exact counts of
# every named event, a failing hcall that loses nothing, a partition we may
# not see refused with a clear errno, and one hcall per group read.

P=hv_gpci
D=$SIM/gpci
E20=entitled_capped_uncapped_donated_idle_timebase_by_partition
if [ -d "$D" ]; then
	for f in "$PMUS/$P"/events/*; do
		e=${f##*/}
		case "$e" in
		*.*) continue ;;
		dispatch_timebase_by_processor_processor_time_in_timebase_cycles)
			line="processor 1 processor_time += 123456" ;;
		${E20}_entitled_cycles) line="partition 3 entitled_cycles += 123456" ;;
		${E20}_consumed_capped_cycles) line="partition 3 capped_cycles += 123456" ;;
		${E20}_consumed_uncapped_cycles) line="partition 3 uncapped_cycles += 123456" ;;
		${E20}_cycles_donated) line="partition 3 donated_cycles += 123456" ;;
		${E20}_purr_idle_cycles) line="partition 3 idle_cycles += 123456" ;;
		*) skip "$P/$e: no injection known to this test"; continue ;;
		esac
		expect_count "$P" "$(event_string $P "$e")" 123456 sh -c \
			"echo '$line' > $D/inject"
	done

	dmesg -c > /dev/null
	expect_count_I "$P: one hcall failing with H_HARDWARE loses nothing" \
		"$P/${E20}_entitled_cycles,sibling_part_id=3/" 3000 sh -c \
		"sleep 0.2; echo 'partition 3 entitled_cycles += 1000' > $D/inject; sleep 0.2; echo 'H_HARDWARE 1' > $D/error; sleep 0.3; echo 'partition 3 entitled_cycles += 2000' > $D/inject; sleep 0.3"
	echo clear > "$D/error"

	echo "collection off" > "$D/error"
	check_fails "$P: another partition without collection permission is refused" \
		"No permission|Permission denied|not permitted|Operation not supported|Input/output error" \
		perf stat -a -e "$P/${E20}_entitled_cycles,sibling_part_id=1/" -- true
	echo "collection on" > "$D/error"
	check "$P: H_AUTHORITY is explained in the log" sh -c "dmesg | grep -q 'hv_gpci: .*H_AUTHORITY'"

	# Five counters of one partition in a group: one hcall per group read.
	G="{$P/${E20}_entitled_cycles,sibling_part_id=3/,$P/${E20}_consumed_capped_cycles,sibling_part_id=3/,$P/${E20}_consumed_uncapped_cycles,sibling_part_id=3/,$P/${E20}_cycles_donated,sibling_part_id=3/,$P/${E20}_purr_idle_cycles,sibling_part_id=3/}"
	check "$P: a group of five events counts" perf stat -a -e "$G" -- true
fi
HP_hv_gpci="$P/${E20}_entitled_cycles,sibling_part_id=3/|partition 3 entitled_cycles += 7000|$D/inject|7000"
