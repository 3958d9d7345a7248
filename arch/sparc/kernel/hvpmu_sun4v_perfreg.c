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
 * provider hooks (our patches 0100 and 0101): PCR writes with HT set go
 * through the chip's own SET_PERFREG, and on a T2+ the CPU PMU's l2ctl
 * field is arbitrated by the DRAM PMU driver.
 */

#define pr_fmt(fmt) "hvpmu_sun4v: " fmt

#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/perf/hvpmu_sun4v.h>
#include <linux/smp.h>

#include <asm/cpudata.h>
#include <asm/hypervisor.h>
#include <asm/pcr.h>
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

/*
 * Which hypervisor node's PerfReg 1 (L2 control, node-local) applies to a
 * CPU. Nothing documents how hypervisor node numbers relate to Linux's
 * (reference 4), so we assume one T2+ chip, hence one L2, per sock_id and
 * node = sock_id. Only the grouping matters for PerfReg 1, whose write is
 * made on a CPU of the node; sock_node= corrects the numbering if the
 * socket ids are not 0-3 (e.g. sock_node=2,3,0,1).
 */
static int sock_node[HVPMU_SUN4V_VF_NODES] = { 0, 1, 2, 3 };
module_param_array(sock_node, int, NULL, 0444);
MODULE_PARM_DESC(sock_node, "T2+ node of each socket id (default 0,1,2,3)");

static int glue_cpu_node(void *ctx, unsigned int cpu)
{
	unsigned int sock = cpu_data(cpu).sock_id;

	if (sock >= ARRAY_SIZE(sock_node) || sock_node[sock] < 0 ||
	    sock_node[sock] >= HVPMU_SUN4V_VF_NODES)
		return -ENODEV;
	return sock_node[sock];
}

struct glue_set_args {
	struct hvpmu_sun4v_glue *g;
	unsigned long reg;
	u64 val;
	unsigned long status;
};

static void glue_set_here(void *info)
{
	struct glue_set_args *a = info;

	a->status = glue_set_perfreg(a->g, a->reg, a->val);
}

/* PerfReg 1 acts on the caller's node: make the call on a CPU there. */
static unsigned long glue_set_node_perfreg(void *ctx, unsigned int node,
					   unsigned long reg, u64 val)
{
	struct glue_set_args a = { .g = ctx, .reg = reg, .val = val };
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (glue_cpu_node(ctx, cpu) != node)
			continue;
		/* -ENXIO: it went offline meanwhile; try another one. */
		if (!smp_call_function_single(cpu, glue_set_here, &a, 1))
			return a.status;
	}
	return HV_ENOTSUPPORTED;
}

static const struct hvpmu_sun4v_ops glue_ops = {
	.get_perfreg = glue_get_perfreg,
	.set_perfreg = glue_set_perfreg,
	.set_node_perfreg = glue_set_node_perfreg,
	.cpu_node = glue_cpu_node,
};

/* CPU PMU l2ctl provider (T2+ only). */
static int glue_l2ctl_get(int cpu, u32 enc, unsigned int l2ctl)
{
	return hvpmu_sun4v_l2ctl_event_get(dram, cpu, enc, l2ctl);
}

static void glue_l2ctl_put(int cpu, u32 enc, unsigned int l2ctl)
{
	hvpmu_sun4v_l2ctl_event_put(dram, cpu, enc, l2ctl);
}

static const struct sparc_pmu_l2ctl_ops glue_l2ctl_ops = {
	.owner = THIS_MODULE,
	.get = glue_l2ctl_get,
	.put = glue_l2ctl_put,
};

/* PCR writes with HT: 0x105 on a T2, 0x107 on a T2+. */
static bool glue_pcr_ht_write(u64 val)
{
	return hvpmu_sun4v_pcr_write(dram, val);
}

static const struct pcr_ht_ops glue_pcr_ht_ops = {
	.write = glue_pcr_ht_write,
};

static bool l2ctl_registered;
static bool ht_registered;

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
	struct hvpmu_sun4v_desc desc = { .ops = &glue_ops, .ctx = &glue,
					 .owner = THIS_MODULE };
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

	/* Both optional: without them the CPU PMU works as before. */
	err = pcr_register_ht_ops(&glue_pcr_ht_ops);
	if (err)
		pr_warn("PCR HT writer not registered (%d)\n", err);
	ht_registered = !err;
	if (desc.chip == HVPMU_SUN4V_VF) {
		err = sparc_pmu_register_l2ctl(&glue_l2ctl_ops);
		if (err)
			pr_warn("CPU PMU l2ctl provider not registered (%d)\n",
				err);
		l2ctl_registered = !err;
	}
	return 0;
}
module_init(hvpmu_sun4v_perfreg_init);

static void __exit hvpmu_sun4v_perfreg_exit(void)
{
	/* Events holding an L2 setting pin this module: none is left. */
	if (l2ctl_registered)
		sparc_pmu_unregister_l2ctl(&glue_l2ctl_ops);
	if (ht_registered)
		pcr_unregister_ht_ops(&glue_pcr_ht_ops);
	hvpmu_sun4v_dram_remove(dram);
	sun4v_hvapi_unregister(glue.group);
}
module_exit(hvpmu_sun4v_perfreg_exit);

MODULE_DESCRIPTION("sun4v perfreg hypercalls for the niagara2_dram/vfalls_dram PMUs");
MODULE_LICENSE("GPL");
