/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register-level model of the CM Global Debug Block
 * (drivers/perf/tests/mips_cm_model.c), for the KUnit suites.
 */
#ifndef _MIPS_CM_MODEL_H
#define _MIPS_CM_MODEL_H

#include "../mips_cm_pmu.h"

/**
 * enum mips_cm_pmu_reading - the model's reading of "overflow"
 * @MIPS_CM_PMU_OV_AT_MAX: the documentation's wording: a counter's status
 *	bit (and CM_PCInt) rises when it *reaches* 0xFFFFFFFF; with Perf_Ovf_Stop
 *	every counter stops there, the overflowed one holding 0xFFFFFFFF
 * @MIPS_CM_PMU_OV_AT_WRAP: the status bit rises on the wrap from
 *	0xFFFFFFFF to 0; with Perf_Ovf_Stop the overflowed counter holds 0
 */
enum mips_cm_pmu_reading {
	MIPS_CM_PMU_OV_AT_MAX,
	MIPS_CM_PMU_OV_AT_WRAP,
};

/**
 * enum mips_cm_pmu_resume - the model's reading of how counting resumes
 *	after Perf_Ovf_Stop stopped it; the specification only says that the
 *	counters "stop counting when any counter ... reaches its maximum
 *	value"
 * @MIPS_CM_PMU_RESUME_ON_CLEAR: the stop is a level: nothing counts while
 *	Perf_Ovf_Stop and any overflow status bit are set; clearing the
 *	status (or Perf_Ovf_Stop) lets counting go on
 * @MIPS_CM_PMU_RESUME_ON_CTL: the stop is latched when a status bit rises
 *	under Perf_Ovf_Stop and holds, whatever the status, until
 *	GCR_DB_PC_CTL is written again
 */
enum mips_cm_pmu_resume {
	MIPS_CM_PMU_RESUME_ON_CLEAR,
	MIPS_CM_PMU_RESUME_ON_CTL,
};

/**
 * enum mips_cm_pmu_latch - the model's reading of how CM_PCInt follows
 *	Perf_Int_En; the specification only says that an interrupt "is
 *	generated" when a counter overflows with Perf_Int_En set
 * @MIPS_CM_PMU_LATCH_GATED: the line is the status gated by Perf_Int_En:
 *	clearing Perf_Int_En drops it, whatever the status
 * @MIPS_CM_PMU_LATCH_LATCHED: the line rises as with
 *	%MIPS_CM_PMU_LATCH_GATED, but once high it stays high while any
 *	overflow status bit is set, whatever Perf_Int_En says; only clearing
 *	the status (or a reset of the block) drops it
 */
enum mips_cm_pmu_latch {
	MIPS_CM_PMU_LATCH_GATED,
	MIPS_CM_PMU_LATCH_LATCHED,
};

/**
 * enum mips_cm_pmu_fault - faults the model can raise
 * @MIPS_CM_PMU_FAULT_DEAD: the block does not answer: reads return all
 *	ones and writes are dropped (unmapped or powered-down block);
 *	CM_PCInt stays where it was
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

struct mips_cm_model *mips_cm_model_create(unsigned int num_cnt);
void mips_cm_model_destroy(struct mips_cm_model *m);
const struct mips_cm_pmu_ops *mips_cm_model_ops(struct mips_cm_model *m);
void mips_cm_model_set_reading(struct mips_cm_model *m,
			       enum mips_cm_pmu_reading reading);
void mips_cm_model_set_resume(struct mips_cm_model *m,
			      enum mips_cm_pmu_resume resume);
void mips_cm_model_set_latch(struct mips_cm_model *m,
			     enum mips_cm_pmu_latch latch);
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
u32 mips_cm_model_read(struct mips_cm_model *m, unsigned int off);
void mips_cm_model_write(struct mips_cm_model *m, unsigned int off, u32 val);
u32 mips_cm_model_peek(struct mips_cm_model *m, unsigned int off);
void mips_cm_model_poke(struct mips_cm_model *m, unsigned int off,
			u32 val);
void mips_cm_model_stats(struct mips_cm_model *m,
			 struct mips_cm_model_stats *st);
bool mips_cm_model_line(struct mips_cm_model *m);

unsigned int mips_cm_model_counting(struct mips_cm_model *m, bool cycles,
				    u8 event, u32 qual);
u32 mips_cm_model_cnt_reads(struct mips_cm_model *m, unsigned int cnt);

#endif /* _MIPS_CM_MODEL_H */
