// SPDX-License-Identifier: GPL-2.0
/*
 * Register-level model of the MIPS CM Global Debug Block performance
 * counters, for the mips_cm KUnit tests: linked into their module, it
 * exports nothing.
 *
 * Follows the MIPS CPS Coherence Manager performance register
 * documentation ("CM Performance Registers - Offset 0x6000", GCR_DB_PC_*)
 * line by line; the register map below is typed from it, not shared with
 * the driver. Where the documents leave a behaviour open the model either
 * offers each reading (enum mips_cm_pmu_reading) or makes one choice and
 * says so ("model choice").
 */

#define pr_fmt(fmt) "mips_cm model: " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include "mips_cm_model.h"
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

/* Spec: register offsets within the Global Debug Block */
#define GDB_PC_CTL		0x100	/* GCR_DB_PC_CTL */
#define GDB_PC_OV		0x120	/* GCR_DB_PC_OV */
#define GDB_PC_EVENT		0x130	/* GCR_DB_PC_EVENT */
#define GDB_PC_CYCLE		0x180	/* GCR_DB_PC_CYCLE */
#define GDB_PC_QUAL0		0x190	/* GCR_DB_PC_QUAL0 */
#define GDB_PC_CNT0		0x198	/* GCR_DB_PC_CNT0 */
#define GDB_PC_QUAL1		0x1a0	/* GCR_DB_PC_QUAL1 */
#define GDB_PC_CNT1		0x1a8	/* GCR_DB_PC_CNT1 */

/* Spec: GCR_DB_PC_CTL fields */
#define CTL_PERF_INT_EN		BIT(30)
#define CTL_PERF_OVF_STOP	BIT(29)
#define CTL_P1_RESET		BIT(9)
#define CTL_P1_COUNTON		BIT(8)
#define CTL_P0_RESET		BIT(7)
#define CTL_P0_COUNTON		BIT(6)
#define CTL_CYCL_CNT_RESET	BIT(5)
#define CTL_CYCL_CNT_COUNTON	BIT(4)
#define CTL_PERF_NUM_CNT	GENMASK(3, 0)

/* Spec: GCR_DB_PC_OV fields */
#define OV_P1_OVERFLOW		BIT(2)
#define OV_P0_OVERFLOW		BIT(1)
#define OV_CYCL_CNT_OVERFLOW	BIT(0)
#define OV_ALL			(OV_P1_OVERFLOW | OV_P0_OVERFLOW | \
				 OV_CYCL_CNT_OVERFLOW)

/* Spec: GCR_DB_PC_EVENT fields */
#define EVENT_P1		GENMASK(15, 8)
#define EVENT_P0		GENMASK(7, 0)

/* CTL bits that store what was written (Perf_Num_Cnt is read-only) */
#define CTL_STORED	(CTL_PERF_INT_EN | CTL_PERF_OVF_STOP |		\
			 CTL_P1_COUNTON | CTL_P0_COUNTON |		\
			 CTL_CYCL_CNT_COUNTON)

#define NR_CNT		MIPS_CM_PMU_MODEL_NR_CNT

/* The model's counters: 0 cycle counter, 1 counter 0, 2 counter 1 */
static const struct {
	unsigned int cnt_off;
	u32 counton;
	u32 reset;
	u32 ov;
	u32 event;		/* 0 for the cycle counter */
	unsigned int qual_off;
} model_cnt[NR_CNT] = {
	{ GDB_PC_CYCLE, CTL_CYCL_CNT_COUNTON, CTL_CYCL_CNT_RESET,
	  OV_CYCL_CNT_OVERFLOW, 0, 0 },
	{ GDB_PC_CNT0, CTL_P0_COUNTON, CTL_P0_RESET, OV_P0_OVERFLOW,
	  EVENT_P0, GDB_PC_QUAL0 },
	{ GDB_PC_CNT1, CTL_P1_COUNTON, CTL_P1_RESET, OV_P1_OVERFLOW,
	  EVENT_P1, GDB_PC_QUAL1 },
};

/**
 * struct mips_cm_model - state of one modelled debug block
 * @ops: the driver's access to this model (mips_cm_model_ops())
 * @lock: serialises register accesses and traffic; raw, because the driver
 *	calls the model with its own raw spinlock held (and, on RT, from a
 *	hard-irq timer)
 * @reading: when a status bit rises and where Perf_Ovf_Stop stops
 * @resume: how counting resumes after Perf_Ovf_Stop stopped it
 * @latch: whether CM_PCInt follows Perf_Int_En once it is high
 * @stopped: under MIPS_CM_PMU_RESUME_ON_CTL, counting is stopped until
 *	the next write of GCR_DB_PC_CTL
 * @num_cnt: Perf_Num_Cnt, the read-only CTL bits 3:0
 * @ctl: the stored CTL bits (&CTL_STORED)
 * @ctl_extra: further read-only CTL bits (tests of unknown layouts)
 * @ov: GCR_DB_PC_OV
 * @event: GCR_DB_PC_EVENT
 * @qual: GCR_DB_PC_QUAL0/1
 * @cnt: the counters, by model counter
 * @line: level of CM_PCInt
 * @faults: which &enum mips_cm_pmu_fault are active
 * @stats: access counters
 * @raise: called (without @lock) when CM_PCInt is asserted
 * @raise_arg: argument of @raise
 * @hook: called before every register access, for tests
 * @hook_arg: argument of @hook
 */
struct mips_cm_model {
	struct mips_cm_pmu_ops ops;
	raw_spinlock_t lock;
	enum mips_cm_pmu_reading reading;
	enum mips_cm_pmu_resume resume;
	enum mips_cm_pmu_latch latch;
	bool stopped;
	unsigned int num_cnt;
	u32 ctl;
	u32 ctl_extra;
	u32 ov;
	u32 event;
	u32 qual[2];
	u32 cnt[NR_CNT];
	bool line;
	unsigned long faults;
	struct mips_cm_model_stats stats;
	void (*raise)(void *arg);
	void *raise_arg;
	void (*hook)(void *arg, unsigned int off, bool write, u32 val);
	void *hook_arg;
};

static bool model_has(struct mips_cm_model *m,
		      enum mips_cm_pmu_fault f)
{
	return test_bit(f, &m->faults);
}

/* Counters that exist: the cycle counter plus Perf_Num_Cnt (at most 2). */
static unsigned int model_nr(struct mips_cm_model *m)
{
	return 1 + min_t(unsigned int, m->num_cnt, 2);
}

static u32 model_ctl(struct mips_cm_model *m)
{
	u32 ctl = m->ctl;

	if (model_has(m, MIPS_CM_PMU_FAULT_OVF_STOP))
		ctl |= CTL_PERF_OVF_STOP;
	return ctl;
}

/*
 * Spec: "an interrupt is generated when any counter ... reaches its maximum
 * value" if Perf_Int_En is set. Model choice: CM_PCInt is a level, high
 * while any status bit is set: it rises only with Perf_Int_En set; whether
 * clearing Perf_Int_En drops it again the spec does not say, so the model
 * offers both (m->latch). It is reported on every write that leaves it
 * high too, as a level interrupt is re-taken after the handler returns.
 */
static bool model_level(struct mips_cm_model *m)
{
	if (!(m->ov & OV_ALL))
		return false;
	if (model_ctl(m) & CTL_PERF_INT_EN)
		return true;
	return m->latch == MIPS_CM_PMU_LATCH_LATCHED && m->line;
}

static bool model_update_line(struct mips_cm_model *m, bool retrigger)
{
	bool was = m->line;

	m->line = model_level(m);
	if (m->line && (!was || retrigger)) {
		m->stats.irqs++;
		return true;
	}
	return false;
}

static void model_raise(struct mips_cm_model *m, bool raise)
{
	if (raise && m->raise)
		m->raise(m->raise_arg);
}

/*
 * Spec: with Perf_Ovf_Stop set, "all CM Performance counters will stop
 * counting when any counter ... reaches its maximum value". How counting
 * resumes is not said; the model offers two readings (m->resume): nothing
 * counts while Perf_Ovf_Stop and any status bit are set, so clearing the
 * status (or Perf_Ovf_Stop) lets counting go on; or the stop is latched
 * when a status bit rises and holds until GCR_DB_PC_CTL is written.
 */
static bool model_halted(struct mips_cm_model *m)
{
	if (m->resume == MIPS_CM_PMU_RESUME_ON_CTL)
		return m->stopped;
	return (model_ctl(m) & CTL_PERF_OVF_STOP) && (m->ov & OV_ALL);
}

/*
 * Count @n events on model counter @c, one reading of "overflow" or the
 * other: at 0xFFFFFFFF (the spec's "reaches its maximum value") the status
 * bit rises and a Perf_Ovf_Stop halt holds the counter there; or on the wrap
 * to 0, where a halt holds it at 0. Either way the counter then wraps to 0
 * and counts on ("rolls over and continues counting from 0").
 */
static void model_count(struct mips_cm_model *m, unsigned int c, u64 n)
{
	while (n) {
		u32 v = m->cnt[c];
		u64 room;

		if (model_halted(m)) {
			m->stats.dropped[c] += n;
			return;
		}
		if (m->reading == MIPS_CM_PMU_OV_AT_MAX) {
			if (v == U32_MAX) {
				m->cnt[c] = 0;
				m->stats.wraps[c]++;
				n--;
				continue;
			}
			room = U32_MAX - v;	/* events to reach the max */
			if (n < room) {
				m->cnt[c] += n;
				return;
			}
			m->cnt[c] = U32_MAX;
		} else {
			room = (u64)U32_MAX - v + 1;	/* events to wrap */
			if (n < room) {
				m->cnt[c] += n;
				return;
			}
			m->cnt[c] = 0;
			m->stats.wraps[c]++;
		}
		n -= room;
		m->ov |= model_cnt[c].ov;
		if (model_ctl(m) & CTL_PERF_OVF_STOP)
			m->stopped = true;
	}
}

static void model_reset_all(struct mips_cm_model *m)
{
	/* Every PC register resets to 0 but Perf_Num_Cnt (Reset State) */
	m->ctl = 0;
	m->ov = 0;
	m->event = 0;
	memset(m->qual, 0, sizeof(m->qual));
	memset(m->cnt, 0, sizeof(m->cnt));
	m->line = false;
	m->stopped = false;
}

static void model_hook(struct mips_cm_model *m, unsigned int off,
		       bool write, u32 val)
{
	if (m->hook)
		m->hook(m->hook_arg, off, write, val);
}

/*
 * A register's value, under m->lock. @all: also counters and qualifiers
 * beyond Perf_Num_Cnt (tests peek at the storage); the driver's reads see
 * 0 there, as on a CM with fewer counters.
 */
static u32 model_reg(struct mips_cm_model *m, unsigned int off, bool all)
{
	switch (off) {
	case GDB_PC_CTL:
		return model_ctl(m) | m->ctl_extra | m->num_cnt;
	case GDB_PC_OV:
		return m->ov;
	case GDB_PC_EVENT:
		return m->event;
	case GDB_PC_CYCLE:
		return m->cnt[0];
	case GDB_PC_QUAL0:
		return all || m->num_cnt >= 1 ? m->qual[0] : 0;
	case GDB_PC_CNT0:
		return all || m->num_cnt >= 1 ? m->cnt[1] : 0;
	case GDB_PC_QUAL1:
		return all || m->num_cnt >= 2 ? m->qual[1] : 0;
	case GDB_PC_CNT1:
		return all || m->num_cnt >= 2 ? m->cnt[2] : 0;
	default:
		/* the interleaved trace registers read 0 here */
		return 0;
	}
}

static void model_account(u32 *counts, unsigned int off)
{
	if (off / 8 < MIPS_CM_PMU_MODEL_NR_REGS && !(off & 3))
		counts[off / 8]++;
}

static u32 model_read(void *ctx, unsigned int off)
{
	struct mips_cm_model *m = ctx;
	unsigned long flags;
	u32 val = U32_MAX;

	model_hook(m, off, false, 0);
	raw_spin_lock_irqsave(&m->lock, flags);
	model_account(m->stats.reads, off);
	if (!model_has(m, MIPS_CM_PMU_FAULT_DEAD))
		val = model_reg(m, off, false);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return val;
}

static bool model_write_ctl(struct mips_cm_model *m, u32 val)
{
	unsigned int c;

	m->ctl = val & CTL_STORED;
	m->stopped = false;
	for (c = model_nr(m); c < NR_CNT; c++)
		m->ctl &= ~model_cnt[c].counton;
	/*
	 * Spec: a Reset bit resets the counter "along with its corresponding
	 * overflow bit prior to the start of counting", and may be set in the
	 * same access as CountOn. Model choice: the reset acts on the write
	 * that carries it, whatever CountOn says, and the bit reads back 0.
	 */
	for (c = 0; c < model_nr(m); c++) {
		if (!(val & model_cnt[c].reset))
			continue;
		m->cnt[c] = 0;
		m->ov &= ~model_cnt[c].ov;
		m->stats.resets[c]++;
	}
	return model_update_line(m, false);
}

static void model_write(void *ctx, unsigned int off, u32 val)
{
	struct mips_cm_model *m = ctx;
	bool raise = false;
	unsigned long flags;

	model_hook(m, off, true, val);
	raw_spin_lock_irqsave(&m->lock, flags);
	model_account(m->stats.writes, off);
	if (model_has(m, MIPS_CM_PMU_FAULT_DEAD))
		goto out;
	switch (off) {
	case GDB_PC_CTL:
		raise = model_write_ctl(m, val);
		break;
	case GDB_PC_OV:
		/* spec: "A status bit is cleared by writing a 1 to it" */
		if (!model_has(m, MIPS_CM_PMU_FAULT_OV_STUCK))
			m->ov &= ~val;
		raise = model_update_line(m, true);
		break;
	case GDB_PC_EVENT:
		m->event = val & (EVENT_P1 | EVENT_P0);
		break;
	/* spec: the counters and qualifiers are R/W */
	case GDB_PC_CYCLE:
		m->cnt[0] = val;
		break;
	case GDB_PC_QUAL0:
		if (m->num_cnt >= 1)
			m->qual[0] = val;
		break;
	case GDB_PC_CNT0:
		if (m->num_cnt >= 1)
			m->cnt[1] = val;
		break;
	case GDB_PC_QUAL1:
		if (m->num_cnt >= 2)
			m->qual[1] = val;
		break;
	case GDB_PC_CNT1:
		if (m->num_cnt >= 2)
			m->cnt[2] = val;
		break;
	default:
		break;
	}
out:
	raw_spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}

/**
 * mips_cm_model_read() - read a register as the driver would
 * @m: the model
 * @off: its offset in the debug block (0x100 is GCR_DB_PC_CTL)
 *
 * Return: the register; all ones for a dead block.
 */
u32 mips_cm_model_read(struct mips_cm_model *m, unsigned int off)
{
	return model_read(m, off);
}

/**
 * mips_cm_model_write() - write a register as the driver would
 * @m: the model
 * @off: its offset in the debug block
 * @val: the value
 */
void mips_cm_model_write(struct mips_cm_model *m, unsigned int off, u32 val)
{
	model_write(m, off, val);
}

/* Where each register the driver names is (spec, "Offset 0x6000") */
static const unsigned int model_reg_off[MIPS_CM_PC_NR_REGS] = {
	[MIPS_CM_PC_CTL] = GDB_PC_CTL,
	[MIPS_CM_PC_OV] = GDB_PC_OV,
	[MIPS_CM_PC_EVENT] = GDB_PC_EVENT,
	[MIPS_CM_PC_CYCLE] = GDB_PC_CYCLE,
	[MIPS_CM_PC_QUAL0] = GDB_PC_QUAL0,
	[MIPS_CM_PC_CNT0] = GDB_PC_CNT0,
	[MIPS_CM_PC_QUAL1] = GDB_PC_QUAL1,
	[MIPS_CM_PC_CNT1] = GDB_PC_CNT1,
};

/*
 * A register the enum does not name is an offset the block does not
 * decode (0x1b0, just past the last counter): reads 0, writes dropped.
 */
static unsigned int model_off(enum mips_cm_pmu_reg reg)
{
	return (unsigned int)reg < MIPS_CM_PC_NR_REGS ? model_reg_off[reg] :
							0x1b0;
}

static u32 model_ops_read(void *ctx, enum mips_cm_pmu_reg reg)
{
	return model_read(ctx, model_off(reg));
}

static void model_ops_write(void *ctx, enum mips_cm_pmu_reg reg, u32 val)
{
	model_write(ctx, model_off(reg), val);
}

/**
 * mips_cm_model_ops() - the driver's access to the model
 * @m: the model
 *
 * Return: what mips_cm_pmu_probe() takes for the PMU to use @m in place of
 * the debug block; valid while @m is.
 */
const struct mips_cm_pmu_ops *mips_cm_model_ops(struct mips_cm_model *m)
{
	return &m->ops;
}

/**
 * mips_cm_model_create() - a debug block in its reset state
 * @num_cnt: the value of Perf_Num_Cnt (2 on real CMs, 0 on QEMU's), 0-15
 *
 * The reading of "overflow" starts as %MIPS_CM_PMU_OV_AT_MAX, the spec's
 * wording (see mips_cm_model_set_reading()), CM_PCInt as
 * %MIPS_CM_PMU_LATCH_GATED (see mips_cm_model_set_latch()).
 *
 * Return: the model, or NULL if out of memory or @num_cnt is too big.
 */
struct mips_cm_model *mips_cm_model_create(unsigned int num_cnt)
{
	struct mips_cm_model *m;

	if (num_cnt > FIELD_MAX(CTL_PERF_NUM_CNT))
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->ops = (struct mips_cm_pmu_ops) {
		.read = model_ops_read,
		.write = model_ops_write,
		.ctx = m,
	};
	raw_spin_lock_init(&m->lock);
	m->num_cnt = num_cnt;
	m->reading = MIPS_CM_PMU_OV_AT_MAX;
	return m;
}

/**
 * mips_cm_model_destroy() - free a model
 * @m: the model; no PMU may still use it
 */
void mips_cm_model_destroy(struct mips_cm_model *m)
{
	kfree(m);
}

/**
 * mips_cm_model_set_reading() - choose a reading of "overflow"
 * @m: the model
 * @reading: the &enum mips_cm_pmu_reading; the spec does not say which
 *	one the hardware follows, so tests run under each
 */
void mips_cm_model_set_reading(struct mips_cm_model *m,
			       enum mips_cm_pmu_reading reading)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->reading = reading;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_set_resume() - choose how counting resumes after
 *	Perf_Ovf_Stop stopped it
 * @m: the model
 * @resume: the &enum mips_cm_pmu_resume; the spec does not say, so tests
 *	run under each
 */
void mips_cm_model_set_resume(struct mips_cm_model *m,
			      enum mips_cm_pmu_resume resume)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->resume = resume;
	m->stopped = false;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_set_latch() - choose how CM_PCInt follows Perf_Int_En
 * @m: the model
 * @latch: the &enum mips_cm_pmu_latch; the spec does not say whether
 *	clearing Perf_Int_En drops a line that is high, so tests run under
 *	each
 */
void mips_cm_model_set_latch(struct mips_cm_model *m,
			     enum mips_cm_pmu_latch latch)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->latch = latch;
	m->line = model_level(m);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_set_irq() - connect CM_PCInt
 * @m: the model
 * @raise: called, without model locks held, each time the line is
 *	asserted (and again on a status write that leaves it asserted);
 *	NULL to disconnect (an interrupt that is described but never comes)
 * @arg: argument of @raise
 */
void mips_cm_model_set_irq(struct mips_cm_model *m,
			   void (*raise)(void *arg), void *arg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->raise = raise;
	m->raise_arg = arg;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_set_hook() - observe every register access
 * @m: the model
 * @hook: called before each read or write (@val is the value written, 0
 *	for reads), without model locks held, so it may inject traffic or
 *	faults at an exact point; NULL to remove
 * @arg: argument of @hook
 */
void mips_cm_model_set_hook(struct mips_cm_model *m,
			    void (*hook)(void *arg, unsigned int off,
					 bool write, u32 val),
				  void *arg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->hook = hook;
	m->hook_arg = arg;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_inject() - traffic of one event type
 * @m: the model
 * @event: the event number (GCR_DB_PC_EVENT)
 * @qualifier: the traffic's qualifier
 * @n: number of events
 *
 * Every enabled event counter whose event select is @event and whose
 * qualifier register equals @qualifier counts @n (model choice: the real
 * qualifier matching is in each core's CPS Software User's Manual).
 */
void mips_cm_model_inject(struct mips_cm_model *m, u8 event,
			  u32 qualifier, u64 n)
{
	unsigned long flags;
	bool raise = false;
	unsigned int c;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (model_has(m, MIPS_CM_PMU_FAULT_DEAD))
		goto out;
	for (c = 1; c < model_nr(m); c++) {
		if (!(m->ctl & model_cnt[c].counton) ||
		    ((m->event & model_cnt[c].event) >>
		     __ffs(model_cnt[c].event)) != event ||
		    m->qual[c - 1] != qualifier)
			continue;
		model_count(m, c, n);
	}
	raise = model_update_line(m, false);
out:
	raw_spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}

/**
 * mips_cm_model_cycles() - let CM clock cycles pass
 * @m: the model
 * @n: cycles; the cycle counter counts them when enabled
 */
void mips_cm_model_cycles(struct mips_cm_model *m, u64 n)
{
	unsigned long flags;
	bool raise = false;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (!model_has(m, MIPS_CM_PMU_FAULT_DEAD) &&
	    (m->ctl & CTL_CYCL_CNT_COUNTON)) {
		model_count(m, 0, n);
		raise = model_update_line(m, false);
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}

/**
 * mips_cm_model_fault() - raise or clear a fault
 * @m: the model
 * @fault: the &enum mips_cm_pmu_fault
 * @on: raise (true) or clear (false); one-shot faults act at once and
 *	ignore @on == false
 */
void mips_cm_model_fault(struct mips_cm_model *m,
			 enum mips_cm_pmu_fault fault, bool on)
{
	unsigned long flags;
	bool raise = false;

	raw_spin_lock_irqsave(&m->lock, flags);
	switch (fault) {
	case MIPS_CM_PMU_FAULT_STATE_LOSS:
		if (on)
			model_reset_all(m);
		break;
	case MIPS_CM_PMU_FAULT_SPURIOUS_IRQ:
		if (on) {
			m->stats.irqs++;
			raise = true;
		}
		break;
	case MIPS_CM_PMU_FAULT_DEAD:
	case MIPS_CM_PMU_FAULT_OVF_STOP:
	case MIPS_CM_PMU_FAULT_OV_STUCK:
		if (on)
			set_bit(fault, &m->faults);
		else
			clear_bit(fault, &m->faults);
		break;
	default:
		break;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}

/**
 * mips_cm_model_peek() - read a register without counting the access
 * @m: the model
 * @off: register offset in the debug block
 *
 * Return: the register's value (CTL includes Perf_Num_Cnt).
 */
u32 mips_cm_model_peek(struct mips_cm_model *m, unsigned int off)
{
	unsigned long flags;
	u32 val;

	raw_spin_lock_irqsave(&m->lock, flags);
	val = model_reg(m, off, true);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return val;
}

/**
 * mips_cm_model_poke() - set a register behind the driver
 * @m: the model
 * @off: the counter, qualifier, event select or status register, or the
 *	control register: its whole read value, Perf_Num_Cnt and reserved
 *	bits included (another agent's setting, or an unknown layout)
 * @val: the value
 *
 * Does not count as an access and does not reset anything. CM_PCInt
 * follows the new state (a level another agent left asserted reads as
 * such) but is not raised: a poke is no event the interrupt controller
 * sees.
 */
void mips_cm_model_poke(struct mips_cm_model *m, unsigned int off,
			u32 val)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	switch (off) {
	case GDB_PC_CTL:
		m->num_cnt = FIELD_GET(CTL_PERF_NUM_CNT, val);
		m->ctl = val & CTL_STORED;
		m->ctl_extra = val & ~(CTL_STORED | CTL_PERF_NUM_CNT);
		break;
	case GDB_PC_OV:
		m->ov = val & OV_ALL;
		break;
	case GDB_PC_EVENT:
		m->event = val & (EVENT_P1 | EVENT_P0);
		break;
	case GDB_PC_CYCLE:
		m->cnt[0] = val;
		break;
	case GDB_PC_QUAL0:
		m->qual[0] = val;
		break;
	case GDB_PC_CNT0:
		m->cnt[1] = val;
		break;
	case GDB_PC_QUAL1:
		m->qual[1] = val;
		break;
	case GDB_PC_CNT1:
		m->cnt[2] = val;
		break;
	}
	m->line = model_level(m);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_stats() - copy the access counters
 * @m: the model
 * @st: where to copy them
 */
void mips_cm_model_stats(struct mips_cm_model *m,
			 struct mips_cm_model_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	*st = m->stats;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * mips_cm_model_line() - level of CM_PCInt
 * @m: the model
 *
 * Return: true while the interrupt line is asserted.
 */
bool mips_cm_model_line(struct mips_cm_model *m)
{
	unsigned long flags;
	bool line;

	raw_spin_lock_irqsave(&m->lock, flags);
	line = m->line;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return line;
}

/**
 * mips_cm_model_counting() - which counters count some traffic now
 * @m: the model
 * @cycles: the cycle counter; false: the event counters
 * @event: event number (event counters only)
 * @qual: qualifier (event counters only)
 *
 * A block that does not answer (&MIPS_CM_PMU_FAULT_DEAD) counts nothing.
 *
 * Return: the mask of model counters (bit 0 the cycle counter, bit 1 + n
 * event counter n) that are on and, for an event counter, set to @event
 * and @qual.
 */
unsigned int mips_cm_model_counting(struct mips_cm_model *m, bool cycles,
				    u8 event, u32 qual)
{
	unsigned int c, mask = 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	for (c = cycles ? 0 : 1; !model_has(m, MIPS_CM_PMU_FAULT_DEAD) &&
	     c < (cycles ? 1 : model_nr(m)); c++)
		if ((m->ctl & model_cnt[c].counton) &&
		    (cycles ||
		     (((m->event & model_cnt[c].event) >>
		       __ffs(model_cnt[c].event)) == event &&
		      m->qual[c - 1] == qual)))
			mask |= BIT(c);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return mask;
}

/**
 * mips_cm_model_cnt_reads() - reads of one counter's count register
 * @m: the model
 * @cnt: the model counter (0 the cycle counter, 1 + n event counter n)
 *
 * Return: how often the driver read it, or 0 for no such counter.
 */
u32 mips_cm_model_cnt_reads(struct mips_cm_model *m, unsigned int cnt)
{
	unsigned long flags;
	u32 n;

	if (cnt >= NR_CNT)
		return 0;
	raw_spin_lock_irqsave(&m->lock, flags);
	n = m->stats.reads[model_cnt[cnt].cnt_off / 8];
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return n;
}
