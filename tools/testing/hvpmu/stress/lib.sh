# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The host's side of a stress run, shared by stress/run.sh (the x86_64
# guest) and e2e/mips/run.sh --stress (the mips guest, mips_cm alone):
# hvpmu-stress's arguments from the environment, and the verdict on the
# guest's results and kernel log. Sourced after e2e/lib.sh.
#
# Environment:
#   STRESS_SECONDS  how long the stress runs (default 60)
#   STRESS_ATTRS    run on until this many attributes were tried (default:
#                   none), at most 3 x STRESS_SECONDS
#   STRESS_SEED     the seed (default: printed, from the time)
#   STRESS_ARGS     more hvpmu-stress options (-w N, -U, -L, -v; see -h)

# stress_extra DIR SLACK BOOT: hvpmu-stress's arguments in DIR/stress.args
# and the guest's watchdog (seconds) in DIR/stress.watchdog, for
# stress-guest.sh; STRESS_ARGV: the arguments, STRESS_TIMEOUT: the
# seconds to give the whole guest. The watchdog allows SLACK seconds past
# the longest run (readers finishing, the last reload, the leak scan);
# QEMU gets BOOT more for the boot and set-up, so that the watchdog in the
# guest, which shows what the kernel waits on, fires first.
stress_extra() {
	local dir=$1 slack=$2 boot=$3 secs max
	secs=${STRESS_SECONDS:-60}
	STRESS_ARGV="-t $secs"
	max=$secs
	if [ -n "${STRESS_ATTRS:-}" ]; then
		STRESS_ARGV="$STRESS_ARGV -a $STRESS_ATTRS -T $((3 * secs))"
		max=$((3 * secs))
	fi
	[ -n "${STRESS_SEED:-}" ] && STRESS_ARGV="$STRESS_ARGV -s $STRESS_SEED"
	STRESS_ARGV="$STRESS_ARGV ${STRESS_ARGS:-}"
	echo "$STRESS_ARGV" > "$dir/stress.args"
	echo "$((max + slack))" > "$dir/stress.watchdog"
	# shellcheck disable=SC2034 # the caller's
	STRESS_TIMEOUT=$((max + slack + boot))
}

# stress_verdict WHAT RESULTS QEMU_RC CONSOLE: after the guest ran
# stress-guest.sh, its lines (PASS/FAIL, the stress report), the guest
# checks, a FAIL when hvpmu-stress said nothing, and the scan of the whole
# kernel log (kmemleak's reports are the guest's to judge); sets npass
# and nfail (e2e_count). The guest's lines name WHAT, unless it is
# "stress" (the x86_64 guest's, as they always were), so that check.sh's
# stress step tells the guests apart.
stress_verdict() {
	local what=$1 results=$2 qrc=$3 console=$4 name=""
	e2e_count "$results"
	[ "$what" = stress ] || name="s/^(PASS|FAIL|SKIP): (stress: )?/\1: $what: /"
	grep -v '^HVPMU-GUEST-' "$results.txt" | sed -E "$name"
	e2e_guest_checks "$what" "$results" "$qrc" "$console"
	if ! grep -q '^PASS: stress: .* attributes tried' "$results.txt"; then
		e2e_fail "$what" "no report from hvpmu-stress"
	fi
	if ! e2e_log_scan "$what" "$console"; then
		echo "    report lines by kind:"
		tr -d '\r' < "$console" | grep -E -- "$KERNEL_REPORT_RE" |
			grep -v -e 'cut here' -e 'Call Trace' |
			sed 's/^\[ *[0-9.]*\] //' |
			sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    /'
	fi
}
