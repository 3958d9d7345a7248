// SPDX-License-Identifier: GPL-2.0
/*
 * sun4v glue of the niagara2_dram / vfalls_dram PMUs: the perfreg
 * hypercalls, API group negotiation and telling a T2 from a T2+.
 *
 * Linux's sun4v_niagara2_getperf() stores the value through the register
 * number instead of the caller's pointer (reference 6.1) and no wrapper
 * exists for the Victoria Falls calls, so the four fast traps are issued
 * here directly.
 */

#define pr_fmt(fmt) "hvpmu_sun4v: " fmt

#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/perf/hvpmu_sun4v.h>

#include <asm/hypervisor.h>
#include <asm/spitfire.h>

/* Function numbers: niagara2_perf_api 3.2 and vf_perf_api 3.2. */
#define HVPMU_FAST_N2_GET_PERFREG	0x104
#define HVPMU_FAST_N2_SET_PERFREG	0x105
#define HVPMU_FAST_VF_GET_PERFREG	0x106
#define HVPMU_FAST_VF_SET_PERFREG	0x107

struct hvpmu_sun4v_glue {
	unsigned long get_fn;
	unsigned long set_fn;
	unsigned long group;
};

static struct hvpmu_sun4v_glue glue;
static struct hvpmu_sun4v_dram *dram;

/* A fast trap: function in %o5, arguments in %o0-%o1, status in %o0. */
static unsigned long hvpmu_fast_trap(unsigned long fn, unsigned long a0,
				     unsigned long a1, unsigned long *ret1)
{
	register unsigned long func asm("%o5") = fn;
	register unsigned long arg0 asm("%o0") = a0;
	register unsigned long arg1 asm("%o1") = a1;

	__asm__ __volatile__("ta	%3"
			     : "+r" (arg0), "+r" (arg1), "+r" (func)
			     : "i" (HV_FAST_TRAP)
			     : "%o2", "%o3", "%o4", "memory");
	*ret1 = arg1;
	return arg0;
}

static unsigned long glue_get_perfreg(void *ctx, unsigned long reg, u64 *val)
{
	const struct hvpmu_sun4v_glue *g = ctx;
	unsigned long v, st;

	st = hvpmu_fast_trap(g->get_fn, reg, 0, &v);
	if (st == HV_EOK)
		*val = v;
	return st;
}

static unsigned long glue_set_perfreg(void *ctx, unsigned long reg, u64 val)
{
	const struct hvpmu_sun4v_glue *g = ctx;
	unsigned long unused;

	return hvpmu_fast_trap(g->set_fn, reg, val, &unused);
}

static const struct hvpmu_sun4v_ops glue_ops = {
	.get_perfreg = glue_get_perfreg,
	.set_perfreg = glue_set_perfreg,
};

/*
 * Linux reports T2 and T2+ both as SUN4V_CHIP_NIAGARA2 (head_64.S looks
 * at one character of the OBP "compatible" string), so look at the whole
 * string of a cpu node: "SUNW,UltraSPARC-T2+" is a Victoria Falls.
 * (prom_cpu_compatible holds the same string but is not exported.)
 */
static bool hvpmu_sun4v_is_vf(void)
{
	struct device_node *dp = of_find_node_by_type(NULL, "cpu");
	bool vf = dp && of_device_is_compatible(dp, "SUNW,UltraSPARC-T2+");

	of_node_put(dp);
	return vf;
}

static int __init hvpmu_sun4v_perfreg_init(void)
{
	struct hvpmu_sun4v_desc desc = { .ops = &glue_ops, .ctx = &glue };
	unsigned long minor = 0;
	int err;

	if (tlb_type != hypervisor) {
		pr_debug("not a sun4v system, no DRAM PMU\n");
		return -ENODEV;
	}
	if (sun4v_chip_type != SUN4V_CHIP_NIAGARA2) {
		pr_info("not an UltraSPARC T2/T2+, no DRAM PMU\n");
		return -ENODEV;
	}

	if (hvpmu_sun4v_is_vf()) {
		desc.chip = HVPMU_SUN4V_VF;
		glue.group = HV_GRP_VF_CPU;
		glue.get_fn = HVPMU_FAST_VF_GET_PERFREG;
		glue.set_fn = HVPMU_FAST_VF_SET_PERFREG;
	} else {
		desc.chip = HVPMU_SUN4V_N2;
		glue.group = HV_GRP_N2_CPU;
		glue.get_fn = HVPMU_FAST_N2_GET_PERFREG;
		glue.set_fn = HVPMU_FAST_N2_SET_PERFREG;
	}

	/* Refcounted: on a T2 this shares pcr.c's registration of 0x202. */
	err = sun4v_hvapi_register(glue.group, 1, &minor);
	if (err) {
		pr_info("hypervisor API group %#lx v1.0 not available (%d), no DRAM PMU\n",
			glue.group, err);
		return -ENODEV;
	}

	dram = hvpmu_sun4v_dram_probe(&desc);
	if (IS_ERR(dram)) {
		err = PTR_ERR(dram);
		dram = NULL;
		sun4v_hvapi_unregister(glue.group);
		return err;
	}
	return 0;
}
module_init(hvpmu_sun4v_perfreg_init);

static void __exit hvpmu_sun4v_perfreg_exit(void)
{
	hvpmu_sun4v_dram_remove(dram);
	sun4v_hvapi_unregister(glue.group);
}
module_exit(hvpmu_sun4v_perfreg_exit);

MODULE_DESCRIPTION("sun4v perfreg hypercalls for the niagara2_dram/vfalls_dram PMUs");
MODULE_LICENSE("GPL");
