/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and two 32-bit event counters, each with an 8-bit
 * event select and a 32-bit qualifier. The driver reaches them only
 * through &struct mips_cm_pmu_ops, so that the same code runs on the
 * hardware and on the register-level model of the KUnit suite. This header
 * is private to the driver, its suite and its model.
 *
 * Register offsets passed through the ops are offsets within the Global
 * Debug Block, as the CM register specification lists them ("CM Performance
 * Registers - Offset 0x6000": 0x100 control ... 0x1a8 counter 1). The
 * driver, the model and the tests each spell the register map out on their
 * own, so that one typing error cannot pass everywhere.
 */
#ifndef _MIPS_CM_PMU_H
#define _MIPS_CM_PMU_H

#include <linux/compiler_types.h>
#include <linux/export.h>
#include <linux/kconfig.h>
#include <linux/types.h>

/**
 * struct mips_cm_pmu_ops - access to the Global Debug Block
 *
 * Both calls may be made with interrupts disabled and a raw spinlock held;
 * they must not sleep. The driver serialises all calls of one PMU.
 */
struct mips_cm_pmu_ops {
	/**
	 * @read: read the 32-bit register at @off in the Global Debug Block.
	 * Every performance register is 32 bits wide, on CM3 too, so this is
	 * one 32-bit access whatever the width of the other GCRs. MMIO cannot
	 * fail; a block that does not answer reads all ones, which the
	 * driver checks.
	 */
	u32 (*read)(void *ctx, unsigned int off);
	/**
	 * @write: write @val to the 32-bit register at @off (one 32-bit
	 * access; the neighbouring register is never touched).
	 */
	void (*write)(void *ctx, unsigned int off, u32 val);
};

/**
 * struct mips_cm_pmu_platdata - what the platform tells the driver
 * @ops: register access
 * @ctx: passed to every @ops call
 * @irq: Linux IRQ number of the CM performance interrupt (CM_PCInt), or 0
 *	(or negative) when the platform does not describe one
 * @cm_rev: GCR_REV of the CM (e.g. 0x0600 for CM2), logged, and used to
 *	warn about revisions whose debug block layout is not verified; 0 if
 *	unknown
 * @nr_clusters: clusters in the CPS (GCR_CONFIG.NUM_CLUSTERS on CM3.5 and
 *	later, else 1). GCR accesses reach the CM of the accessing CPU's
 *	cluster, so the driver refuses more than one.
 * @nr_iocu: IOCUs in the CPS (GCR_CONFIG.NUMIOCU), or -1 if unknown; the
 *	IOCU request events are offered only for IOCUs that exist
 * @poll_period_ms: fold timer period, 0 for the default (module parameter
 *	poll_period_ms)
 * @owner: module providing @ops (this driver, or a test); it owns the PMU,
 *	so it cannot be unloaded while an event is open
 */
struct mips_cm_pmu_platdata {
	const struct mips_cm_pmu_ops *ops;
	void *ctx;
	int irq;
	u32 cm_rev;
	unsigned int nr_clusters;
	int nr_iocu;
	unsigned int poll_period_ms;
	struct module *owner;
};

struct mips_cm_pmu;

struct mips_cm_pmu *mips_cm_pmu_probe(const struct mips_cm_pmu_platdata *pd,
				      const char *name);
void mips_cm_pmu_remove(struct mips_cm_pmu *cm);
struct pmu *mips_cm_pmu_to_pmu(struct mips_cm_pmu *cm);
bool mips_cm_pmu_polling(struct mips_cm_pmu *cm);
unsigned long mips_cm_pmu_ov_stuck(struct mips_cm_pmu *cm);

#if IS_ENABLED(CONFIG_KUNIT)
/* The debug block's register access, for the KUnit suite */
extern const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops;
void *mips_cm_pmu_gdb_ctx(void __iomem *gcr_base);
#endif

#endif /* _MIPS_CM_PMU_H */
