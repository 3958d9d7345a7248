/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Model of the sun4v MMU statistics API (drivers/perf/tests/sun4v_mmustat_model.c),
 * for the KUnit suite.
 */
#ifndef _SUN4V_MMUSTAT_MODEL_H
#define _SUN4V_MMUSTAT_MODEL_H

#include <asm/hypervisor.h>

#include "../sun4v_mmustat_pmu.h"

struct sun4v_mmustat_model;

/**
 * enum sun4v_mmustat_model_call - model entry points, for counters and
 *	error injection
 * @SUN4V_MMUSTAT_PMU_CALL_INFO: the info hypercall
 * @SUN4V_MMUSTAT_PMU_CALL_CONF: the conf hypercall
 * @SUN4V_MMUSTAT_PMU_CALL_ALLOC: buffer allocation
 * @SUN4V_MMUSTAT_PMU_CALL_FREE: buffer free
 * @SUN4V_MMUSTAT_PMU_CALL_MAP: mapping of a foreign buffer
 * @SUN4V_MMUSTAT_PMU_CALL_LEAK: a buffer given up
 * @SUN4V_MMUSTAT_PMU_NR_CALLS: number of entry points
 */
enum sun4v_mmustat_model_call {
	SUN4V_MMUSTAT_PMU_CALL_INFO,
	SUN4V_MMUSTAT_PMU_CALL_CONF,
	SUN4V_MMUSTAT_PMU_CALL_ALLOC,
	SUN4V_MMUSTAT_PMU_CALL_FREE,
	SUN4V_MMUSTAT_PMU_CALL_MAP,
	SUN4V_MMUSTAT_PMU_CALL_LEAK,
	SUN4V_MMUSTAT_PMU_NR_CALLS,
};

struct sun4v_mmustat_model *
sun4v_mmustat_model_create(bool niagara1, u64 tick_hz);
void sun4v_mmustat_model_destroy(struct sun4v_mmustat_model *m);
const struct sun4v_mmustat_hv_ops *
sun4v_mmustat_model_ops(struct sun4v_mmustat_model *m);
void sun4v_mmustat_model_traffic(struct sun4v_mmustat_model *m,
				 unsigned int cpu, unsigned int word, u64 n);
void sun4v_mmustat_model_inject(struct sun4v_mmustat_model *m,
				enum sun4v_mmustat_model_call call,
				unsigned int after, unsigned long status);
void sun4v_mmustat_model_misalign(struct sun4v_mmustat_model *m, u64 offset);
unsigned long sun4v_mmustat_model_calls(struct sun4v_mmustat_model *m,
					enum sun4v_mmustat_model_call call);
unsigned long sun4v_mmustat_model_wrong_cpu(struct sun4v_mmustat_model *m);
unsigned long sun4v_mmustat_model_bad_frees(struct sun4v_mmustat_model *m);
unsigned long sun4v_mmustat_model_leaked(struct sun4v_mmustat_model *m);
void sun4v_mmustat_model_race(struct sun4v_mmustat_model *m, unsigned int cpu,
			      u64 raddr);
long sun4v_mmustat_model_live_buffers(struct sun4v_mmustat_model *m);
u64 sun4v_mmustat_model_slot(struct sun4v_mmustat_model *m, unsigned int cpu);
unsigned long sun4v_mmustat_model_guest_conf(struct sun4v_mmustat_model *m,
					     unsigned int cpu, u64 raddr,
					     u64 *prev);
u64 sun4v_mmustat_model_foreign_buf(struct sun4v_mmustat_model *m,
				    unsigned int idx);
u64 sun4v_mmustat_model_read(struct sun4v_mmustat_model *m, u64 raddr,
			     unsigned int word);

#endif /* _SUN4V_MMUSTAT_MODEL_H */
