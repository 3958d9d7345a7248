/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register-level model of the sun4v Niagara2 (group 0x202) and Victoria
 * Falls (group 0x205) performance-register hypercalls, for the KUnit tests
 * and the simulated platform. Never used on real hardware.
 */
#ifndef _LINUX_PERF_HVPMU_SUN4V_MODEL_H
#define _LINUX_PERF_HVPMU_SUN4V_MODEL_H

#include <linux/perf/hvpmu_sun4v.h>
#include <linux/spinlock.h>

/**
 * enum hvpmu_sun4v_model_op - the two calls, for call counts and injection
 * @HVPMU_SUN4V_MODEL_GET: GET_PERFREG
 * @HVPMU_SUN4V_MODEL_SET: SET_PERFREG
 * @HVPMU_SUN4V_MODEL_NR_OPS: number of calls
 */
enum hvpmu_sun4v_model_op {
	HVPMU_SUN4V_MODEL_GET,
	HVPMU_SUN4V_MODEL_SET,
	HVPMU_SUN4V_MODEL_NR_OPS,
};

/**
 * struct hvpmu_sun4v_model - state of one modelled hypervisor and chip
 * @chip: N2 or VF numbering and behaviour
 * @lock: serialises the calls, traffic and injection; raw, because the
 *	driver calls the model under its own raw spinlock, in hard-irq context
 * @access: the guest's perfctraccess MD property; false = ENOACCESS always
 * @ht_access: perfctrhtaccess; false = ENOACCESS for a PCR write with HT
 * @present: bit per channel (N2 channel, VF node * 2 + mcu) that exists
 * @absent_status: VF status for a register of an absent node
 * @local_node: VF node of the calling strand (PerfReg 1 is node-local);
 *	set_node_perfreg sets it to the node written
 * @cpus_per_node: cpu_node answers cpu / @cpus_per_node
 * @pcr: PerfReg 0, the calling strand's SPARC PCR
 * @l2ctl: VF PerfReg 1 per node (PERF_CONFIG, bits 1:0)
 * @ctl: DRAM control register per channel
 * @pic: DRAM counter register per channel
 * @calls: calls made, per call and PerfReg# (out-of-range numbers counted
 *	in the last slot)
 * @inj_op: injection: the call that fails
 * @inj_reg: injection: the PerfReg# that fails, or -1 for any
 * @inj_status: injection: the status returned instead
 * @inj_skip: injection: matching calls that still succeed first
 * @inj_count: injection: matching calls that fail (0 = injection off)
 * @bad: calls a correct driver never makes: a PerfReg# out of range, or a
 *	control value with bits the hypervisor would silently drop
 */
struct hvpmu_sun4v_model {
	enum hvpmu_sun4v_chip chip;
	raw_spinlock_t lock;	/* calls, traffic and injection */
	bool access;
	bool ht_access;
	u32 present;
	unsigned long absent_status;
	unsigned int local_node;
	unsigned int cpus_per_node;
	u64 pcr;
	u64 l2ctl[HVPMU_SUN4V_VF_NODES];
	u64 ctl[HVPMU_SUN4V_MAX_CHANNELS];
	u64 pic[HVPMU_SUN4V_MAX_CHANNELS];
	unsigned long calls[HVPMU_SUN4V_MODEL_NR_OPS][HVPMU_SUN4V_VF_NR_REGS + 1];
	enum hvpmu_sun4v_model_op inj_op;
	long inj_reg;
	unsigned long inj_status;
	unsigned int inj_skip;
	unsigned int inj_count;
	unsigned long bad;
};

extern const struct hvpmu_sun4v_ops hvpmu_sun4v_model_ops;

void hvpmu_sun4v_model_init(struct hvpmu_sun4v_model *m,
			    enum hvpmu_sun4v_chip chip, u32 present);
void hvpmu_sun4v_model_traffic(struct hvpmu_sun4v_model *m, unsigned int chan,
			       unsigned int event, u64 n);
void hvpmu_sun4v_model_inject(struct hvpmu_sun4v_model *m,
			      enum hvpmu_sun4v_model_op op, long reg,
			      unsigned long status, unsigned int skip,
			      unsigned int count);
unsigned long hvpmu_sun4v_model_calls(struct hvpmu_sun4v_model *m,
				      enum hvpmu_sun4v_model_op op, long reg);
void hvpmu_sun4v_model_reset_calls(struct hvpmu_sun4v_model *m);

#endif /* _LINUX_PERF_HVPMU_SUN4V_MODEL_H */
