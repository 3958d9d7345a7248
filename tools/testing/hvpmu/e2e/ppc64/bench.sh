# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# make bench in the ppc64 guest: hvpmu-bench's table for Linux's hv_gpci
# (the only PMU of its table this guest has), on the hcall model.

. /hvpmu/lib.sh

: > "$TALLY"
check "$SIM/gpci/calls: the model answers" test -r "$SIM/gpci/calls"
# shellcheck disable=SC2046 # one word per argument
if /hvpmu/hvpmu-bench $(cat /hvpmu/bench.args) > "$TMP/bench" 2>&1; then
	pass "bench: hvpmu-bench"
else
	fail "bench: hvpmu-bench exited $?"
fi
sed 's/^/| /' "$TMP/bench"
announce_checks
[ "$(nfailed)" -eq 0 ]
