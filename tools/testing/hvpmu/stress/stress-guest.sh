# SPDX-License-Identifier: GPL-2.0
#
# The stress run in the e2e guest (make stress, check.sh's stress step):
# load the simulated platform, run /extra/hvpmu-stress with the arguments
# in /extra/stress.args, then unload everything of ours and ask kmemleak.
# The host scans the whole kernel log for reports.

. /hvpmu/lib.sh

: > "$TALLY"
KMEMLEAK=/sys/kernel/debug/kmemleak

# As e2e.sh: objects left from boot are reported by a first scan once older
# than kmemleak's minimum age (5 s) and then cleared.
while [ "$(cut -d. -f1 /proc/uptime)" -lt 6 ]; do sleep 1; done
check "kmemleak present and enabled" \
	sh -c "echo scan > $KMEMLEAK && echo clear > $KMEMLEAK"
# Objects allocated before the stress are not its own: boot-time objects
# whose last stale reference its memory churn overwrote are reported late.
# kmemleak gives the jiffies of an allocation; jiffies start at
# INITIAL_JIFFIES (2^32 - 300 HZ) at boot, and the host tells us HZ.
hz=$(cat /extra/stress.hz)
since=$(awk -v hz="$hz" '{ printf "%.0f\n", 4294967296 - 300 * hz + ($1 - 2) * hz }' /proc/uptime)
check "modprobe hvpmu_sim (from the last CPU)" sim_load
check "4 models up" sh -c "[ \$(grep -c ' up\$' $SIM/models) -eq 4 ]"
for p in $OUR_PMUS; do
	check "$p registered" test -d "$PMUS/$p"
done

# A stress that does not end is a hang: show what the kernel waits on
# (no sysrq in this kernel: the stacks of the tasks in D state, and of any
# other task inside perf or CPU hotplug, which may hold what they wait
# for) and stop.
watchdog() {
	sleep "$1"
	echo "FAIL: stress: hvpmu-stress still running after $1 s; tasks in D state or in perf:"
	for s in /proc/[0-9]*/status; do
		d=${s%/status}
		grep -q '^State:.*D' "$s" 2>/dev/null ||
			grep -q -e perf -e cpuhp "$d/stack" 2>/dev/null || continue
		echo "    $(cat "$d/comm") ${d#/proc/}, $(sed -n 's/^State:\t*//p' "$s"):"
		sed 's/^/        /' "$d/stack" 2>/dev/null | head -n 16
	done
	echo "HVPMU-GUEST-EXIT 1"
	reboot -f
}
watchdog "$(cat /extra/stress.watchdog)" &
dog=$!
# shellcheck disable=SC2046 # one word per argument
{ /extra/hvpmu-stress $(cat /extra/stress.args); echo $? > "$TMP/rc"; } 2>&1 |
	tee "$TMP/stress"
kill "$dog"
rc=$(cat "$TMP/rc")
# Its PASS/FAIL lines count as ours.
grep -E '^(PASS|FAIL): ' "$TMP/stress" | cut -c1 >> "$TALLY"
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$TMP/stress"; then
	fail "stress: hvpmu-stress exited $rc"
fi
dmesg | grep -E 'hvpmu|mips_cm|hv_gpci|niagara|vfalls' | sort | uniq -c |
	sort -rn | head -n 12 | sed 's/^/    log: /'

# Everything of ours unloaded, then two scans past kmemleak's minimum age.
[ -d "$SIM" ] && check "rmmod hvpmu_sim after the stress" rmmod hvpmu_sim
for m in hvpmu_models hvpmu_gpci hvpmu_mips_cm hvpmu_mmustat hvpmu_sun4v_dram hvpmu_core; do
	grep -q "^$m " /proc/modules && check "rmmod $m after the stress" rmmod "$m"
done
sleep 6
if echo scan > $KMEMLEAK && sleep 1 && echo scan > $KMEMLEAK &&
   cat $KMEMLEAK > "$TMP/all-leaks"; then
	# One block per object: "unreferenced object ...", then
	# "comm ..., pid N, jiffies J" (J: when it was allocated).
	# Older ones are summed up on one line each: size, task, the first
	# caller that is not an allocator.
	awk -v since="${since:-0}" -v old="$TMP/old-leaks" '
		/^unreferenced object/ { head = $0; keep = 0; next }
		head != "" && /jiffies/ {
			j = $0
			sub(/.*jiffies /, "", j)
			sub(/[^0-9].*/, "", j)
			j += 0
			keep = j >= since + 0
			if (keep) print head
			else { sub(/.*\(/, "(", head); what = head " " $2 " " $3; seen = 0 }
			head = ""
		}
		!keep && what != "" && /\] / && !/kmem|kmalloc|alloc/ && !seen {
			f = $0; sub(/.*\] /, "", f); print what " " f > old; seen = 1
		}
		keep { print }' "$TMP/all-leaks" > "$TMP/leaks"
	# (no file when awk had nothing to write: 0, not an empty count)
	nold=$(cat "$TMP/old-leaks" 2>/dev/null | grep -c .)
	sed 's/^/    allocated before the stress: /' "$TMP/old-leaks" 2>/dev/null
	if [ -s "$TMP/leaks" ]; then
		fail "stress: kmemleak: $(grep -c '^unreferenced' "$TMP/leaks") leaks of objects allocated during the stress"
		detail "$TMP/leaks"
	else
		pass "stress: kmemleak: no leak of an object allocated during the stress ($nold older ones not counted)"
	fi
else
	fail "stress: kmemleak: scan failed (kmemleak disabled itself?)"
	dmesg | grep -i kmemleak | tail -n 5 | sed 's/^/    /'
fi

announce_checks
[ "$(nfailed)" -eq 0 ]
