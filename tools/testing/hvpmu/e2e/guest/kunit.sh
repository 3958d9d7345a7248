# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The x86_64 KUnit tier in the guest kernel the end-to-end tests use (one
# debug kernel serves both), and the KUnit modules of the mips guest: load
# each test module named in /hvpmu/kunit-modules (or, where that is
# missing, /extra/kunit-modules), which runs its suites, and print its
# kernel log
# between KUNIT-MODULE-BEGIN/END markers, each line prefixed "KUNIT-LOG: ",
# for the host to parse (kunit/ktap_modules.py, kunit.py parse). Then every
# module is unloaded again.

. /hvpmu/lib.sh

: > "$TALLY"
list=/hvpmu/kunit-modules
[ -f "$list" ] || list=/extra/kunit-modules
for m in $(cat "$list"); do
	dmesg -c > /dev/null
	check "kunit: modprobe $m (runs its suites)" modprobe "$m"
	echo "KUNIT-MODULE-BEGIN $m"
	dmesg | sed 's/^/KUNIT-LOG: /'
	echo "KUNIT-MODULE-END $m"
	check "kunit: rmmod $m" rmmod "$m"
done
unload_ours "after the KUnit suites"
announce_checks
[ "$(nfailed)" -eq 0 ]
