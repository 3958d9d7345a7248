/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and two 32-bit event counters, each with an 8-bit
 * event select and a 32-bit qualifier, reached through asm/mips-cm.h's
 * read_gcr_db_pc_*() accessors. This header is private to the driver, its
 * KUnit suite and the suite's register-level model: what the suite may
 * call, and how it puts the model in place of the block.
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

/**
 * struct mips_cm_pmu_test_regs - a model in place of the debug block
 * @read: read the 32-bit register @reg
 * @write: write @val to the 32-bit register @reg
 * @ctx: passed to both
 *
 * For the KUnit suite and the simulated platform only: the driver follows
 * it only when CONFIG_MIPS_CM_PMU_KUNIT_TEST is enabled, and otherwise
 * calls asm/mips-cm.h's accessors directly. A KUnit static stub would not
 * do: it redirects only calls made by the test's own task, and the driver
 * reads the block from its fold timer, the overflow interrupt and perf's
 * calls on other CPUs too. Both calls may be made with interrupts
 * disabled and a raw spinlock held; they must not sleep.
 */
struct mips_cm_pmu_test_regs {
	u32 (*read)(void *ctx, enum mips_cm_pmu_reg reg);
	void (*write)(void *ctx, enum mips_cm_pmu_reg reg, u32 val);
	void *ctx;
};

/**
 * struct mips_cm_pmu_platdata - what the platform tells the driver
 * @test_regs: a model to use instead of the debug block (KUnit only; NULL
 *	on hardware)
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
	const struct mips_cm_pmu_test_regs *test_regs;
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
unsigned int mips_cm_pmu_cpu(struct mips_cm_pmu *cm);
int mips_cm_pmu_set_cpu(struct mips_cm_pmu *cm, unsigned int cpu);

#if IS_ENABLED(CONFIG_KUNIT)
u32 mips_cm_pmu_gdb_read(enum mips_cm_pmu_reg reg);
void mips_cm_pmu_gdb_write(enum mips_cm_pmu_reg reg, u32 val);
#endif

#endif /* _MIPS_CM_PMU_H */
