# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox sh has local
#
# The tour of make demo: the real perf tool on the simulated platform.
# Each command is shown as "# perf ..." before its output.

. /hvpmu/lib.sh

# The first thing that went wrong, for the demo's last line.
FIRST_FAILURE=/tmp/demo-first-failure
: > "$FIRST_FAILURE"
demo_fail() {
	echo "!!! FAILED: $*"
	[ -s "$FIRST_FAILURE" ] || echo "$*" > "$FIRST_FAILURE"
}

# show CMD...: print a command as one would type it.
show() {
	local a line=""
	for a in "$@"; do
		case "$a" in
		*[!A-Za-z0-9_./=,:+-]*) line="$line '$a'" ;;
		*) line="$line $a" ;;
		esac
	done
	echo
	echo "#$line"
	SHOWN=$line
}

# run CMD...: show CMD and its output; it must succeed.
run() {
	run_expect '' "$@"
}

# run_captured CMD...: show CMD, run it, show its output (kept in
# /tmp/run.out); returns CMD's exit status.
run_captured() {
	show "$@"
	"$@" > /tmp/run.out 2>&1
	RC=$?
	cat /tmp/run.out
	return $RC
}

# run_expect REGEX CMD...: CMD must succeed and print REGEX (the exact
# counts the tour injected, say).
run_expect() {
	local re=$1
	shift
	if ! run_captured "$@"; then
		demo_fail "exit status $RC:$SHOWN"
	elif [ -n "$re" ] && ! grep -Eq -- "$re" /tmp/run.out; then
		demo_fail "no '$re' in the output of:$SHOWN"
	fi
}

# run_refused REGEX CMD...: an error case: CMD must fail and say REGEX.
run_refused() {
	local re=$1
	shift
	if run_captured "$@"; then
		demo_fail "accepted, but must be refused:$SHOWN"
	elif ! grep -Eq -- "$re" /tmp/run.out; then
		demo_fail "no '$re' in the refusal of:$SHOWN"
	fi
}

banner() {
	echo
	echo "==== $* ===="
}

banner "hvpmu demo: perf $(perf version | cut -d' ' -f3) on Linux $(uname -r), simulated platform"
echo "The PMUs below run on register-level models of the hypervisor and uncore"
echo "hardware (CONFIG_HVPMU_SIM): counts are the traffic injected through"
echo "$SIM, not measurements of this machine."
sim_load || demo_fail "modprobe hvpmu_sim"
run cat "$SIM/models"
for p in $OUR_PMUS; do
	[ -d "$PMUS/$p" ] || demo_fail "PMU $p not registered by the simulated platform"
done

banner "perf list: our PMUs"
echo
echo "# perf list | grep -E '$(echo "$OUR_PMUS" | tr ' ' '|')'"
perf list 2>/dev/null | grep -E "$(echo "$OUR_PMUS" | tr ' ' '|')" > /tmp/ours
# niagara_mmustat has 48 events (hits, ticks and time of 16 buffer words).
grep -v 'niagara_mmustat/' /tmp/ours
if grep -q 'niagara_mmustat/' /tmp/ours; then
	grep 'niagara_mmustat/' /tmp/ours | grep '_8k/'
	echo "  ... and $(grep -c 'niagara_mmustat/' /tmp/ours) niagara_mmustat events in all"
fi

ntour=0
for f in /hvpmu/tour-*.sh; do
	[ -e "$f" ] || continue
	ntour=$((ntour + 1))
	# shellcheck source=/dev/null # each tour-*.sh, checked on its own
	. "$f"
done
[ "$ntour" -eq "$NMODELS" ] || demo_fail "$ntour tour scripts in /hvpmu, want $NMODELS"

# (a guest that runs the demo after its checks runs EXTRA's files itself)
if [ -d /extra ] && [ -z "${DEMO_NO_EXTRA:-}" ]; then
	banner "your files (EXTRA=...)"
	for f in /extra/*; do
		[ -f "$f" ] || continue
		echo
		echo "# $f"
		case "$f" in
		*.sh) sh "$f" 2>&1 ;;
		*) "$f" 2>&1 ;;
		esac
		rc=$?
		echo "(exit status $rc)"
		[ "$rc" -eq 0 ] || demo_fail "$f exited $rc"
	done
fi
banner "end of the demo"
if [ -s "$FIRST_FAILURE" ]; then
	echo "demo: FAILED: $(cat "$FIRST_FAILURE")"
	exit 1
fi
