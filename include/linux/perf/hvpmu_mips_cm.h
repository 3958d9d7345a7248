/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and two 32-bit event counters, each with an 8-bit
 * event select and a 32-bit qualifier. The arch-neutral driver reaches them
 * only through &struct hvpmu_mips_cm_ops, so that the same code runs on the
 * hardware (arch/mips glue) and on the register-level model used by the
 * KUnit tests and the simulated platform.
 *
 * Register offsets passed through the ops are offsets within the Global
 * Debug Block, as the CM register specification lists them ("CM Performance
 * Registers - Offset 0x6000": 0x100 control ... 0x1a8 counter 1). The
 * driver, the model and the tests each spell the register map out on their
 * own, so that one typing error cannot pass everywhere.
 */
#ifndef _LINUX_PERF_HVPMU_MIPS_CM_H
#define _LINUX_PERF_HVPMU_MIPS_CM_H

#include <linux/compiler_types.h>
#include <linux/export.h>
#include <linux/kconfig.h>
#include <linux/types.h>

struct dentry;

/**
 * struct hvpmu_mips_cm_ops - access to the Global Debug Block
 *
 * Both calls may be made with interrupts disabled and a raw spinlock held;
 * they must not sleep. The driver serialises all calls of one PMU.
 */
struct hvpmu_mips_cm_ops {
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
 * struct hvpmu_mips_cm_platdata - what the platform tells the driver
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
 * @owner: module providing @ops (the glue, or the simulated platform); it
 *	owns the PMU, so it cannot be unloaded while an event is open
 */
struct hvpmu_mips_cm_platdata {
	const struct hvpmu_mips_cm_ops *ops;
	void *ctx;
	int irq;
	u32 cm_rev;
	unsigned int nr_clusters;
	int nr_iocu;
	unsigned int poll_period_ms;
	struct module *owner;
};

struct hvpmu_mips_cm;

struct hvpmu_mips_cm *hvpmu_mips_cm_probe(const struct hvpmu_mips_cm_platdata *pd,
					  const char *name);
void hvpmu_mips_cm_remove(struct hvpmu_mips_cm *cm);
struct pmu *hvpmu_mips_cm_pmu(struct hvpmu_mips_cm *cm);
bool hvpmu_mips_cm_polling(struct hvpmu_mips_cm *cm);

#if IS_ENABLED(CONFIG_KUNIT)
/* The MIPS glue's register access (arch/mips/kernel), for its KUnit test */
extern const struct hvpmu_mips_cm_ops hvpmu_mips_cm_gdb_ops;
void *hvpmu_mips_cm_gdb_ctx(void __iomem *gcr_base);
#endif

/* Register-level model of the debug block (CONFIG_HVPMU_MODELS) */

/**
 * enum hvpmu_mips_cm_reading - the model's reading of "overflow"
 * @HVPMU_MIPS_CM_OV_AT_MAX: the seed's wording: a counter's status bit
 *	(and CM_PCInt) rises when it *reaches* 0xFFFFFFFF; with Perf_Ovf_Stop
 *	every counter stops there, the overflowed one holding 0xFFFFFFFF
 * @HVPMU_MIPS_CM_OV_AT_WRAP: the status bit rises on the wrap from
 *	0xFFFFFFFF to 0; with Perf_Ovf_Stop the overflowed counter holds 0
 */
enum hvpmu_mips_cm_reading {
	HVPMU_MIPS_CM_OV_AT_MAX,
	HVPMU_MIPS_CM_OV_AT_WRAP,
};

/**
 * enum hvpmu_mips_cm_fault - faults the model can raise
 * @HVPMU_MIPS_CM_FAULT_DEAD: the block does not answer: reads return all
 *	ones and writes are dropped (unmapped or powered-down block)
 * @HVPMU_MIPS_CM_FAULT_STATE_LOSS: one-shot: every register returns to its
 *	reset value, as after a CM/cluster power-down
 * @HVPMU_MIPS_CM_FAULT_OVF_STOP: another agent (firmware, a debugger)
 *	holds Perf_Ovf_Stop set: it reads as set and writes cannot clear it
 * @HVPMU_MIPS_CM_FAULT_OV_STUCK: writes of one to GCR_DB_PC_OV do not clear
 *	the status bits (and the interrupt line stays asserted)
 * @HVPMU_MIPS_CM_FAULT_SPURIOUS_IRQ: one-shot: raise the interrupt line
 *	with no overflow status bit set
 * @HVPMU_MIPS_CM_NR_FAULTS: number of faults
 */
enum hvpmu_mips_cm_fault {
	HVPMU_MIPS_CM_FAULT_DEAD,
	HVPMU_MIPS_CM_FAULT_STATE_LOSS,
	HVPMU_MIPS_CM_FAULT_OVF_STOP,
	HVPMU_MIPS_CM_FAULT_OV_STUCK,
	HVPMU_MIPS_CM_FAULT_SPURIOUS_IRQ,
	HVPMU_MIPS_CM_NR_FAULTS,
};

/* Counters of the model: 0 is the cycle counter, 1 + n event counter n. */
#define HVPMU_MIPS_CM_MODEL_NR_CNT	3
/* Access counters: one per 8 bytes of the debug block below 0x1b0 */
#define HVPMU_MIPS_CM_MODEL_NR_REGS	(0x1b0 / 8)

/**
 * struct hvpmu_mips_cm_model_stats - what happened in the model
 * @reads: register reads by the driver, indexed by offset / 8 (offsets
 *	below 0x1b0 within the debug block, which hold every register)
 * @writes: register writes by the driver, same index
 * @resets: per model counter, how often a Reset bit reset it
 * @wraps: per model counter, wraps from 0xFFFFFFFF to 0
 * @dropped: per model counter, events not counted because Perf_Ovf_Stop
 *	had stopped counting
 * @irqs: how often the interrupt line was raised
 */
struct hvpmu_mips_cm_model_stats {
	u32 reads[HVPMU_MIPS_CM_MODEL_NR_REGS];
	u32 writes[HVPMU_MIPS_CM_MODEL_NR_REGS];
	u64 resets[HVPMU_MIPS_CM_MODEL_NR_CNT];
	u64 wraps[HVPMU_MIPS_CM_MODEL_NR_CNT];
	u64 dropped[HVPMU_MIPS_CM_MODEL_NR_CNT];
	u64 irqs;
};

struct hvpmu_mips_cm_model;

extern const struct hvpmu_mips_cm_ops hvpmu_mips_cm_model_ops;

struct hvpmu_mips_cm_model *hvpmu_mips_cm_model_create(unsigned int num_cnt);
void hvpmu_mips_cm_model_destroy(struct hvpmu_mips_cm_model *m);
void hvpmu_mips_cm_model_set_reading(struct hvpmu_mips_cm_model *m,
				     enum hvpmu_mips_cm_reading reading);
void hvpmu_mips_cm_model_set_irq(struct hvpmu_mips_cm_model *m,
				 void (*raise)(void *arg), void *arg);
void hvpmu_mips_cm_model_set_hook(struct hvpmu_mips_cm_model *m,
				  void (*hook)(void *arg, unsigned int off,
					       bool write, u32 val),
				  void *arg);
void hvpmu_mips_cm_model_inject(struct hvpmu_mips_cm_model *m, u8 event,
				u32 qualifier, u64 n);
void hvpmu_mips_cm_model_cycles(struct hvpmu_mips_cm_model *m, u64 n);
void hvpmu_mips_cm_model_fault(struct hvpmu_mips_cm_model *m,
			       enum hvpmu_mips_cm_fault fault, bool on);
u32 hvpmu_mips_cm_model_peek(struct hvpmu_mips_cm_model *m, unsigned int off);
void hvpmu_mips_cm_model_poke(struct hvpmu_mips_cm_model *m, unsigned int off,
			      u32 val);
void hvpmu_mips_cm_model_stats(struct hvpmu_mips_cm_model *m,
			       struct hvpmu_mips_cm_model_stats *st);
bool hvpmu_mips_cm_model_line(struct hvpmu_mips_cm_model *m);

int hvpmu_mips_cm_sim_start(struct dentry *dir, struct module *owner);
void hvpmu_mips_cm_sim_exit(void);

/**
 * hvpmu_mips_cm_sim_init() - "mips_cm" on the model, for the simulated
 *	platform
 * @dir: debugfs directory for the model's files
 *
 * The caller's module owns the PMU, so it cannot be unloaded while an event
 * is open. See hvpmu_mips_cm_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int hvpmu_mips_cm_sim_init(struct dentry *dir)
{
	return hvpmu_mips_cm_sim_start(dir, THIS_MODULE);
}

#endif /* _LINUX_PERF_HVPMU_MIPS_CM_H */
