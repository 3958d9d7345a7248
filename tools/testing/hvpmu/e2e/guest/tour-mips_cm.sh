# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The demo's mips_cm part (sourced by demo.sh).

D=$SIM/mips_cm
if [ -d "$PMUS/mips_cm" ] && [ -d "$D" ]; then
	banner "mips_cm: MIPS Coherence Manager counters (GCR debug block)"
	echo "1e10 CM cycles and 5e9 sharing misses: many wraps of the 32-bit counters:"
	run_expect '10000000000 +mips_cm/cycles/' \
		perf stat -a -e mips_cm/cycles/,mips_cm/sharing_miss,qualifier=0/ -- sh -c \
		"echo 'cycles 10000000000' > $D/inject; echo 'sharing_miss 0 5000000000' > $D/inject"
	echo
	echo "The CM has two event counters: a group of three cannot be scheduled:"
	run_expect 'not counted|not supported' perf stat -a -e '{mips_cm/request_count,qualifier=0/,mips_cm/sharing_miss,qualifier=0/,mips_cm/l2_hits_misses,qualifier=0/}' -- true
fi
