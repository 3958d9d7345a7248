# SPDX-License-Identifier: GPL-2.0
#
# hv_gpci on the hcall model (hvpmu_sim/gpci/, format in SIMULATOR.md):
# counter_info_version 8 firmware on a POWER10, our partition is 3, CPU 0
# runs on processor 1 and CPU 1 on processor 5. Linux's 23 named events
# each counting exactly, -C with -A, software group leaders, the hcalls of
# perf stat -I for a group and for separate events, errors, and the
# interface/ files of Linux 6.12.

P=hv_gpci
D=$SIM/gpci
E20=entitled_capped_uncapped_donated_idle_timebase_by_partition
# The entities of the model for the "?" terms of every named event
QDEF_partition_id=3

# hcalls the model answered so far
gpci_hcalls() {
	awk '$1 == "hcalls" { print $2 }' "$D/calls"
}

# The model's injection line for named event $1 (the model names the
# counters of 0xE0, 0xF0, 0xF4 and 0x100 as Linux does).
gpci_inject_line() {
	case "$1" in
	dispatch_timebase_by_processor_processor_time_in_timebase_cycles)
		echo "processor 1 processor_time" ;;
	${E20}_entitled_cycles) echo "partition 3 entitled_cycles" ;;
	${E20}_consumed_capped_cycles) echo "partition 3 capped_cycles" ;;
	${E20}_consumed_uncapped_cycles) echo "partition 3 uncapped_cycles" ;;
	${E20}_cycles_donated) echo "partition 3 donated_cycles" ;;
	${E20}_purr_idle_cycles) echo "partition 3 idle_cycles" ;;
	partition_hypervisor_queuing_times_*)
		echo "partition 3 ${1#partition_hypervisor_queuing_times_}" ;;
	partition_instruction_count_and_time_*)
		echo "partition 3 ${1#partition_instruction_count_and_time_}" ;;
	system_hypervisor_times_*)
		echo "system 0 ${1#system_hypervisor_times_}" ;;
	system_tlbie_count_and_time_*)
		echo "system 0 ${1#system_tlbie_count_and_time_}" ;;
	esac
}

if [ -d "$D" ]; then
	# Linux's list for counter_info_version 8 (hv-gpci-requests.h without
	# the version-6-only requests): 23 events, each counting exactly.
	n=0
	for f in "$PMUS/$P"/events/*; do
		e=${f##*/}
		case "$e" in *.*) continue ;; esac
		n=$((n + 1))
		line=$(gpci_inject_line "$e")
		if [ -z "$line" ]; then
			fail "$P/$e: not an event of Linux's version 8 list"
			continue
		fi
		expect_count "$P" "$(event_string $P "$e")" 123456 sh -c \
			"echo '$line += 123456' > $D/inject"
	done
	check "$P: Linux's 23 named events of counter_info_version 8 ($n)" \
		test "$n" = 23

	# -C with -A: each CPU's processor for starting_index -1
	R="$P/request=0x10,starting_index=0xffffffff,offset=0,length=8/"
	if [ -d /sys/devices/system/cpu/cpu1 ]; then
		perf stat -x, -A -C 0,1 -o "$TMP/stat" -e "$R" -- sh -c \
			"echo 'processor 1 processor_time += 1111' > $D/inject; echo 'processor 5 processor_time += 5555' > $D/inject" \
			> "$TMP/cmd" 2>&1
		for want in "CPU0,1111" "CPU1,5555"; do
			if grep -q "^$want,,$R," "$TMP/stat"; then
				pass "$P: -C 0,1 -A: $want (the processor of that CPU)"
			else
				fail "$P: -C 0,1 -A: expected $want"
				detail "$TMP/stat" "$TMP/cmd"
			fi
		done
		# a software leader on CPU 1, our events in its group
		G="{cpu-clock,$P/${E20}_entitled_cycles,sibling_part_id=3/,$P/${E20}_cycles_donated,sibling_part_id=3/}"
		perf stat -x, -C 1 -o "$TMP/stat" -e "$G" -- sh -c \
			"echo 'partition 3 entitled_cycles += 700' > $D/inject; echo 'partition 3 donated_cycles += 70' > $D/inject" \
			> "$TMP/cmd" 2>&1
		for want in "700,,$P/${E20}_entitled_cycles,sibling_part_id=3/" \
			    "70,,$P/${E20}_cycles_donated,sibling_part_id=3/"; do
			if grep -q "^$want," "$TMP/stat"; then
				pass "$P: group with a cpu-clock leader on CPU 1: ${want%%,*}"
			else
				fail "$P: group with a cpu-clock leader on CPU 1: expected $want"
				detail "$TMP/stat" "$TMP/cmd"
			fi
		done
	else
		skip "$P: -C 0,1 -A and a group on CPU 1: the guest has one CPU"
	fi

	dmesg -c > /dev/null
	expect_count_I "$P: one hcall failing with H_HARDWARE loses nothing" \
		"$P/${E20}_entitled_cycles,sibling_part_id=3/" 3000 sh -c \
		"sleep 0.2; echo 'partition 3 entitled_cycles += 1000' > $D/inject; sleep 0.2; echo 'H_HARDWARE 1' > $D/error; sleep 0.3; echo 'partition 3 entitled_cycles += 2000' > $D/inject; sleep 0.3"
	echo clear > "$D/error"
	check "$P: the failed read is counted in interface/read_errors" \
		sh -c "test \"\$(cat $PMUS/$P/interface/read_errors)\" -ge 1"

	echo "collection off" > "$D/error"
	check_fails "$P: another partition without collection permission is refused" \
		"No permission|Permission denied|not permitted" \
		perf stat -a -e "$P/${E20}_entitled_cycles,sibling_part_id=1/" -- true
	check "$P: collect_privileged is read freshly (0 after the HMC change)" \
		grep -qx 0 "$PMUS/$P/interface/collect_privileged"
	echo "collection on" > "$D/error"
	check "$P: H_AUTHORITY is explained in the log" sh -c "dmesg | grep -q 'hv_gpci: .*H_AUTHORITY'"
	check "$P: collect_privileged is 1 again" \
		grep -qx 1 "$PMUS/$P/interface/collect_privileged"
	# perf stat goes on past an index the system has not (IBM's tests
	# use hw_chip_id=12), as with Linux's driver
	check "$P: an absent index is <not supported>, perf stat goes on" sh -c \
		"perf stat -x, -a -e '$P/request=0x20,sibling_part_id=12,offset=0x8,length=8/' -e task-clock -- true 2>&1 | grep -q 'not supported'"

	# interface/ of Linux 6.12 (the system information files: POWER10)
	for f in kernel_version version ga expanded lab collect_privileged \
		 processor_bus_topology processor_config \
		 affinity_domain_via_virtual_processor \
		 affinity_domain_via_domain affinity_domain_via_partition; do
		check "$P: interface/$f reads" cat "$PMUS/$P/interface/$f"
	done
	check "$P: processor_bus_topology: one line per chip (0, 1, 8)" sh -c \
		"test \"\$(cat $PMUS/$P/interface/processor_bus_topology)\" = \"\$(printf '%s\n' 00000000000000030000000000000000 00000001000000030000000000000000 00000008000000030000000000000000)\""

	# hcalls of one second of perf stat -I 100 for five events of one
	# request: in a group, one per read, start and stop of the group
	G="{$P/${E20}_entitled_cycles,sibling_part_id=3/,$P/${E20}_consumed_capped_cycles,sibling_part_id=3/,$P/${E20}_consumed_uncapped_cycles,sibling_part_id=3/,$P/${E20}_cycles_donated,sibling_part_id=3/,$P/${E20}_purr_idle_cycles,sibling_part_id=3/}"
	S=$(echo "$G" | tr -d '{}')
	for mode in group separate; do
		[ $mode = group ] && e=$G || e=$S
		before=$(gpci_hcalls)
		perf stat -I 100 -x, -a -o "$TMP/stat.$mode" -e "$e" -- sleep 1 \
			> "$TMP/cmd" 2>&1
		after=$(gpci_hcalls)
		reads=$(grep -c "${E20}_entitled_cycles" "$TMP/stat.$mode")
		eval "calls_$mode=$((after - before)) reads_$mode=$reads"
		echo "    $P: perf stat -I 100, 1 s, five events ($mode): $((after - before)) hcalls, $reads reads"
	done
	# 5 event_init probes, 1 start, a read per interval, the final read
	# and the stop; five separate events cost five times the reads
	check "$P: group: $calls_group hcalls <= 5 + $reads_group reads + 3" \
		test "$calls_group" -le $((5 + reads_group + 3))
	check "$P: separate: $calls_separate hcalls >= 5 x $reads_separate reads" \
		test "$calls_separate" -ge $((5 * reads_separate))
fi
HP_hv_gpci="$P/${E20}_entitled_cycles,sibling_part_id=3/|partition 3 entitled_cycles += 7000|$D/inject|7000"
