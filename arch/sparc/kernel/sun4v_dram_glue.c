// SPDX-License-Identifier: GPL-2.0
/*
 * sun4v glue of the niagara2_dram / vfalls_dram PMUs: the perfreg
 * hypercalls, API group negotiation and telling a T2 from a T2+.
 *
 * Linux's sun4v_niagara2_getperf() stores the value through the register
 * number instead of the caller's pointer (reference 6.1) and no wrapper
 * exists for the Victoria Falls calls, so the four fast traps are issued
 * here directly.
 *
 * The glue also serves the built-in CPU PMU and PCR code through their
 * provider hooks (our patches 0100 and 0101): PCR writes while HT is
 * involved go through the chip's own SET_PERFREG, and on a T2+ the CPU
 * PMU's config1 (l2ctl) is arbitrated by the DRAM PMU driver.
 */

#define pr_fmt(fmt) "sun4v_pmu: " fmt

#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/of.h>
#include "../../../drivers/perf/sun4v_dram_pmu.h"

#include <asm/cpudata.h>
#include <asm/hypervisor.h>
#include <asm/pcr.h>
#include <asm/spitfire.h>

/* The driver's status and group numbers are the architected ones. */
static_assert(SUN4V_PMU_EOK == HV_EOK);
static_assert(SUN4V_PMU_EINVAL == HV_EINVAL);
static_assert(SUN4V_PMU_EBADTRAP == HV_EBADTRAP);
static_assert(SUN4V_PMU_EWOULDBLOCK == HV_EWOULDBLOCK);
static_assert(SUN4V_PMU_ENOACCESS == HV_ENOACCESS);
static_assert(SUN4V_PMU_ENOTSUPPORTED == HV_ENOTSUPPORTED);
static_assert(SUN4V_PMU_N2_API_GROUP == HV_GRP_N2_CPU);
static_assert(SUN4V_PMU_VF_API_GROUP == HV_GRP_VF_CPU);
static_assert(SUN4V_PMU_N2_GET_PERFREG == HV_FAST_N2_GET_PERFREG);
static_assert(SUN4V_PMU_N2_SET_PERFREG == HV_FAST_N2_SET_PERFREG);
static_assert(SUN4V_PMU_PCR_HT == PCR_N2_HTRACE);

struct sun4v_pmu_glue {
	unsigned long get_fn;
	unsigned long set_fn;
	unsigned long group;
};

static struct sun4v_pmu_glue glue;
static struct sun4v_dram_pmu *dram;

/* A fast trap: function in %o5, arguments in %o0-%o1, status in %o0. */
static unsigned long sun4v_perfreg_fast_trap(unsigned long fn, unsigned long a0,
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
	const struct sun4v_pmu_glue *g = ctx;
	unsigned long v, st;

	st = sun4v_perfreg_fast_trap(g->get_fn, reg, 0, &v);
	if (st == HV_EOK)
		*val = v;
	return st;
}

static unsigned long glue_set_perfreg(void *ctx, unsigned long reg, u64 val)
{
	const struct sun4v_pmu_glue *g = ctx;
	unsigned long unused;

	return sun4v_perfreg_fast_trap(g->set_fn, reg, val, &unused);
}

/*
 * The socket of a CPU, as the machine description gives it (mdesc.c
 * set_sock_ids(): numbered from 1, by "socket" nodes or else by the
 * highest shared cache). The driver numbers the T2+ nodes from these.
 */
static int glue_cpu_socket(void *ctx, unsigned int cpu)
{
	return cpu_data(cpu).sock_id;
}

static const struct sun4v_pmu_ops glue_ops = {
	.get_perfreg = glue_get_perfreg,
	.set_perfreg = glue_set_perfreg,
	.cpu_socket = glue_cpu_socket,
};

/* CPU PMU config1 (l2ctl) provider, T2+ only. */
static int glue_l2ctl_get(int cpu, u32 enc, u64 config1)
{
	return sun4v_pmu_l2ctl_event_get(dram, cpu, enc, config1);
}

static void glue_l2ctl_put(int cpu, u32 enc, u64 config1)
{
	sun4v_pmu_l2ctl_event_put(dram, cpu, enc, config1);
}

static const struct sparc_pmu_l2ctl_ops glue_l2ctl_ops = {
	.owner = THIS_MODULE,
	.get = glue_l2ctl_get,
	.put = glue_l2ctl_put,
};

/* PCR writes while HT is involved: 0x105 on a T2, 0x107 on a T2+. */
static bool glue_pcr_ht_write(u64 val, bool live, u64 cur)
{
	return sun4v_pmu_pcr_write(dram, val, live, cur);
}

static const struct pcr_ht_ops glue_pcr_ht_ops = {
	.write = glue_pcr_ht_write,
};

static bool l2ctl_registered;
static bool ht_registered;

/*
 * T2 or T2+, from the OBP "compatible" of a cpu node (Linux reports both
 * as SUN4V_CHIP_NIAGARA2; prom_cpu_compatible holds the same string but is
 * not exported). Return: the chip, or -ENODEV for any other CPU.
 */
static int sun4v_pmu_chip(void)
{
	struct device_node *dp = of_find_node_by_type(NULL, "cpu");
	const char *compat;
	int len = 0, chip;

	compat = dp ? of_get_property(dp, "compatible", &len) : NULL;
	chip = sun4v_pmu_chip_detect(compat, len);
	of_node_put(dp);
	return chip;
}

static int __init sun4v_dram_glue_init(void)
{
	struct sun4v_pmu_desc desc = { .ops = &glue_ops, .ctx = &glue,
					 .owner = THIS_MODULE };
	unsigned long minor = 0;
	int chip, err;

	if (tlb_type != hypervisor) {
		pr_debug("not a sun4v system, no DRAM PMU\n");
		return -ENODEV;
	}
	chip = sun4v_pmu_chip();
	if (chip < 0) {
		pr_info("not an UltraSPARC T2/T2+, no DRAM PMU\n");
		return -ENODEV;
	}

	desc.chip = chip;
	if (chip == SUN4V_PMU_VF) {
		glue.group = SUN4V_PMU_VF_API_GROUP;
		glue.get_fn = SUN4V_PMU_VF_GET_PERFREG;
		glue.set_fn = SUN4V_PMU_VF_SET_PERFREG;
	} else {
		glue.group = SUN4V_PMU_N2_API_GROUP;
		glue.get_fn = SUN4V_PMU_N2_GET_PERFREG;
		glue.set_fn = SUN4V_PMU_N2_SET_PERFREG;
	}

	/* Refcounted: on a T2 this shares pcr.c's registration of 0x202. */
	err = sun4v_hvapi_register(glue.group, 1, &minor);
	if (err) {
		pr_info("hypervisor API group %#lx v1.0 not available (%d), no DRAM PMU\n",
			glue.group, err);
		return -ENODEV;
	}

	dram = sun4v_dram_pmu_probe(&desc);
	if (IS_ERR(dram)) {
		err = PTR_ERR(dram);
		dram = NULL;
		sun4v_hvapi_unregister(glue.group);
		return err;
	}

	/* Both optional: without them the CPU PMU works as before. */
	err = pcr_register_ht_ops(&glue_pcr_ht_ops);
	if (err)
		pr_warn("PCR HT writer not registered (%d)\n", err);
	ht_registered = !err;
	/* Only a T2+ has the L2 PERF_CONFIG that config1 (l2ctl) selects. */
	if (chip == SUN4V_PMU_VF) {
		err = sparc_pmu_register_l2ctl(&glue_l2ctl_ops);
		if (err)
			pr_warn("CPU PMU l2ctl provider not registered (%d)\n",
				err);
		l2ctl_registered = !err;
	}
	return 0;
}
module_init(sun4v_dram_glue_init);

static void __exit sun4v_dram_glue_exit(void)
{
	/* Events holding an L2 setting pin this module: none is left. */
	if (l2ctl_registered)
		sparc_pmu_unregister_l2ctl(&glue_l2ctl_ops);
	if (ht_registered)
		pcr_unregister_ht_ops(&glue_pcr_ht_ops);
	sun4v_dram_pmu_remove(dram);
	sun4v_hvapi_unregister(glue.group);
}
module_exit(sun4v_dram_glue_exit);

MODULE_DESCRIPTION("sun4v perfreg hypercalls for the niagara2_dram/vfalls_dram PMUs");
MODULE_LICENSE("GPL");
