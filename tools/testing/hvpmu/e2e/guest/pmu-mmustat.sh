# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# niagara_mmustat on its model (hvpmu_sim/mmustat/, format in
# SIMULATOR.md): per-CPU and per-task exact counts, the time view of
# the ticks words, a CONF error at open, and the model's sanity counters.
# Sourced by e2e.sh before any niagara_mmustat event was opened.

P=niagara_mmustat
D=$SIM/mmustat
if [ -d "$PMUS/$P" ] && [ -d "$D" ]; then
	# No buffer is configured yet: the first open makes the CONF call.
	echo "conf 8" > "$D/error"
	check_fails "$P: CONF answering EBADALIGN refuses the open with EIO" \
		"Input/output error" perf stat -a -e "$P/dtsb_hits_ctx0_8k/" -- true
	check "$P: the EBADALIGN is logged" \
		sh -c "dmesg | grep -q '$P: .*EBADALIGN'"

	# All 32 statistics at once, each with its own count on each CPU
	# (CPU 0 and CPU 1; a guest of one CPU, sparc64's sun4u, injects
	# both amounts on CPU 0).
	: > "$TMP/list"
	: > "$TMP/inject"
	n=100
	for f in "$PMUS/$P"/events/*; do
		e=${f##*/}
		case "$e" in *.*|*_time_*) continue ;; esac
		n=$((n + 10))
		echo "$((n + 1000)) $P/$e/" >> "$TMP/list"
		echo "cpu 0 $e += $n" >> "$TMP/inject"
		echo "cpu $OTHER_CPU $e += 1000" >> "$TMP/inject"
	done
	expect_counts "$P per-CPU" "$TMP/list" sh -c \
		"while read -r l; do echo \"\$l\" > $D/inject; done < $TMP/inject"

	# Per task: only the traffic of the CPU the task runs on, while it runs.
	# shellcheck disable=SC2034 # read by stat_count (lib.sh)
	STAT_SCOPE=""
	if [ "$OTHER_CPU" = 1 ]; then
		expect_count "$P per-task" "$P/dtsb_hits_ctxnon0_8k/" 777 taskset -c 1 sh -c \
			"echo 'cpu 1 dtsb_hits_ctxnon0_8k += 777' > $D/inject && echo 'cpu 0 dtsb_hits_ctxnon0_8k += 1000' > $D/inject"
	else
		# One CPU: the traffic a task outside perf's workload (started
		# before it) injects on the same CPU while the workload sleeps
		# is not the workload's.
		# (each waits 10 s at most: the workload may not run at all)
		rm -f "$TMP/go" "$TMP/done"
		sh -c "i=0; while [ ! -e $TMP/go ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
			[ -e $TMP/go ] && echo 'cpu 0 dtsb_hits_ctxnon0_8k += 1000' > $D/inject
			touch $TMP/done" &
		expect_count "$P per-task (one CPU: another task's traffic while the task sleeps not counted)" \
			"$P/dtsb_hits_ctxnon0_8k/" 777 sh -c \
			"echo 'cpu 0 dtsb_hits_ctxnon0_8k += 777' > $D/inject && touch $TMP/go &&
			 i=0; while [ ! -e $TMP/done ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done"
		wait
	fi
	unset STAT_SCOPE

	# The time view: 1200 %tick cycles of the 1.2 GHz model are 1000 ns.
	got=$(stat_count "$P/itsb_time_ctx0_8k/" sh -c \
		"echo 'cpu 0 itsb_ticks_ctx0_8k += 1200' > $D/inject")
	if awk -v g="$got" 'BEGIN { exit !(g > 999.99 && g < 1000.01) }'; then
		pass "$P: itsb_time_ctx0_8k = $got ns for 1200 ticks at 1.2 GHz"
	else
		fail "$P: itsb_time_ctx0_8k = '$got', expected 1000 ns"
		detail "$TMP/stat"
	fi

	cat "$D/calls" > "$TMP/calls"
	check "$P: no hypercall made for another CPU" grep -qx 'wrong_cpu 0' "$TMP/calls"
	check "$P: no buffer freed while configured" grep -qx 'bad_frees 0' "$TMP/calls"
fi
