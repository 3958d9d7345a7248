# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The demo's niagara_mmustat part (sourced by demo.sh).

P=niagara_mmustat
D=$SIM/mmustat
if [ -d "$PMUS/$P" ] && [ -d "$D" ]; then
	banner "$P: UltraSPARC T1 hypervisor TSB-hit statistics, per CPU"
	echo "A hypervisor error first: the next CONF call answers EBADALIGN (8)."
	run sh -c "echo 'conf 8' > $D/error"
	run_refused 'Input/output error' perf stat -a -e $P/dtsb_hits_ctx0_8k/ -- true
	run_expect 'EBADALIGN' sh -c "dmesg | grep $P | tail -n 1"
	echo
	echo "Now 1000 D-TSB hits on CPU 0 and 234 on CPU $OTHER_CPU, 2400 %tick cycles spent:"
	run_expect '1234 +niagara_mmustat/dtsb_hits_ctx0_8k/' \
		perf stat -a -e $P/dtsb_hits_ctx0_8k/,$P/dtsb_ticks_ctx0_8k/,$P/dtsb_time_ctx0_8k/ -- sh -c \
		"echo 'cpu 0 dtsb_hits_ctx0_8k += 1000' > $D/inject; echo 'cpu $OTHER_CPU dtsb_hits_ctx0_8k += 234' > $D/inject; echo 'cpu 0 dtsb_ticks_ctx0_8k += 2400' > $D/inject"
	run cat "$D/calls"
fi
