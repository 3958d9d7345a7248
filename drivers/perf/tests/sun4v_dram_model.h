/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register-level model of the sun4v Niagara2 (group 0x202) and Victoria
 * Falls (group 0x205) performance-register hypercalls, for the KUnit tests.
 * Never used on real hardware.
 */
#ifndef _SUN4V_DRAM_MODEL_H
#define _SUN4V_DRAM_MODEL_H

#include <linux/spinlock.h>
#include <asm/hypervisor.h>

#include "../sun4v_dram_pmu.h"

/* Calls recorded in order while logging is on. */
#define SUN4V_PMU_MODEL_LOG		128

/**
 * enum sun4v_dram_model_op - the two calls, for call counts and injection
 * @SUN4V_PMU_MODEL_GET: GET_PERFREG
 * @SUN4V_PMU_MODEL_SET: SET_PERFREG
 * @SUN4V_PMU_MODEL_NR_OPS: number of calls
 */
enum sun4v_dram_model_op {
	SUN4V_PMU_MODEL_GET,
	SUN4V_PMU_MODEL_SET,
	SUN4V_PMU_MODEL_NR_OPS,
};

/**
 * enum sun4v_dram_model_ctl_effect - what a control-register write does
 *	to the channel's counter register; neither API document says, so each
 *	reading is offered
 * @SUN4V_PMU_MODEL_CTL_KEEP: nothing
 * @SUN4V_PMU_MODEL_CTL_CLEAR: the counter register is cleared
 * @SUN4V_PMU_MODEL_CTL_PERTURB: both counters jump by
 *	SUN4V_PMU_MODEL_PERTURB
 */
enum sun4v_dram_model_ctl_effect {
	SUN4V_PMU_MODEL_CTL_KEEP,
	SUN4V_PMU_MODEL_CTL_CLEAR,
	SUN4V_PMU_MODEL_CTL_PERTURB,
};

#define SUN4V_PMU_MODEL_PERTURB	0x12345ULL

/**
 * enum sun4v_dram_model_high - what reads of a control register return in
 *	bits 63:8, which the hypervisor does not let a guest write
 *	(hcall_niagara2.s masks them) and whose content no source gives
 * @SUN4V_PMU_MODEL_HIGH_ZERO: zero
 * @SUN4V_PMU_MODEL_HIGH_ALWAYS: &sun4v_dram_model.ctl_high, always
 * @SUN4V_PMU_MODEL_HIGH_WRITTEN: &sun4v_dram_model.ctl_high once the
 *	register was written
 */
enum sun4v_dram_model_high {
	SUN4V_PMU_MODEL_HIGH_ZERO,
	SUN4V_PMU_MODEL_HIGH_ALWAYS,
	SUN4V_PMU_MODEL_HIGH_WRITTEN,
};

/**
 * struct sun4v_dram_model_call - one recorded call
 * @op: GET or SET
 * @reg: the PerfReg#
 * @val: the value written (SET)
 * @status: what the model answered
 */
struct sun4v_dram_model_call {
	enum sun4v_dram_model_op op;
	unsigned long reg;
	u64 val;
	unsigned long status;
};

/**
 * struct sun4v_dram_model - state of one modelled hypervisor and chip
 * @ops: the driver's hook to this model (sun4v_dram_model_init() fills
 *	it in; a test may copy it and replace a call)
 * @chip: N2 or VF numbering and behaviour
 * @lock: serialises the calls, traffic and injection; raw, because the
 *	driver calls the model under its own raw spinlock, in hard-irq context
 * @access: the guest's perfctraccess MD property; false = ENOACCESS always
 * @ht_access: perfctrhtaccess; false = ENOACCESS for a PCR write with HT
 * @present: bit per channel (N2 channel, VF node * 2 + mcu) that exists
 * @absent_status: VF status for a register of an absent node: EINVAL
 *	(API 1.0, the default) or ENOTSUPPORTED (the 1.1 text)
 * @ctl_effect: what a control write does to the counter register
 * @ctl_high: bits 63:8 of control-register reads, see @high
 * @high: when @ctl_high shows
 * @pcr: PerfReg 0, the calling strand's SPARC PCR (the driver never uses
 *	it: pcr.c writes PCR.HT; kept because the 3.1 tables list it)
 * @l2ctl: VF PerfReg 1, the calling strand's node's L2 control register
 *	(PERF_CONFIG, bits 1:0), as one register: the driver never uses it
 *	(the CPU PMU's l2ctl does, with a per-node model of its own in
 *	arch/sparc/kernel/perf_event_l2ctl_kunit.c)
 * @ctl: DRAM control register per channel
 * @pic: DRAM counter register per channel
 * @written: bit per channel whose control register was written
 * @calls: calls made, per call and PerfReg# (out-of-range numbers counted
 *	in the last slot)
 * @log: the calls in order while @log_on
 * @nr_log: entries in @log
 * @log_on: record calls in @log
 * @inj_op: injection: the call that fails
 * @inj_reg: injection: the PerfReg# that fails, or -1 for any
 * @inj_status: injection: the status returned instead
 * @inj_skip: injection: matching calls that still succeed first
 * @inj_count: injection: matching calls that fail (0 = injection off)
 * @inj_traffic: injection: events counted just before each failing call,
 *	on channel @inj_traffic_chan by the halves selecting
 *	@inj_traffic_event (traffic that arrives right before it)
 * @inj_traffic_chan: see @inj_traffic
 * @inj_traffic_event: see @inj_traffic
 * @get_cpus: bit per CPU (of the first BITS_PER_LONG) that made a GET
 *	call since a test cleared it
 * @bad: calls a correct driver never makes: a PerfReg# out of range, or a
 *	control value with bits the hypervisor would silently drop
 */
struct sun4v_dram_model {
	struct sun4v_dram_hv_ops ops;
	enum sun4v_pmu_chip chip;
	raw_spinlock_t lock;
	bool access;
	bool ht_access;
	u32 present;
	unsigned long absent_status;
	enum sun4v_dram_model_ctl_effect ctl_effect;
	u64 ctl_high;
	enum sun4v_dram_model_high high;
	u64 pcr;
	u64 l2ctl;
	u64 ctl[SUN4V_PMU_MAX_CHANNELS];
	u64 pic[SUN4V_PMU_MAX_CHANNELS];
	u32 written;
	unsigned long calls[SUN4V_PMU_MODEL_NR_OPS][SUN4V_PMU_VF_NR_REGS + 1];
	struct sun4v_dram_model_call log[SUN4V_PMU_MODEL_LOG];
	unsigned int nr_log;
	bool log_on;
	enum sun4v_dram_model_op inj_op;
	long inj_reg;
	unsigned long inj_status;
	unsigned int inj_skip;
	unsigned int inj_count;
	u64 inj_traffic;
	unsigned int inj_traffic_chan;
	unsigned int inj_traffic_event;
	unsigned long get_cpus;
	unsigned long bad;
};

void sun4v_dram_model_init(struct sun4v_dram_model *m,
			   enum sun4v_pmu_chip chip, u32 present);
void sun4v_dram_model_traffic(struct sun4v_dram_model *m, unsigned int chan,
			      unsigned int event, u64 n);
void sun4v_dram_model_inject(struct sun4v_dram_model *m,
			     enum sun4v_dram_model_op op, long reg,
			      unsigned long status, unsigned int skip,
			      unsigned int count);
void sun4v_dram_model_inject_traffic(struct sun4v_dram_model *m,
				     unsigned int chan, unsigned int event,
				     u64 n);
unsigned long sun4v_dram_model_calls(struct sun4v_dram_model *m,
				     enum sun4v_dram_model_op op, long reg);
void sun4v_dram_model_reset_calls(struct sun4v_dram_model *m);
int sun4v_dram_model_decode(enum sun4v_pmu_chip chip, unsigned long reg,
			    bool *counter);

#endif /* _SUN4V_DRAM_MODEL_H */
