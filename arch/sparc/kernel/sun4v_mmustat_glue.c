// SPDX-License-Identifier: GPL-2.0
/*
 * sun4v glue of the niagara_mmustat PMU: the NIAGARA_MMUSTAT_CONF/INFO fast
 * traps (0x102/0x103, API group 0x200 version 1.0), buffer memory, and the
 * %tick frequency. All perf logic is in drivers/perf/sun4v_mmustat_pmu.c.
 *
 * The kernel's own wrappers sun4v_mmustat_conf()/sun4v_mmustat_info() in
 * hvcalls.S are correct but not exported, so this module, which may be
 * built as a module, issues the two fast traps itself.
 */

#define pr_fmt(fmt) "niagara_mmustat: " fmt

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/kmemleak.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include "../../../drivers/perf/sun4v_mmustat_pmu.h"
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include <asm/hypervisor.h>
#include <asm/spitfire.h>
#include <asm/timer_64.h>

/* The driver's numbers are the architected ones. */
static_assert(SUN4V_MMUSTAT_PMU_FAST_CONF == HV_FAST_MMUSTAT_CONF);
static_assert(SUN4V_MMUSTAT_PMU_FAST_INFO == HV_FAST_MMUSTAT_INFO);
static_assert(SUN4V_MMUSTAT_PMU_API_GROUP == HV_GRP_NIAG_PERF);
static_assert(SUN4V_MMUSTAT_PMU_EOK == HV_EOK);
static_assert(SUN4V_MMUSTAT_PMU_ENORADDR == HV_ENORADDR);
static_assert(SUN4V_MMUSTAT_PMU_EBADTRAP == HV_EBADTRAP);
static_assert(SUN4V_MMUSTAT_PMU_EBADALIGN == HV_EBADALIGN);
static_assert(sizeof(struct hv_mmu_statistics) == SUN4V_MMUSTAT_PMU_BUF_SIZE);

struct sun4v_mmustat_call {
	unsigned long func;
	unsigned long arg0;
	unsigned long ret1;
	unsigned long status;
};

/* One fast trap: function in %o5, argument in %o0; status %o0, value %o1. */
static unsigned long sun4v_mmustat_hcall(unsigned long func_nr,
					 unsigned long raddr,
					 unsigned long *ret1)
{
	register unsigned long func asm("%o5") = func_nr;
	register unsigned long arg0 asm("%o0") = raddr;
	register unsigned long arg1 asm("%o1");

	asm volatile("ta	%[trap]"
		     : "+r" (arg0), "=r" (arg1), "+r" (func)
		     : [trap] "i" (HV_FAST_TRAP)
		     : "%o2", "%o3", "%o4", "cc", "memory");
	*ret1 = arg1;
	return arg0;
}

static void sun4v_mmustat_trap(void *data)
{
	struct sun4v_mmustat_call *c = data;

	c->status = sun4v_mmustat_hcall(c->func, c->arg0, &c->ret1);
}

/*
 * The hypercalls act on the calling virtual CPU. The driver calls on @cpu
 * with interrupts disabled; anything else is routed there by an IPI.
 */
static unsigned long sun4v_mmustat_call_on(unsigned int cpu,
					   unsigned long func,
					   unsigned long arg0, u64 *ret1)
{
	struct sun4v_mmustat_call c = { .func = func, .arg0 = arg0 };
	unsigned long flags;

	if (cpu == get_cpu()) {
		local_irq_save(flags);
		sun4v_mmustat_trap(&c);
		local_irq_restore(flags);
	} else if (WARN_ON_ONCE(irqs_disabled()) ||
		   smp_call_function_single(cpu, sun4v_mmustat_trap, &c, 1)) {
		/* Not callable there: report "not supported" to be safe. */
		c.status = HV_EBADTRAP;
		c.ret1 = 0;
	}
	put_cpu();
	*ret1 = c.ret1;
	return c.status;
}

static unsigned long sun4v_pmu_info(void *ctx, unsigned int cpu, u64 *raddr)
{
	return sun4v_mmustat_call_on(cpu, SUN4V_MMUSTAT_PMU_FAST_INFO, 0, raddr);
}

static unsigned long sun4v_pmu_conf(void *ctx, unsigned int cpu, u64 raddr,
				    u64 *prev)
{
	return sun4v_mmustat_call_on(cpu, SUN4V_MMUSTAT_PMU_FAST_CONF, raddr, prev);
}

static void *sun4v_mmustat_buf_alloc(void *ctx, unsigned int cpu, u64 *raddr)
{
	void *buf;

	/* kmalloc() aligns power-of-two sizes naturally: 512 > 64 bytes. */
	BUILD_BUG_ON(!is_power_of_2(SUN4V_MMUSTAT_PMU_BUF_SIZE) ||
		     SUN4V_MMUSTAT_PMU_BUF_SIZE < SUN4V_MMUSTAT_PMU_BUF_ALIGN);
	buf = kzalloc_node(SUN4V_MMUSTAT_PMU_BUF_SIZE, GFP_KERNEL,
			   cpu_to_node(cpu));
	if (!buf)
		return NULL;
	*raddr = __pa(buf);
	return buf;
}

static void sun4v_mmustat_buf_free(void *ctx, unsigned int cpu, void *buf,
				   u64 raddr)
{
	kfree(buf);
}

/* The hypervisor may still write it: never freed, and not a leak to report. */
static void sun4v_mmustat_buf_leak(void *ctx, unsigned int cpu, void *buf,
				   u64 raddr)
{
	kmemleak_not_leak(buf);
}

/*
 * A buffer configured by someone else, e.g. the per-cpu buffer of
 * cpuN/mmustat_enable (arch/sparc/kernel/sysfs.c, which passes __pa() of a
 * linearly mapped address). Real memory is linearly mapped on sparc64, so
 * __va() is a permanent mapping usable with interrupts disabled.
 */
static const void *sun4v_mmustat_map(void *ctx, u64 raddr)
{
	if (!pfn_valid(PHYS_PFN(raddr)) ||
	    !pfn_valid(PHYS_PFN(raddr + SUN4V_MMUSTAT_PMU_BUF_SIZE - 1)))
		return NULL;
	return __va(raddr);
}

/*
 * "ticks" are %tick deltas (seed 2.3). On the T1 %tick counts CPU cycles
 * at the clock-frequency of the machine description, which is what
 * sparc64_get_clock_tick() returns (inferred; no source states the %tick
 * rate of the T1 explicitly).
 */
static u64 sun4v_mmustat_tick_hz(void *ctx, unsigned int cpu)
{
	return sparc64_get_clock_tick(cpu);
}

static const struct sun4v_mmustat_pmu_ops sun4v_mmustat_ops = {
	.info = sun4v_pmu_info,
	.conf = sun4v_pmu_conf,
	.buf_alloc = sun4v_mmustat_buf_alloc,
	.buf_free = sun4v_mmustat_buf_free,
	.buf_leak = sun4v_mmustat_buf_leak,
	.map = sun4v_mmustat_map,
	.tick_hz = sun4v_mmustat_tick_hz,
};

static struct sun4v_mmustat_pmu *sun4v_mmustat;

static int __init sun4v_mmustat_init(void)
{
	unsigned long minor = 0;
	int ret;

	if (tlb_type != hypervisor)
		return -ENODEV;

	/*
	 * 0x102/0x103 belong to group 0x200 v1.0; the hypervisor resolves
	 * them to EBADTRAP until the group's version is set. pcr.c already
	 * holds it on a T1; this takes our own reference.
	 */
	ret = sun4v_hvapi_register(SUN4V_MMUSTAT_PMU_API_GROUP, 1, &minor);
	if (ret) {
		pr_info("hypervisor API group 0x200 v1 not available (%d): no MMU statistics\n",
			ret);
		return -ENODEV;
	}

	sun4v_mmustat = sun4v_mmustat_pmu_probe(&sun4v_mmustat_ops, THIS_MODULE);
	if (IS_ERR(sun4v_mmustat)) {
		sun4v_hvapi_unregister(SUN4V_MMUSTAT_PMU_API_GROUP);
		return PTR_ERR(sun4v_mmustat);
	}
	return 0;
}
module_init(sun4v_mmustat_init);

static void __exit sun4v_mmustat_exit(void)
{
	sun4v_mmustat_pmu_remove(sun4v_mmustat);
	sun4v_hvapi_unregister(SUN4V_MMUSTAT_PMU_API_GROUP);
}
module_exit(sun4v_mmustat_exit);

MODULE_DESCRIPTION("sun4v glue of the niagara_mmustat PMU");
MODULE_LICENSE("GPL");
