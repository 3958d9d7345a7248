/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS Coherence Manager performance counters (perf PMU "mips_cm").
 *
 * The counters live in the CM's Global Debug Block (GCR base + 0x6000): a
 * 32-bit cycle counter and (normally) two 32-bit event counters, each with
 * an 8-bit event select and a 32-bit qualifier. The arch-neutral driver
 * reaches them only through &struct hvpmu_mips_cm_ops, so that the same code
 * runs on the hardware (arch/mips glue) and on the register-level model used
 * by the KUnit tests and the simulated platform.
 */
#ifndef _LINUX_PERF_HVPMU_MIPS_CM_H
#define _LINUX_PERF_HVPMU_MIPS_CM_H

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/types.h>

struct dentry;

/* Offset of the Global Debug Block from the GCR base */
#define MIPS_CM_PC_GDB_OFS		0x6000

/* Register offsets within the Global Debug Block */
#define MIPS_CM_PC_CTL			0x100
#define MIPS_CM_PC_OV			0x120
#define MIPS_CM_PC_EVENT		0x130
#define MIPS_CM_PC_CYCLE		0x180
#define MIPS_CM_PC_QUAL(n)		(0x190 + 0x10 * (n))
#define MIPS_CM_PC_CNT(n)		(0x198 + 0x10 * (n))

/* GCR_DB_PC_CTL */
#define MIPS_CM_PC_CTL_INT_EN		BIT(30)
#define MIPS_CM_PC_CTL_OVF_STOP		BIT(29)
#define MIPS_CM_PC_CTL_NUM_CNT		GENMASK(3, 0)

/*
 * Counter index used throughout: 0 is the cycle counter, 1 + n is event
 * counter n. With it, the GCR_DB_PC_OV bit is BIT(idx), CountOn is bit
 * 4 + 2 * idx and the matching Reset bit is the next one up.
 */
#define MIPS_CM_PC_CYCLE_IDX		0
#define MIPS_CM_PC_MAX_CNT		2
#define MIPS_CM_PC_NR_IDX		(1 + MIPS_CM_PC_MAX_CNT)
#define MIPS_CM_PC_CTL_COUNTON(idx)	BIT(4 + 2 * (idx))
#define MIPS_CM_PC_CTL_RESET(idx)	BIT(5 + 2 * (idx))
#define MIPS_CM_PC_OV_BIT(idx)		BIT(idx)
#define MIPS_CM_PC_OV_ALL		GENMASK(MIPS_CM_PC_NR_IDX - 1, 0)
/* GCR_DB_PC_EVENT: the event of counter n (not of the cycle counter) */
#define MIPS_CM_PC_EVENT_SEL(n)		(GENMASK(7, 0) << (8 * (n)))

/**
 * struct hvpmu_mips_cm_ops - access to the Global Debug Block
 *
 * Both calls may be made with interrupts disabled and a raw spinlock held;
 * they must not sleep. The driver serialises all calls of one PMU.
 */
struct hvpmu_mips_cm_ops {
	/**
	 * @read: read the 32-bit register at @off in the Global Debug Block
	 * (@off is one of the MIPS_CM_PC_* offsets). Where the GCRs are
	 * 64-bit (CM3 with a 64-bit kernel) the backend makes a 64-bit access
	 * and returns the low 32 bits. MMIO cannot fail; a block that does
	 * not answer reads all ones, which the driver checks at probe.
	 */
	u32 (*read)(void *ctx, unsigned int off);
	/**
	 * @write: write @val to the 32-bit register at @off; for 64-bit GCRs
	 * the upper 32 bits are written as zero.
	 */
	void (*write)(void *ctx, unsigned int off, u32 val);
};

/**
 * struct hvpmu_mips_cm_platdata - what the platform tells the driver
 * @ops: register access
 * @ctx: passed to every @ops call
 * @irq: Linux IRQ number of the CM performance interrupt (CM_PCInt), or 0
 *	(or negative) when the platform does not describe one; the driver then
 *	extends the counters by polling
 * @cm_rev: GCR_REV of the CM (e.g. 0x0600 for CM2), only logged and used to
 *	warn about unverified layouts; 0 if unknown
 * @poll_period_ms: polling period, 0 for the default (module parameter
 *	poll_period_ms)
 * @owner: module providing @ops (the glue, or the simulated platform); it
 *	owns the PMU, so it cannot be unloaded while an event is open
 */
struct hvpmu_mips_cm_platdata {
	const struct hvpmu_mips_cm_ops *ops;
	void *ctx;
	int irq;
	u32 cm_rev;
	unsigned int poll_period_ms;
	struct module *owner;
};

struct hvpmu_mips_cm;

struct hvpmu_mips_cm *hvpmu_mips_cm_probe(const struct hvpmu_mips_cm_platdata *pd,
					  const char *name);
void hvpmu_mips_cm_remove(struct hvpmu_mips_cm *cm);
struct pmu *hvpmu_mips_cm_pmu(struct hvpmu_mips_cm *cm);
bool hvpmu_mips_cm_polling(struct hvpmu_mips_cm *cm);

/* Register-level model of the debug block (CONFIG_HVPMU_MODELS) */

/**
 * enum hvpmu_mips_cm_fault - faults the model can raise
 * @HVPMU_MIPS_CM_FAULT_DEAD: the block does not answer: reads return all
 *	ones and writes are dropped (unmapped or powered-down block)
 * @HVPMU_MIPS_CM_FAULT_STATE_LOSS: one-shot: every register returns to its
 *	reset value, as after a CM/cluster power-down
 * @HVPMU_MIPS_CM_FAULT_OVF_STOP: another agent (firmware, a debugger) sets
 *	Perf_Ovf_Stop, so that the next wrap stops all counters
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

/**
 * struct hvpmu_mips_cm_model_stats - calls the driver made into the model
 * @reads: register reads, indexed by offset / 8 within 0x100..0x1af
 *	(see hvpmu_mips_cm_model_reg_idx())
 * @writes: register writes, same index
 * @resets: per counter index, how often a Reset bit reset the counter
 * @irqs: how often the interrupt line was raised
 * @dropped: events not counted because Perf_Ovf_Stop had stopped counting
 */
struct hvpmu_mips_cm_model_stats {
	u64 reads[0x16];
	u64 writes[0x16];
	u64 resets[MIPS_CM_PC_NR_IDX];
	u64 irqs;
	u64 dropped;
};

struct hvpmu_mips_cm_model;

/**
 * hvpmu_mips_cm_model_reg_idx() - index of a register in the stats arrays
 * @off: register offset (MIPS_CM_PC_*)
 *
 * Return: (@off - 0x100) / 8.
 */
static inline unsigned int hvpmu_mips_cm_model_reg_idx(unsigned int off)
{
	return (off - 0x100) / 8;
}

extern const struct hvpmu_mips_cm_ops hvpmu_mips_cm_model_ops;

struct hvpmu_mips_cm_model *hvpmu_mips_cm_model_create(unsigned int num_cnt);
void hvpmu_mips_cm_model_destroy(struct hvpmu_mips_cm_model *m);
void hvpmu_mips_cm_model_set_irq(struct hvpmu_mips_cm_model *m,
				 void (*raise)(void *arg), void *arg);
void hvpmu_mips_cm_model_set_hook(struct hvpmu_mips_cm_model *m,
				  void (*hook)(void *arg, unsigned int off,
					       bool write),
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
