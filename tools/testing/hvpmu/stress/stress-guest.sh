# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The stress run in the e2e guest (make stress, check.sh's stress step),
# and in the mips guest with mips_cm alone (e2e/mips/run.sh --stress: the
# PMUs and models in /hvpmu/pmus and /hvpmu/models, lib.sh): load the
# simulated platform, run /extra/hvpmu-stress with the arguments in
# /extra/stress.args, then unload everything of ours and ask kmemleak.
# The host scans the whole kernel log for reports (stress/lib.sh).

. /hvpmu/lib.sh

: > "$TALLY"
# Objects allocated before the stress are not its own (lib.sh).
kmemleak_begin
check "modprobe hvpmu_sim (from the last CPU)" sim_load
# as many as the guest has (lib.sh: OUR_MODELS, /hvpmu/models)
check "$NMODELS models up ($OUR_MODELS)" \
	sh -c "[ \$(grep -c ' up\$' $SIM/models) -eq $NMODELS ]"
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
# Its PASS/FAIL/SKIP lines count as ours.
grep -E '^(PASS|FAIL|SKIP): ' "$TMP/stress" | cut -c1 >> "$TALLY"
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$TMP/stress"; then
	fail "stress: hvpmu-stress exited $rc"
fi
dmesg | grep -E 'hvpmu|mips_cm|niagara|vfalls' | sort | uniq -c |
	sort -rn | head -n 12 | sed 's/^/    log: /'

unload_ours "after the stress"
kmemleak_verdict "stress: " "the stress"

announce_checks
[ "$(nfailed)" -eq 0 ]
