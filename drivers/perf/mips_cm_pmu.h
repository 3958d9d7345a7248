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

struct dentry;

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
 * @owner: module providing @ops (this driver, or the simulated platform of
 *	the tests); it owns the PMU, so it cannot be unloaded while an event
 *	is open
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

#if IS_ENABLED(CONFIG_KUNIT)
/* The debug block's register access, for the KUnit suite */
extern const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops;
void *mips_cm_pmu_gdb_ctx(void __iomem *gcr_base);
#endif

/* Register-level model of the debug block (drivers/perf/tests/mips_cm_model.c) */

/**
 * enum mips_cm_pmu_reading - the model's reading of "overflow"
 * @MIPS_CM_PMU_OV_AT_MAX: the seed's wording: a counter's status bit
 *	(and CM_PCInt) rises when it *reaches* 0xFFFFFFFF; with Perf_Ovf_Stop
 *	every counter stops there, the overflowed one holding 0xFFFFFFFF
 * @MIPS_CM_PMU_OV_AT_WRAP: the status bit rises on the wrap from
 *	0xFFFFFFFF to 0; with Perf_Ovf_Stop the overflowed counter holds 0
 */
enum mips_cm_pmu_reading {
	MIPS_CM_PMU_OV_AT_MAX,
	MIPS_CM_PMU_OV_AT_WRAP,
};

/**
 * enum mips_cm_pmu_fault - faults the model can raise
 * @MIPS_CM_PMU_FAULT_DEAD: the block does not answer: reads return all
 *	ones and writes are dropped (unmapped or powered-down block)
 * @MIPS_CM_PMU_FAULT_STATE_LOSS: one-shot: every register returns to its
 *	reset value, as after a CM/cluster power-down
 * @MIPS_CM_PMU_FAULT_OVF_STOP: another agent (firmware, a debugger)
 *	holds Perf_Ovf_Stop set: it reads as set and writes cannot clear it
 * @MIPS_CM_PMU_FAULT_OV_STUCK: writes of one to GCR_DB_PC_OV do not clear
 *	the status bits (and the interrupt line stays asserted)
 * @MIPS_CM_PMU_FAULT_SPURIOUS_IRQ: one-shot: raise the interrupt line
 *	with no overflow status bit set
 * @MIPS_CM_PMU_NR_FAULTS: number of faults
 */
enum mips_cm_pmu_fault {
	MIPS_CM_PMU_FAULT_DEAD,
	MIPS_CM_PMU_FAULT_STATE_LOSS,
	MIPS_CM_PMU_FAULT_OVF_STOP,
	MIPS_CM_PMU_FAULT_OV_STUCK,
	MIPS_CM_PMU_FAULT_SPURIOUS_IRQ,
	MIPS_CM_PMU_NR_FAULTS,
};

/* Counters of the model: 0 is the cycle counter, 1 + n event counter n. */
#define MIPS_CM_PMU_MODEL_NR_CNT	3
/* Access counters: one per 8 bytes of the debug block below 0x1b0 */
#define MIPS_CM_PMU_MODEL_NR_REGS	(0x1b0 / 8)

/**
 * struct mips_cm_model_stats - what happened in the model
 * @reads: register reads by the driver, indexed by offset / 8 (offsets
 *	below 0x1b0 within the debug block, which hold every register)
 * @writes: register writes by the driver, same index
 * @resets: per model counter, how often a Reset bit reset it
 * @wraps: per model counter, wraps from 0xFFFFFFFF to 0
 * @dropped: per model counter, events not counted because Perf_Ovf_Stop
 *	had stopped counting
 * @irqs: how often the interrupt line was raised
 */
struct mips_cm_model_stats {
	u32 reads[MIPS_CM_PMU_MODEL_NR_REGS];
	u32 writes[MIPS_CM_PMU_MODEL_NR_REGS];
	u64 resets[MIPS_CM_PMU_MODEL_NR_CNT];
	u64 wraps[MIPS_CM_PMU_MODEL_NR_CNT];
	u64 dropped[MIPS_CM_PMU_MODEL_NR_CNT];
	u64 irqs;
};

struct mips_cm_model;

extern const struct mips_cm_pmu_ops mips_cm_model_ops;

struct mips_cm_model *mips_cm_model_create(unsigned int num_cnt);
void mips_cm_model_destroy(struct mips_cm_model *m);
void mips_cm_model_set_reading(struct mips_cm_model *m,
			       enum mips_cm_pmu_reading reading);
void mips_cm_model_set_irq(struct mips_cm_model *m,
			   void (*raise)(void *arg), void *arg);
void mips_cm_model_set_hook(struct mips_cm_model *m,
			    void (*hook)(void *arg, unsigned int off,
					 bool write, u32 val),
				  void *arg);
void mips_cm_model_inject(struct mips_cm_model *m, u8 event,
			  u32 qualifier, u64 n);
void mips_cm_model_cycles(struct mips_cm_model *m, u64 n);
void mips_cm_model_fault(struct mips_cm_model *m,
			 enum mips_cm_pmu_fault fault, bool on);
u32 mips_cm_model_peek(struct mips_cm_model *m, unsigned int off);
void mips_cm_model_poke(struct mips_cm_model *m, unsigned int off,
			u32 val);
void mips_cm_model_stats(struct mips_cm_model *m,
			 struct mips_cm_model_stats *st);
bool mips_cm_model_line(struct mips_cm_model *m);

int mips_cm_pmu_sim_start(struct dentry *dir, struct module *owner);
void mips_cm_pmu_sim_exit(void);

/**
 * mips_cm_pmu_sim_init() - "mips_cm" on the model, for the simulated
 *	platform
 * @dir: debugfs directory for the model's files
 *
 * The caller's module owns the PMU, so it cannot be unloaded while an event
 * is open. See mips_cm_pmu_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int mips_cm_pmu_sim_init(struct dentry *dir)
{
	return mips_cm_pmu_sim_start(dir, THIS_MODULE);
}

#endif /* _MIPS_CM_PMU_H */
