/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and two 32-bit event counters, each with an 8-bit
 * event select and a 32-bit qualifier, reached through asm/mips-cm.h's
 * read_gcr_db_pc_*() accessors. This header is private to the driver, its
 * KUnit suites and their register-level model: the registers by name, how
 * the driver reaches them (struct mips_cm_pmu_ops) and, with KUnit, what a
 * suite may call to build a PMU on its own model.
 */
#ifndef _MIPS_CM_PMU_H
#define _MIPS_CM_PMU_H

#include <linux/compiler_types.h>
#include <linux/kconfig.h>
#include <linux/types.h>

/**
 * enum mips_cm_pmu_reg - the performance registers of the debug block
 * @MIPS_CM_PC_CTL: GCR_DB_PC_CTL, control
 * @MIPS_CM_PC_OV: GCR_DB_PC_OV, overflow status (write 1 to clear)
 * @MIPS_CM_PC_EVENT: GCR_DB_PC_EVENT, event select of both event counters
 * @MIPS_CM_PC_CYCLE: GCR_DB_PC_CYCLE, cycle counter
 * @MIPS_CM_PC_QUAL0: GCR_DB_PC_QUAL0, qualifier of event counter 0
 * @MIPS_CM_PC_CNT0: GCR_DB_PC_CNT0, event counter 0
 * @MIPS_CM_PC_QUAL1: GCR_DB_PC_QUAL1, qualifier of event counter 1
 * @MIPS_CM_PC_CNT1: GCR_DB_PC_CNT1, event counter 1
 * @MIPS_CM_PC_NR_REGS: number of registers
 *
 * Where they are is asm/mips-cm.h's business (and the model's): the
 * driver names a register, not an offset.
 */
enum mips_cm_pmu_reg {
	MIPS_CM_PC_CTL,
	MIPS_CM_PC_OV,
	MIPS_CM_PC_EVENT,
	MIPS_CM_PC_CYCLE,
	MIPS_CM_PC_QUAL0,
	MIPS_CM_PC_CNT0,
	MIPS_CM_PC_QUAL1,
	MIPS_CM_PC_CNT1,
	MIPS_CM_PC_NR_REGS,
};

#if IS_ENABLED(CONFIG_KUNIT)
/* The config bits event_init accepts, per word (static without KUnit) */
extern const u64 mips_cm_format_mask[];
#endif

/**
 * struct mips_cm_pmu_ops - access to the performance registers of one block
 * @read: read the 32-bit register @reg
 * @write: write @val to the 32-bit register @reg
 * @ctx: passed to both
 *
 * The driver's own instance reaches the Global Debug Block through
 * asm/mips-cm.h's read_gcr_db_pc_*() and write_gcr_db_pc_*(); a block
 * reached another way (CM3's 64-bit GCR width, should it prove to apply to
 * these registers) would be one more instance, as the KUnit suite's
 * register-level model is. Both calls may be made with interrupts disabled
 * and a raw spinlock held, from any CPU: they must not sleep.
 */
struct mips_cm_pmu_ops {
	u32 (*read)(void *ctx, enum mips_cm_pmu_reg reg);
	void (*write)(void *ctx, enum mips_cm_pmu_reg reg, u32 val);
	void *ctx;
};

/**
 * struct mips_cm_pmu_platdata - what the platform tells the driver
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
 * @owner: module that probes the PMU (this driver, or a test); it owns
 *	the PMU, so it cannot be unloaded while an event is open
 */
struct mips_cm_pmu_platdata {
	int irq;
	u32 cm_rev;
	unsigned int nr_clusters;
	int nr_iocu;
	unsigned int poll_period_ms;
	struct module *owner;
};

struct mips_cm_pmu;

/*
 * Static without KUnit (VISIBLE_IF_KUNIT): the PMU on another block, and
 * what a test reads of its state.
 */
#if IS_ENABLED(CONFIG_KUNIT)
extern const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops;
struct mips_cm_pmu *mips_cm_pmu_probe(const struct mips_cm_pmu_platdata *pd,
				      const struct mips_cm_pmu_ops *ops,
				      const char *name);
void mips_cm_pmu_remove(struct mips_cm_pmu *cm);
void mips_cm_pmu_shutdown(struct mips_cm_pmu *cm);
struct pmu *mips_cm_pmu_to_pmu(struct mips_cm_pmu *cm);
bool mips_cm_pmu_polling(struct mips_cm_pmu *cm);
unsigned long mips_cm_pmu_ov_stuck(struct mips_cm_pmu *cm);
unsigned int mips_cm_pmu_cpu(struct mips_cm_pmu *cm);
int mips_cm_pmu_set_cpu(struct mips_cm_pmu *cm, unsigned int cpu);
#endif

#endif /* _MIPS_CM_PMU_H */
