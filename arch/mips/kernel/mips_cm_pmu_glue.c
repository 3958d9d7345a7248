// SPDX-License-Identifier: GPL-2.0
/*
 * MIPS glue of the mips_cm PMU: where the Coherence Manager's Global Debug
 * Block is, what the CPS around it looks like (clusters, IOCUs) and which
 * interrupt, if any, the platform wired CM_PCInt to. All perf logic is in
 * drivers/perf.
 *
 * Interrupt: the device tree node compatible with "mti,mips-cm" may name it
 * "perf" (Documentation/devicetree/bindings/mips/mti,mips-cm.yaml). No
 * mainline device tree does; without it the driver relies on its fold
 * timer alone.
 */

#define pr_fmt(fmt) "mips_cm: " fmt

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include "../../../drivers/perf/mips_cm_pmu.h"

#include <asm/mips-cps.h>

static struct mips_cm_pmu *mips_cm_pmu;

static void __iomem *gdb_reg(void *ctx, unsigned int off)
{
	return (void __force __iomem *)ctx + off;
}

/*
 * Every performance register is 32 bits wide (CM register specification,
 * "CM Performance Registers"), on CM3 too, whose other GCRs are 64-bit:
 * one 32-bit access, as the CPS accessors make for 32-bit GCRs
 * (CPS_ACCESSOR_*(gcr, 32, ...)). A 64-bit access would also touch the
 * neighbouring register, and on a big-endian kernel its low word is the
 * wrong half.
 */
static u32 gdb_read(void *ctx, unsigned int off)
{
	return __raw_readl(gdb_reg(ctx, off));
}

static void gdb_write(void *ctx, unsigned int off, u32 val)
{
	__raw_writel(val, gdb_reg(ctx, off));
}

/* Register access to the debug block; ctx from mips_cm_pmu_gdb_ctx(). */
VISIBLE_IF_KUNIT const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops = {
	.read = gdb_read,
	.write = gdb_write,
};
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_gdb_ops);

/**
 * mips_cm_pmu_gdb_ctx() - the ops' context for a GCR block
 * @gcr_base: the mapped GCRs (mips_gcr_base)
 *
 * Return: the Global Debug Block at GCR base + 0x6000 (MIPS_CM_GDB_OFS).
 */
VISIBLE_IF_KUNIT void *mips_cm_pmu_gdb_ctx(void __iomem *gcr_base)
{
	return (void __force *)(gcr_base + MIPS_CM_GDB_OFS);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_gdb_ctx);

static int mips_cm_pmu_irq(void)
{
	struct device_node *np;
	int irq;

	np = of_find_compatible_node(NULL, NULL, "mti,mips-cm");
	if (!np)
		return 0;
	irq = of_irq_get_byname(np, "perf");
	of_node_put(np);
	/* -EPROBE_DEFER cannot be waited for here: fold by the timer alone */
	return irq > 0 ? irq : 0;
}

static int __init mips_cm_pmu_init(void)
{
	struct mips_cm_pmu_platdata pd = {
		.ops = &mips_cm_pmu_gdb_ops,
		.owner = THIS_MODULE,
	};
	struct mips_cm_pmu *cm;
	u32 config;

	if (!mips_cm_present())
		return -ENODEV;

	pd.ctx = mips_cm_pmu_gdb_ctx(mips_gcr_base);
	pd.cm_rev = mips_cm_revision();
	/*
	 * GCR_CONFIG is 64 bits wide on CM3, but NUM_CLUSTERS and NUMIOCU
	 * are in its low word, which a 32-bit access at its offset reads on
	 * every CM: the CPS accessors read 64-bit GCRs that way where they
	 * do not use 64-bit accesses.
	 */
	config = __raw_readl((void __iomem __force *)addr_gcr_config());
	pd.nr_clusters = 1;
	if (pd.cm_rev >= CM_REV_CM3_5)
		pd.nr_clusters = FIELD_GET(CM_GCR_CONFIG_NUM_CLUSTERS, config);
	pd.nr_iocu = FIELD_GET(CM_GCR_CONFIG_NUMIOCU, config);
	pd.irq = mips_cm_pmu_irq();
	cm = mips_cm_pmu_probe(&pd, "mips_cm");
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	mips_cm_pmu = cm;
	return 0;
}
module_init(mips_cm_pmu_init);

static void __exit mips_cm_pmu_exit(void)
{
	mips_cm_pmu_remove(mips_cm_pmu);
}
module_exit(mips_cm_pmu_exit);

MODULE_DESCRIPTION("MIPS Coherence Manager PMU: platform glue");
MODULE_LICENSE("GPL");
