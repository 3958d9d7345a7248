# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The demo's niagara2_dram / vfalls_dram part (sourced by demo.sh).

D=$SIM/sun4v
if [ -d "$PMUS/vfalls_dram" ] && [ -d "$D" ]; then
	banner "vfalls_dram: UltraSPARC T2+ memory controllers (sun4v hcalls 0x106/0x107)"
	echo "Reads and writes on node 0 MCU 1 while perf counts; 3 x 2e9 reads"
	echo "wrap the 31-bit hardware counter several times:"
	run_expect '6000000000 +vfalls_dram/mem_reads' \
		perf stat -a -e vfalls_dram/mem_reads,node=0,mcu=1/,vfalls_dram/mem_writes,node=0,mcu=1/ -- sh -c \
		"for i in 1 2 3; do echo 'vfalls_dram node 0 mcu 1 mem_reads 2000000000' > $D/inject; sleep 0.2; done; echo 'vfalls_dram node 0 mcu 1 mem_writes 123456789' > $D/inject"
	echo
	echo "Error cases: a node the machine does not have, and a bad field value:"
	run_refused 'No such device|not supported|Error' perf stat -a -e vfalls_dram/mem_reads,node=2,mcu=0/ -- true
	run_refused 'value too big|Invalid|Error' perf stat -a -e vfalls_dram/mem_reads,node=0,mcu=2/ -- true
	run cat "$D/calls"
fi
if [ -d "$PMUS/niagara2_dram" ] && [ -d "$D" ]; then
	banner "niagara2_dram: UltraSPARC T2 DRAM channels (sun4v hcalls 0x104/0x105)"
	run_expect '1000000 +niagara2_dram/mem_reads' \
		perf stat -a -e niagara2_dram/mem_reads,channel=2/,niagara2_dram/wb_buf_hits,channel=2/ -- sh -c \
		"echo 'niagara2_dram channel 2 mem_reads 1000000' > $D/inject; echo 'niagara2_dram channel 2 wb_buf_hits 4242' > $D/inject"
fi
