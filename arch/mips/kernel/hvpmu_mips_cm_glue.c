// SPDX-License-Identifier: GPL-2.0
/*
 * MIPS glue of the mips_cm PMU: where the Coherence Manager's Global Debug
 * Block is, how wide its registers are, and which interrupt (if any) the
 * platform wired CM_PCInt to. All perf logic is in drivers/perf.
 *
 * Interrupt: this reads the device tree node compatible with "mti,mips-cm"
 * and takes its interrupt named "perf" (interrupts + interrupt-names). The
 * upstream mti,mips-cm binding has no interrupts yet; without one the
 * driver polls.
 */

#define pr_fmt(fmt) "mips_cm: " fmt

#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/perf/hvpmu_mips_cm.h>

#include <asm/mips-cm.h>

static struct hvpmu_mips_cm *mips_cm_pmu;

static void __iomem *gdb_addr(unsigned int off)
{
	return mips_gcr_base + MIPS_CM_PC_GDB_OFS + off;
}

/*
 * The performance registers are 32-bit on CM2. CM3 GCRs are 64-bit and a
 * 64-bit kernel accesses them with 64-bit loads and stores (mips_cm_is64),
 * as the mips-cm accessors do; whether the CM3 counters are wider than 32
 * bits is unknown, so only the low word is used.
 */
static u32 gdb_read(void *ctx, unsigned int off)
{
#ifdef CONFIG_64BIT
	if (mips_cm_is64)
		return lower_32_bits(__raw_readq(gdb_addr(off)));
#endif
	return __raw_readl(gdb_addr(off));
}

static void gdb_write(void *ctx, unsigned int off, u32 val)
{
#ifdef CONFIG_64BIT
	if (mips_cm_is64) {
		__raw_writeq(val, gdb_addr(off));
		return;
	}
#endif
	__raw_writel(val, gdb_addr(off));
}

static const struct hvpmu_mips_cm_ops gdb_ops = {
	.read = gdb_read,
	.write = gdb_write,
};

static int mips_cm_pmu_irq(void)
{
	struct device_node *np;
	int irq;

	np = of_find_compatible_node(NULL, NULL, "mti,mips-cm");
	if (!np)
		return 0;
	irq = of_irq_get_byname(np, "perf");
	of_node_put(np);
	/* -EPROBE_DEFER cannot be waited for here: poll instead */
	return irq > 0 ? irq : 0;
}

static int __init mips_cm_pmu_init(void)
{
	struct hvpmu_mips_cm_platdata pd = {
		.ops = &gdb_ops,
		.owner = THIS_MODULE,
	};
	struct hvpmu_mips_cm *cm;

	if (!mips_cm_present())
		return -ENODEV;

	pd.cm_rev = mips_cm_revision();
	pd.irq = mips_cm_pmu_irq();
	cm = hvpmu_mips_cm_probe(&pd, "mips_cm");
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	mips_cm_pmu = cm;
	return 0;
}
module_init(mips_cm_pmu_init);

static void __exit mips_cm_pmu_exit(void)
{
	hvpmu_mips_cm_remove(mips_cm_pmu);
}
module_exit(mips_cm_pmu_exit);

MODULE_DESCRIPTION("MIPS Coherence Manager PMU: platform glue");
MODULE_LICENSE("GPL");
