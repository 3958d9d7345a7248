# SPDX-License-Identifier: GPL-2.0
#
# The tour of make demo: the real perf tool on the simulated platform.
# Each command is shown as "# perf ..." before its output.

. /hvpmu/lib.sh

# Show a command as one would type it, then run it.
run() {
	local a line=""
	for a in "$@"; do
		case "$a" in
		*[!A-Za-z0-9_./=,:+-]*) line="$line '$a'" ;;
		*) line="$line $a" ;;
		esac
	done
	echo
	echo "#$line"
	"$@" 2>&1
}

banner() {
	echo
	echo "==== $* ===="
}

banner "hvpmu demo: perf $(perf version | cut -d' ' -f3) on Linux $(uname -r), simulated platform"
echo "The PMUs below run on register-level models of the hypervisor and uncore"
echo "hardware (CONFIG_HVPMU_SIM): counts are the traffic injected through"
echo "$SIM, not measurements of this machine."
modprobe hvpmu_sim
run cat "$SIM/models"

banner "perf list: our PMUs"
echo
echo "# perf list | grep -E '$(echo "$OUR_PMUS" | tr ' ' '|')'"
perf list 2>/dev/null | grep -E "$(echo "$OUR_PMUS" | tr ' ' '|')" > /tmp/ours
# niagara_mmustat has 48 events (hits, ticks and time of 16 buffer words).
grep -v 'niagara_mmustat/' /tmp/ours
grep 'niagara_mmustat/' /tmp/ours | grep '_8k/'
echo "  ... and $(grep -c 'niagara_mmustat/' /tmp/ours) niagara_mmustat events in all"

for f in /hvpmu/tour-*.sh; do
	[ -e "$f" ] && . "$f"
done

if [ -d /extra ]; then
	banner "your files (EXTRA=...)"
	for f in /extra/*; do
		[ -f "$f" ] || continue
		echo
		echo "# $f"
		case "$f" in
		*.sh) sh "$f" 2>&1 ;;
		*) [ -x "$f" ] && "$f" 2>&1 ;;
		esac
		echo "(exit status $?)"
	done
fi
banner "end of the demo"
