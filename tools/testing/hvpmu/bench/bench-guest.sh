# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# make bench in the e2e guest: load the simulated platform, mount tracefs
# (for the timer:hrtimer_expire_entry counts) and print hvpmu-bench's table.

. /hvpmu/lib.sh

: > "$TALLY"
check "modprobe hvpmu_sim (from the last CPU)" sim_load
# as many as the guest has (lib.sh: OUR_MODELS, /hvpmu/models)
check "$NMODELS models up ($OUR_MODELS)" \
	sh -c "[ \$(grep -c ' up\$' $SIM/models) -eq $NMODELS ]"
check "tracefs" mount -t tracefs nodev /sys/kernel/tracing
# shellcheck disable=SC2046 # one word per argument
if /extra/hvpmu-bench $(cat /extra/bench.args) > "$TMP/bench" 2>&1; then
	pass "bench: hvpmu-bench"
else
	fail "bench: hvpmu-bench exited $?"
fi
sed 's/^/| /' "$TMP/bench"
announce_checks
[ "$(nfailed)" -eq 0 ]
