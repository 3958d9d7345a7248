/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and two 32-bit event counters, each with an 8-bit
 * event select and a 32-bit qualifier. The driver reaches them only
 * through &struct mips_cm_pmu_ops, so that the same code runs on the
 * hardware (asm/mips-cm.h's read_gcr_db_pc_*() accessors) and on the
 * register-level model of the KUnit suite. This header is private to the
 * driver, its suite and its model.
 */
#ifndef _MIPS_CM_PMU_H
#define _MIPS_CM_PMU_H

#include <linux/compiler_types.h>
#include <linux/export.h>
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
 * Where they are is asm/mips-cm.h's business (and the model's): the ops
 * name a register, not an offset.
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

/**
 * struct mips_cm_pmu_ops - access to the Global Debug Block
 *
 * Both calls may be made with interrupts disabled and a raw spinlock held;
 * they must not sleep. The driver serialises all calls of one PMU.
 */
struct mips_cm_pmu_ops {
	/**
	 * @read: read the 32-bit register @reg.
	 * Every performance register is 32 bits wide, on CM3 too, so this is
	 * one 32-bit access whatever the width of the other GCRs. MMIO cannot
	 * fail; a block that does not answer reads all ones, which the
	 * driver checks.
	 */
	u32 (*read)(void *ctx, enum mips_cm_pmu_reg reg);
	/**
	 * @write: write @val to the 32-bit register @reg (one 32-bit
	 * access; the neighbouring register is never touched).
	 */
	void (*write)(void *ctx, enum mips_cm_pmu_reg reg, u32 val);
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

#if IS_ENABLED(CONFIG_KUNIT) && IS_ENABLED(CONFIG_MIPS_CM)
/* The debug block's register access, for the KUnit suite; ctx unused */
extern const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops;
#endif

#endif /* _MIPS_CM_PMU_H */
