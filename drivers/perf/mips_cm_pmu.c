// SPDX-License-Identifier: GPL-2.0
/*
 * MIPS Coherence Manager performance counters: perf PMU "mips_cm".
 *
 * The CM's Global Debug Block has a 32-bit cycle counter and two 32-bit
 * event counters with an event select and a qualifier each. They count
 * system-wide traffic, and any CPU reaches them: perf core's system-wide
 * scope gives the PMU its cpumask, counts every event on that CPU, moves
 * them on CPU hotplug and lets a read run on the calling CPU; one lock
 * serialises every access.
 *
 * Counts are extended to 64 bits from masked 32-bit differences only, by a
 * fold timer that runs while events count. The CM register specification
 * says the overflow status bit (and CM_PCInt) rises when a counter "reaches
 * its maximum value of 0xFFFFFFFF", not whether that is before or at the
 * wrap to 0, so the status is never part of the arithmetic; where the
 * platform describes the overflow interrupt it only folds early, and an
 * interrupt that never comes is noticed.
 *
 * The registers are reached through asm/mips-cm.h's accessors only
 * (mips_cm_pmu_gdb_ops); a KUnit suite probes a PMU of its own on its
 * register-level model, one more instance of struct mips_cm_pmu_ops.
 */

#define pr_fmt(fmt) "mips_cm: " fmt

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/perf/pmu_format.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <asm/mips-cps.h>

#include "mips_cm_pmu.h"

/* GCR_DB_PC_CTL: bits 31 and 28:10 are not defined */
#define CM_PC_CTL_RESERVED	(BIT(31) | GENMASK(28, 10))
/* "The Performance Number Count ... will always be set to 2." */
#define CM_NR_CNT		2

/*
 * Counter index used throughout: 0 is the cycle counter, 1 + n is event
 * counter n. With it, the GCR_DB_PC_OV bit is BIT(idx), CountOn is bit
 * 4 + 2 * idx and the matching Reset bit is the next one up.
 */
#define CM_CYCLE_IDX		0
#define CM_NR_IDX		(1 + CM_NR_CNT)
#define CM_PC_CTL_COUNTON(idx)	\
	(CM_GCR_DB_PC_CTL_CYCL_CNT_ON << (2 * (idx)))
#define CM_PC_CTL_RESET(idx)	\
	(CM_GCR_DB_PC_CTL_CYCL_CNT_RESET << (2 * (idx)))
#define CM_PC_CTL_COUNTON_ALL	\
	(CM_PC_CTL_COUNTON(0) | CM_PC_CTL_COUNTON(1) | CM_PC_CTL_COUNTON(2))
#define CM_PC_OV_BIT(idx)	(CM_GCR_DB_PC_OV_CYCL_CNT << (idx))
#define CM_PC_OV_ALL		GENMASK(CM_NR_IDX - 1, 0)
/* GCR_DB_PC_EVENT: the event of counter n (not of the cycle counter) */
#define CM_PC_EVENT_SEL(n)	(CM_GCR_DB_PC_EVENT_P0_EVENT << (8 * (n)))

static_assert(CM_PC_CTL_COUNTON(1) == CM_GCR_DB_PC_CTL_P0_COUNTON);
static_assert(CM_PC_CTL_RESET(1) == CM_GCR_DB_PC_CTL_P0_RESET);
static_assert(CM_PC_CTL_COUNTON(2) == CM_GCR_DB_PC_CTL_P1_COUNTON);
static_assert(CM_PC_CTL_RESET(2) == CM_GCR_DB_PC_CTL_P1_RESET);
static_assert(CM_PC_OV_ALL == (CM_GCR_DB_PC_OV_CYCL_CNT |
			       CM_GCR_DB_PC_OV_P0 | CM_GCR_DB_PC_OV_P1));
static_assert(CM_PC_EVENT_SEL(1) == CM_GCR_DB_PC_EVENT_P1_EVENT);

/* The CTL bits the driver sets and expects to read back */
#define CM_CTL_OWNED		(CM_GCR_DB_PC_CTL_PERF_INT_EN | \
				 CM_GCR_DB_PC_CTL_PERF_OVF_STOP | \
				 CM_PC_CTL_COUNTON_ALL)

/*
 * Two folds of a counter must be less than 2^32 counts apart. Assuming at
 * most one count per CM clock and a CM clock of at most 4 GHz, 2^32 counts
 * take at least 1.07 s: the default period leaves a factor of two, the
 * longest one allowed is still below that bound.
 */
#define MIPS_CM_POLL_DEFAULT_MS	500
#define MIPS_CM_POLL_MAX_MS	1000

static unsigned int poll_period_ms = MIPS_CM_POLL_DEFAULT_MS;
module_param(poll_period_ms, uint, 0444);
MODULE_PARM_DESC(poll_period_ms,
		 "Period of the counter fold timer in ms (1-1000, default 500)");

/*
 * The config ABI (sysfs format/): one mask per field, for the format file
 * and for FIELD_GET() in event_init.
 */
#define MIPS_CM_CFG_EVENT	GENMASK_ULL(7, 0)
#define MIPS_CM_CFG_CYCLES	GENMASK_ULL(8, 8)
#define MIPS_CM_CFG1_QUALIFIER	GENMASK_ULL(31, 0)

/* The highest event number the specification lists (2nd IOCU requests) */
#define MIPS_CM_EVENT_MAX	0x11

static struct attribute *mips_cm_format_attrs[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, MIPS_CM_CFG_EVENT),
	PMU_FORMAT_FIELD(cycle_counter, PMU_FORMAT_CONFIG, MIPS_CM_CFG_CYCLES),
	PMU_FORMAT_FIELD(qualifier, PMU_FORMAT_CONFIG1, MIPS_CM_CFG1_QUALIFIER),
	NULL,
};

/* The bits of those fields, per config word: what event_init accepts. */
VISIBLE_IF_KUNIT const u64 mips_cm_format_mask[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = MIPS_CM_CFG_EVENT | MIPS_CM_CFG_CYCLES,
	[PMU_FORMAT_CONFIG1] = MIPS_CM_CFG1_QUALIFIER,
};
EXPORT_SYMBOL_IF_KUNIT(mips_cm_format_mask);

static const struct attribute_group mips_cm_format_group = {
	.name = "format",
	.attrs = mips_cm_format_attrs,
};

/* Variants of the event list: which IOCUs the CPS has */
#define MIPS_CM_HAS_IOCU0	BIT(0)
#define MIPS_CM_HAS_IOCU1	BIT(1)

/*
 * The events of GCR_DB_PC_EVENT the specification lists (0-6, 8, 9, 16,
 * 17). Every event is narrowed by its qualifier, whose encoding is in the
 * core's CPS manual and is not known here, so perf asks the user for it.
 */
static struct attribute *mips_cm_event_attrs[] = {
	PMU_EVENT(cycles, "cycle_counter=1"),
	PMU_EVENT(request_count, "event=0x0,qualifier=?"),
	PMU_EVENT(coherent_req_resp, "event=0x1,qualifier=?"),
	PMU_EVENT(write_data_usage, "event=0x2,qualifier=?"),
	PMU_EVENT(command_bus_usage, "event=0x3,qualifier=?"),
	PMU_EVENT(read_data_usage, "event=0x4,qualifier=?"),
	PMU_EVENT(sharing_miss, "event=0x5,qualifier=?"),
	PMU_EVENT(response_unit_usage, "event=0x6,qualifier=?"),
	PMU_EVENT(l2_pipeline_utilization, "event=0x8,qualifier=?"),
	PMU_EVENT(l2_hits_misses, "event=0x9,qualifier=?"),
	PMU_EVENT_VARIANT(iocu0_requests, "event=0x10,qualifier=?",
			  MIPS_CM_HAS_IOCU0),
	PMU_EVENT_VARIANT(iocu1_requests, "event=0x11,qualifier=?",
			  MIPS_CM_HAS_IOCU1),
	NULL,
};

#define MIPS_CM_EVENTS_LISTED	(GENMASK(6, 0) | BIT(8) | BIT(9))
#define MIPS_CM_EVENT_IOCU0	BIT(0x10)
#define MIPS_CM_EVENT_IOCU1	BIT(0x11)

/* hw.config of an event on the cycle counter */
#define MIPS_CM_HW_CYCLES	BIT(8)

/**
 * struct mips_cm_txn - the perf transaction under way on one CPU
 * @flags: its PERF_PMU_TXN_* flags, 0 when none is
 * @checked: a read of the current read transaction checked the block
 * @readable: what that check found
 */
struct mips_cm_txn {
	unsigned int flags;
	bool checked;
	bool readable;
};

/**
 * struct mips_cm_log - the values of the messages waiting for cm_log_work()
 * @ctl_dead: control register of "debug block not answering"
 * @ctl_lost: control register of "counter state lost"
 * @ctl_want: what it should have read
 * @why: the reason of the switch to polling
 * @episode: the episode of "overflow status does not clear"
 * @cleared: the episode that "overflow status clears again" ends
 * @rearmed: the interrupt was re-armed as that episode ended
 */
struct mips_cm_log {
	u32 ctl_dead;
	u32 ctl_lost;
	u32 ctl_want;
	const char *why;
	unsigned long episode;
	unsigned long cleared;
	bool rearmed;
};

/**
 * struct mips_cm_pmu - one CM PMU
 * @pmu: the perf PMU
 * @node: CPU hotplug instance, to follow @cpu
 * @cpu: the CPU the overflow interrupt is routed to: the first online CPU
 *	at probe, as perf core designates for system-wide PMUs, and the one
 *	perf core picks when it goes offline; nr_cpu_ids while registering
 *	or unregistering
 * @ops: how the block is reached: mips_cm_pmu_gdb_ops, or a KUnit suite's
 *	model
 * @lock: serialises every register access and the fields below; the
 *	registers are shared by the whole system
 * @events: the event on each counter index (0 = cycle counter)
 * @valid_events: the event numbers this CM accepts, as a bit mask
 * @ctl: GCR_DB_PC_CTL as it should be (Perf_Int_En, CountOn of the started
 *	counters) once started counters are committed
 * @reset: Reset bits of counters started since the last commit; they are
 *	off until then
 * @evsel: shadow of GCR_DB_PC_EVENT
 * @active: number of counters allocated to events
 * @disabled: pmu_disable() nesting, over all CPUs: counters that start
 *	meanwhile wait for the commit in pmu_enable()
 * @owned: the block is ours: from the first event's start to the end of
 *	the last one, the only time the driver writes to it
 * @shut: the system is going down (mips_cm_pmu_shutdown()): the block was
 *	left stopped, is not written again, and counts stay at the last fold
 * @irq: the overflow interrupt, or 0
 * @line_on: @irq is enabled: only while the block is ours and the driver
 *	relies on the interrupt (cm_line())
 * @polling: no usable interrupt: the fold timer also clears the status
 * @ov_stuck: the overflow status did not clear at the last attempt; the
 *	fold timer tries again at every fold
 * @nr_ov_stuck: how often the overflow status stopped clearing
 * @irq_parked: the interrupt is off only while @ov_stuck: re-armed after
 *	the status clears again
 * @nr_irqs: interrupts that found an overflow, to notice a dead interrupt
 * @tick_irqs: @nr_irqs at the last timer tick
 * @tick_ov: overflow status seen at the last timer tick
 * @ov_stuck_since: when a tick first found @tick_ov still set with no
 *	interrupt in between (ktime ns), 0 while that is not the case
 * @warned: one-time warnings given (MIPS_CM_WARN_*)
 * @log_pending: messages recorded for @log_work (MIPS_CM_LOG_*)
 * @log: what those messages print; a later record of a kind overwrites an
 *	earlier one not printed yet
 * @log_work: prints the recorded messages, with no lock held: cm->lock
 *	and the callers' perf context lock must not lead to the console's
 *	locks (and through a console's wakeup to the runqueue lock, which
 *	perf takes before the context lock)
 * @period: fold timer period
 * @timer: fold timer, while @active
 * @timer_on: @timer was started and has not stopped or been cancelled
 * @variants: the IOCUs the CPS has (MIPS_CM_HAS_IOCU*), for the events
 *	sysfs shows
 * @txn: the perf transaction under way on each CPU (interrupts off): per
 *	CPU, because perf core runs the callbacks on several CPUs at once
 *	(events may be opened on any CPU, and a read runs on the reading
 *	CPU), and one CPU's commit must not end another's bracket or read
 */
struct mips_cm_pmu {
	struct pmu pmu;
	struct hlist_node node;
	unsigned int cpu;
	const struct mips_cm_pmu_ops *ops;
	raw_spinlock_t lock;
	struct perf_event *events[CM_NR_IDX];
	u32 valid_events;
	u32 ctl;
	u32 reset;
	u32 evsel;
	unsigned int active;
	unsigned int disabled;
	bool owned;
	bool shut;
	int irq;
	bool line_on;
	bool polling;
	bool ov_stuck;
	unsigned long nr_ov_stuck;
	bool irq_parked;
	unsigned long nr_irqs;
	unsigned long tick_irqs;
	u32 tick_ov;
	u64 ov_stuck_since;
	unsigned long warned;
	unsigned long log_pending;
	struct mips_cm_log log;
	struct irq_work log_work;
	ktime_t period;
	struct hrtimer timer;
	bool timer_on;
	u32 variants;
	struct mips_cm_txn __percpu *txn;
};

/* bits of @warned */
#define MIPS_CM_WARN_OVF_STOP	0
#define MIPS_CM_WARN_FALLBACK	1

/* bits of @log_pending: the messages cm_log_work() prints */
enum {
	MIPS_CM_LOG_DEAD,	/* debug block not answering */
	MIPS_CM_LOG_LOST,	/* counter state lost */
	MIPS_CM_LOG_OVF_STOP,	/* Perf_Ovf_Stop was set by someone else */
	MIPS_CM_LOG_POLLING,	/* interrupt no longer used */
	MIPS_CM_LOG_OV_STUCK,	/* overflow status does not clear */
	MIPS_CM_LOG_OV_CLEARS,	/* overflow status clears again */
};

static struct mips_cm_pmu *to_cm(struct pmu *pmu)
{
	return container_of(pmu, struct mips_cm_pmu, pmu);
}

/* Show the IOCU request events only for the IOCUs found at probe. */
static umode_t mips_cm_event_is_visible(struct kobject *kobj,
					struct attribute *attr, int i)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	return pmu_event_visible(attr, to_cm(pmu)->variants);
}

static const struct attribute_group mips_cm_events_group = {
	.name = "events",
	.attrs = mips_cm_event_attrs,
	.is_visible = mips_cm_event_is_visible,
};

static const struct attribute_group *mips_cm_attr_groups[] = {
	&mips_cm_format_group,
	&mips_cm_events_group,
	NULL,
};

/*
 * The Global Debug Block's registers, through asm/mips-cm.h's accessors:
 * one 32-bit access each, at GCR base + 0x6000 + the register's offset, as
 * the CM register specification ("CM Performance Registers") gives them.
 * Their width on CM3 is not publicly documented: were they 64-bit there,
 * a big-endian kernel would read Perf_Num_Cnt as 0 and register no PMU.
 */
static u32 cm_gdb_read(void *ctx, enum mips_cm_pmu_reg reg)
{
	switch (reg) {
	case MIPS_CM_PC_CTL:
		return read_gcr_db_pc_ctl();
	case MIPS_CM_PC_OV:
		return read_gcr_db_pc_ov();
	case MIPS_CM_PC_EVENT:
		return read_gcr_db_pc_event();
	case MIPS_CM_PC_CYCLE:
		return read_gcr_db_pc_cycle();
	case MIPS_CM_PC_QUAL0:
		return read_gcr_db_pc_qual0();
	case MIPS_CM_PC_CNT0:
		return read_gcr_db_pc_cnt0();
	case MIPS_CM_PC_QUAL1:
		return read_gcr_db_pc_qual1();
	case MIPS_CM_PC_CNT1:
		return read_gcr_db_pc_cnt1();
	default:
		return 0;
	}
}

static void cm_gdb_write(void *ctx, enum mips_cm_pmu_reg reg, u32 val)
{
	switch (reg) {
	case MIPS_CM_PC_CTL:
		write_gcr_db_pc_ctl(val);
		break;
	case MIPS_CM_PC_OV:
		write_gcr_db_pc_ov(val);
		break;
	case MIPS_CM_PC_EVENT:
		write_gcr_db_pc_event(val);
		break;
	case MIPS_CM_PC_CYCLE:
		write_gcr_db_pc_cycle(val);
		break;
	case MIPS_CM_PC_QUAL0:
		write_gcr_db_pc_qual0(val);
		break;
	case MIPS_CM_PC_CNT0:
		write_gcr_db_pc_cnt0(val);
		break;
	case MIPS_CM_PC_QUAL1:
		write_gcr_db_pc_qual1(val);
		break;
	case MIPS_CM_PC_CNT1:
		write_gcr_db_pc_cnt1(val);
		break;
	default:
		break;
	}
}

VISIBLE_IF_KUNIT const struct mips_cm_pmu_ops mips_cm_pmu_gdb_ops = {
	.read = cm_gdb_read,
	.write = cm_gdb_write,
};
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_gdb_ops);

/*
 * cm->ops is always set: to mips_cm_pmu_gdb_ops, or by a KUnit suite to
 * its model. Without the suites no other instance can exist, so the block
 * is named here as a constant: the compiler folds the table and calls the
 * accessors directly, and a kernel without the suites makes no indirect
 * call to reach a register.
 */
static const struct mips_cm_pmu_ops *cm_ops(struct mips_cm_pmu *cm)
{
	if (!IS_ENABLED(CONFIG_MIPS_CM_PMU_KUNIT_TEST))
		return &mips_cm_pmu_gdb_ops;
	return cm->ops;
}

static u32 cm_read(struct mips_cm_pmu *cm, enum mips_cm_pmu_reg reg)
{
	const struct mips_cm_pmu_ops *ops = cm_ops(cm);

	return ops->read(ops->ctx, reg);
}

/* Only with cm->lock held, as every access that may write. */
static void cm_write(struct mips_cm_pmu *cm, enum mips_cm_pmu_reg reg,
		     u32 val)
{
	const struct mips_cm_pmu_ops *ops = cm_ops(cm);

	lockdep_assert_held(&cm->lock);
	if (cm->shut)
		return;
	ops->write(ops->ctx, reg, val);
}

/* The counter register of a counter index */
static enum mips_cm_pmu_reg cm_cnt_reg(int idx)
{
	static const enum mips_cm_pmu_reg cnt[CM_NR_IDX] = {
		MIPS_CM_PC_CYCLE, MIPS_CM_PC_CNT0, MIPS_CM_PC_CNT1,
	};

	return cnt[idx];
}

/*
 * GCR_DB_PC_CTL as it should read now: counters started since the last
 * commit (a Reset bit pending, the CountOn bit below it) are still off.
 */
static u32 cm_ctl_now(struct mips_cm_pmu *cm)
{
	return cm->ctl & ~(cm->reset >> 1);
}

/*
 * Start what cm->ctl says in one write: counters started since the last
 * write go out with their Reset bit (which also clears a stale overflow
 * status), the specification allows resetting and starting all three at
 * once. The Reset bits are dropped again by the next write, so that
 * neither a self-clearing nor a level-sensitive Reset bit can ever reset a
 * running counter.
 */
static void cm_commit(struct mips_cm_pmu *cm)
{
	cm_write(cm, MIPS_CM_PC_CTL, cm->ctl | cm->reset);
	if (cm->reset) {
		cm_write(cm, MIPS_CM_PC_CTL, cm->ctl);
		cm->reset = 0;
	}
}

/*
 * What goes wrong while events count is found with cm->lock held: in the
 * overflow interrupt, in the fold timer and in perf callbacks, which run
 * under the perf context's lock (taken with the runqueue lock held).
 * printk() there would take the console's locks inside them, and a console
 * that wakes a task takes the runqueue lock again. The message is recorded
 * here, its values in cm->log, and printed by cm_log_work().
 */
static void cm_log(struct mips_cm_pmu *cm, unsigned int kind)
{
	lockdep_assert_held(&cm->lock);
	__set_bit(kind, &cm->log_pending);
	irq_work_queue(&cm->log_work);
}

static void cm_log_ov_clears(bool rearmed)
{
	pr_info_ratelimited("overflow status clears again%s\n",
			    rearmed ? "; overflow interrupt re-armed" : "");
}

/* Print the recorded messages, in hard-irq context, no lock held. */
static void cm_log_work(struct irq_work *work)
{
	struct mips_cm_pmu *cm = container_of(work, struct mips_cm_pmu,
					      log_work);
	unsigned long pending, flags;
	struct mips_cm_log log;
	bool clears_first;

	raw_spin_lock_irqsave(&cm->lock, flags);
	pending = cm->log_pending;
	cm->log_pending = 0;
	log = cm->log;
	raw_spin_unlock_irqrestore(&cm->lock, flags);

	if (pending & BIT(MIPS_CM_LOG_DEAD))
		pr_warn_ratelimited("debug block not answering (control 0x%08x); counters not read\n",
				    log.ctl_dead);
	if (pending & BIT(MIPS_CM_LOG_LOST))
		pr_warn_ratelimited("counter state lost (control 0x%08x, expected 0x%08x); reprogramming, counts since the last read are lost\n",
				    log.ctl_lost, log.ctl_want);
	if (pending & BIT(MIPS_CM_LOG_OVF_STOP))
		pr_warn("Perf_Ovf_Stop was set by someone else; resetting it at each fold\n");
	if (pending & BIT(MIPS_CM_LOG_POLLING))
		pr_warn("%s; interrupt %d no longer used, counters folded every %lld ms\n",
			log.why, cm->irq, ktime_to_ms(cm->period));
	/* an episode that ended before the next one began is told first */
	clears_first = log.cleared < log.episode;
	if ((pending & BIT(MIPS_CM_LOG_OV_CLEARS)) && clears_first)
		cm_log_ov_clears(log.rearmed);
	if (pending & BIT(MIPS_CM_LOG_OV_STUCK))
		pr_warn_ratelimited("overflow status does not clear (episode %lu); counters folded every %lld ms until it does\n",
				    log.episode, ktime_to_ms(cm->period));
	if ((pending & BIT(MIPS_CM_LOG_OV_CLEARS)) && !clears_first)
		cm_log_ov_clears(log.rearmed);
}

/*
 * Enable or disable the overflow interrupt, once each way: the line is on
 * only while it is used, so that enable_irq() and disable_irq_nosync()
 * stay balanced whichever path gives it up or takes it back. Never waits
 * for a running handler: called from it, and with cm->lock held and
 * interrupts off, which an irqchip behind a slow bus (irq_bus_lock) would
 * not allow; CM_PCInt goes to the MIPS GIC, which has none.
 */
static void cm_line(struct mips_cm_pmu *cm, bool on)
{
	if (cm->irq <= 0 || cm->line_on == on || (on && cm->shut))
		return;
	cm->line_on = on;
	if (on)
		enable_irq(cm->irq);
	else
		disable_irq_nosync(cm->irq);
}

/*
 * Perf_Int_En off and the line disabled: the fold timer goes on alone.
 * Clearing Perf_Int_En alone is not enough: the CM register specification
 * ("CM Performance Registers - Offset 0x6000", Perf_Int_En of
 * GCR_DB_PC_CTL) says that an interrupt is generated when a counter
 * reaches 0xFFFFFFFF with Perf_Int_En set, not that CM_PCInt drops when it
 * is cleared while a status bit stays set; and a block that does not
 * answer drops the write. A level line left enabled is taken again and
 * again.
 */
static void cm_irq_off(struct mips_cm_pmu *cm)
{
	cm->polling = true;
	cm->ctl &= ~CM_GCR_DB_PC_CTL_PERF_INT_EN;
	if (cm->owned)
		cm_write(cm, MIPS_CM_PC_CTL, cm_ctl_now(cm));
	cm_line(cm, false);
}

/* Stop relying on the interrupt for good. */
static void cm_to_polling(struct mips_cm_pmu *cm, const char *why)
{
	if (cm->polling && !cm->irq_parked)
		return;
	cm->irq_parked = false;
	cm_irq_off(cm);
	if (!test_and_set_bit(MIPS_CM_WARN_FALLBACK, &cm->warned)) {
		cm->log.why = why;
		cm_log(cm, MIPS_CM_LOG_POLLING);
	}
}

/*
 * The overflow status cleared after it did not: re-arm a parked interrupt.
 * The bits that stuck read clean (from cm_ov_clear(), only the bits just
 * written are read back), so CM_PCInt is low unless another counter has
 * overflowed meanwhile, latched or not: the line can be enabled again, and
 * such an overflow is taken by the handler at once.
 */
static void cm_ov_clears(struct mips_cm_pmu *cm)
{
	cm->ov_stuck = false;
	if (cm->irq_parked) {
		cm->irq_parked = false;
		cm->polling = false;
		cm->ctl |= CM_GCR_DB_PC_CTL_PERF_INT_EN;
		cm->tick_ov = 0;
		cm->tick_irqs = cm->nr_irqs;
		cm->ov_stuck_since = 0;
		if (cm->owned) {
			cm_write(cm, MIPS_CM_PC_CTL, cm_ctl_now(cm));
			cm_line(cm, true);
		}
	}
	cm->log.cleared = cm->nr_ov_stuck;
	cm->log.rearmed = cm->irq > 0 && !cm->polling;
	cm_log(cm, MIPS_CM_LOG_OV_CLEARS);
}

/*
 * Write-one-to-clear exactly the bits we have seen, so that an overflow of
 * another counter that arrives meanwhile stays pending. A bit that does not
 * clear would assert a level interrupt for as long as it stays: the
 * interrupt is parked (Perf_Int_En off, the line disabled) and the fold
 * timer tries again at every fold (a transient bus error, or a debugger
 * holding the block, need not be the end of the interrupt).
 */
static void cm_ov_clear(struct mips_cm_pmu *cm, u32 bits)
{
	cm_write(cm, MIPS_CM_PC_OV, bits);
	if (!(cm_read(cm, MIPS_CM_PC_OV) & bits)) {
		if (cm->ov_stuck)
			cm_ov_clears(cm);
		return;
	}
	if (cm->ov_stuck)
		return;
	cm->ov_stuck = true;
	WRITE_ONCE(cm->nr_ov_stuck, cm->nr_ov_stuck + 1);
	if (!cm->polling) {
		cm->irq_parked = true;
		cm_irq_off(cm);
	}
	cm->log.episode = cm->nr_ov_stuck;
	cm_log(cm, MIPS_CM_LOG_OV_STUCK);
}

/*
 * Fold the progress of a counter into its event. Only with the lock held:
 * reads of one event from two CPUs (each its own, or perf's read on the
 * calling CPU) must not both take the same progress, or order their
 * register reads one way and their exchanges the other.
 */
static void cm_fold(struct mips_cm_pmu *cm, struct perf_event *event)
{
	u32 now = cm_read(cm, cm_cnt_reg(event->hw.idx));
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add((now - prev) & GENMASK_ULL(31, 0), &event->count);
}

/* A counter that runs and whose value continues its event's count */
static bool cm_counting(struct mips_cm_pmu *cm, int idx)
{
	struct perf_event *event = cm->events[idx];

	return event && !(event->hw.state & PERF_HES_STOPPED) &&
	       !(cm->reset & CM_PC_CTL_RESET(idx));
}

/* Program the event select and qualifier of a general counter. */
static void cm_program(struct mips_cm_pmu *cm, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int n = hwc->idx - 1;

	if (hwc->idx == CM_CYCLE_IDX)
		return;
	/* qualifier before event select, as the vendor code does */
	cm_write(cm, n ? MIPS_CM_PC_QUAL1 : MIPS_CM_PC_QUAL0, hwc->config_base);
	cm->evsel &= ~CM_PC_EVENT_SEL(n);
	cm->evsel |= (u32)hwc->config << (8 * n);
	cm_write(cm, MIPS_CM_PC_EVENT, cm->evsel);
}

/*
 * Check that the block still holds what we programmed, before counters are
 * read. A CM or cluster power-down resets it (counts in between are lost;
 * folding the reset values would invent counts); another agent may set
 * Perf_Ovf_Stop, which the driver does not use because an overflow would
 * stop every counter until the next fold. A block that stops answering
 * (reads all ones, or a Perf_Num_Cnt that changed) is not read at all.
 *
 * Return: true if the counters can be read.
 */
static bool cm_check_state(struct mips_cm_pmu *cm)
{
	u32 raw, want, ctl;
	int idx;

	/* stopped at shutdown: the counts stay at the last fold */
	if (cm->shut)
		return false;
	raw = cm_read(cm, MIPS_CM_PC_CTL);
	want = cm_ctl_now(cm);
	ctl = raw & CM_CTL_OWNED;
	if (raw == U32_MAX ||
	    FIELD_GET(CM_GCR_DB_PC_CTL_PERF_NUM_CNT, raw) != CM_NR_CNT) {
		cm->log.ctl_dead = raw;
		cm_log(cm, MIPS_CM_LOG_DEAD);
		return false;
	}
	if (ctl == want)
		return true;

	if ((ctl ^ want) & CM_PC_CTL_COUNTON_ALL) {
		u32 reset = 0;

		/* counters waiting for the commit keep waiting */
		cm->log.ctl_lost = ctl;
		cm->log.ctl_want = want;
		cm_log(cm, MIPS_CM_LOG_LOST);
		cm->evsel = 0;
		for (idx = 0; idx < CM_NR_IDX; idx++) {
			struct perf_event *event = cm->events[idx];

			if (!event)
				continue;
			cm_program(cm, event);
			if (want & CM_PC_CTL_COUNTON(idx)) {
				local64_set(&event->hw.prev_count, 0);
				reset |= CM_PC_CTL_RESET(idx);
			}
		}
		cm_write(cm, MIPS_CM_PC_CTL, want | reset);
		cm_write(cm, MIPS_CM_PC_CTL, want);
		return true;
	}
	if ((ctl & CM_GCR_DB_PC_CTL_PERF_OVF_STOP) &&
	    !test_and_set_bit(MIPS_CM_WARN_OVF_STOP, &cm->warned))
		cm_log(cm, MIPS_CM_LOG_OVF_STOP);
	cm_write(cm, MIPS_CM_PC_CTL, want);
	return true;
}

static void cm_fold_all(struct mips_cm_pmu *cm)
{
	int idx;

	for (idx = 0; idx < CM_NR_IDX; idx++)
		if (cm_counting(cm, idx))
			cm_fold(cm, cm->events[idx]);
}

/*
 * Without the interrupt the overflow status means nothing to us, but it
 * must not stay set: under Perf_Ovf_Stop it stops every counter. A status
 * that did not clear is tried again here, and one that reads clean by
 * itself ends the episode too.
 */
static void cm_poll_ov(struct mips_cm_pmu *cm)
{
	u32 ov;

	if (!cm->polling)
		return;
	ov = cm_read(cm, MIPS_CM_PC_OV) & CM_PC_OV_ALL;
	if (ov)
		cm_ov_clear(cm, ov);
	else if (cm->ov_stuck)
		cm_ov_clears(cm);
}

/*
 * With the interrupt in use, an overflow status that stays set from one
 * tick to the next while no interrupt came, for at least
 * MIPS_CM_IRQ_DEAD_NS, means the interrupt does not arrive (e.g. a device
 * tree that names the wrong input). The time bound keeps a short fold
 * period from taking a late interrupt (its CPU busy, or a virtual CPU not
 * scheduled) for a dead one.
 */
#define MIPS_CM_IRQ_DEAD_NS	(100 * NSEC_PER_MSEC)

static void cm_check_irq(struct mips_cm_pmu *cm)
{
	u64 now;
	u32 ov;

	if (cm->polling)
		return;
	ov = cm_read(cm, MIPS_CM_PC_OV) & CM_PC_OV_ALL;
	if ((ov & cm->tick_ov) && cm->nr_irqs == cm->tick_irqs) {
		now = ktime_get_ns();
		if (!cm->ov_stuck_since) {
			cm->ov_stuck_since = now;
		} else if (now - cm->ov_stuck_since >= MIPS_CM_IRQ_DEAD_NS) {
			cm_to_polling(cm, "overflow interrupt did not come");
			cm_ov_clear(cm, ov);
			ov = 0;
			cm->ov_stuck_since = 0;
		}
	} else {
		cm->ov_stuck_since = 0;
	}
	cm->tick_ov = ov;
	cm->tick_irqs = cm->nr_irqs;
}

static enum hrtimer_restart cm_tick(struct hrtimer *timer)
{
	struct mips_cm_pmu *cm = container_of(timer, struct mips_cm_pmu,
						 timer);
	unsigned long flags;

	raw_spin_lock_irqsave(&cm->lock, flags);
	if (!cm->active) {
		cm->timer_on = false;
		raw_spin_unlock_irqrestore(&cm->lock, flags);
		return HRTIMER_NORESTART;
	}
	if (cm_check_state(cm)) {
		cm_fold_all(cm);
		cm_poll_ov(cm);
		cm_check_irq(cm);
	}
	raw_spin_unlock_irqrestore(&cm->lock, flags);

	hrtimer_forward_now(timer, cm->period);
	return HRTIMER_RESTART;
}

static irqreturn_t cm_irq(int irq, void *data)
{
	struct mips_cm_pmu *cm = data;
	irqreturn_t ret = IRQ_NONE;
	u32 ov;

	raw_spin_lock(&cm->lock);
	if (!cm->owned || cm->polling || cm->shut)
		goto out;
	ov = cm_read(cm, MIPS_CM_PC_OV);
	if (ov == U32_MAX || !cm_check_state(cm)) {
		/*
		 * Nothing can be read or cleared, and the write that switches
		 * the source off may not land either: disable the line too,
		 * so that a level interrupt cannot storm. IRQ_NONE: nothing
		 * was handled.
		 */
		cm_to_polling(cm, "interrupt while the debug block does not answer");
		goto out;
	}
	ov &= CM_PC_OV_ALL;
	if (!ov)
		goto out;
	cm->nr_irqs++;
	cm_fold_all(cm);
	cm_ov_clear(cm, ov);
	ret = IRQ_HANDLED;
out:
	raw_spin_unlock(&cm->lock);
	return ret;
}

static bool cm_is_cycles(struct perf_event *event)
{
	return FIELD_GET(MIPS_CM_CFG_CYCLES, event->attr.config);
}

/* A group may mix in software events (e.g. a leader that reads it). */
static bool cm_same_pmu_or_sw(struct perf_event *a, struct perf_event *b)
{
	return a->pmu == b->pmu || is_software_event(a);
}

static int cm_event_init(struct perf_event *event)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int cycles = 0, general = 0;
	u64 code, qual;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	/* system-wide counters, not a task's */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	ret = pmu_format_check(mips_cm_format_mask, &event->attr);
	if (ret)
		return ret;

	code = FIELD_GET(MIPS_CM_CFG_EVENT, event->attr.config);
	qual = FIELD_GET(MIPS_CM_CFG1_QUALIFIER, event->attr.config1);
	/* beyond the listed events; also keeps BIT(code) within a u32 */
	if (code > MIPS_CM_EVENT_MAX)
		return -EINVAL;
	if (cm_is_cycles(event)) {
		/* the cycle counter has neither event select nor qualifier */
		if (code || qual)
			return -EINVAL;
	} else if (!(cm->valid_events & BIT(code))) {
		/* not in the specification's list, or no such IOCU here */
		return -EINVAL;
	}

	/* a group must fit the counters at once, or it could never run */
	if (cm_is_cycles(event))
		cycles++;
	else
		general++;
	/*
	 * perf core holds the leader's ctx->mutex, which
	 * for_each_sibling_event() asserts, only while a sibling is
	 * initialised; a new leader has no siblings.
	 */
	if (leader != event) {
		if (!cm_same_pmu_or_sw(leader, event))
			return -EINVAL;
		if (leader->pmu == event->pmu) {
			if (cm_is_cycles(leader))
				cycles++;
			else
				general++;
		}
		for_each_sibling_event(sibling, leader) {
			if (sibling == event)
				continue;
			if (!cm_same_pmu_or_sw(sibling, event))
				return -EINVAL;
			if (sibling->pmu != event->pmu)
				continue;
			if (cm_is_cycles(sibling))
				cycles++;
			else
				general++;
		}
	}
	if (cycles > 1 || general > CM_NR_CNT)
		return -EINVAL;

	event->hw.config = cm_is_cycles(event) ? MIPS_CM_HW_CYCLES : code;
	event->hw.config_base = qual;
	event->hw.idx = -1;
	return 0;
}

/*
 * perf core brackets every add and del (and a whole group's), and every
 * multiplexing rotation, between pmu_disable and pmu_enable. The counters
 * that start in the bracket start in one control write at its end, so the
 * members of a group start together. Nothing stops here: an event that
 * perf leaves running (a pinned one while others rotate) must count the
 * traffic of the bracket too. A stop is one write of its own.
 */
static void cm_pmu_disable(struct pmu *pmu)
{
	struct mips_cm_pmu *cm = to_cm(pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&cm->lock, flags);
	cm->disabled++;
	raw_spin_unlock_irqrestore(&cm->lock, flags);
}

static void cm_pmu_enable(struct pmu *pmu)
{
	struct mips_cm_pmu *cm = to_cm(pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&cm->lock, flags);
	if (WARN_ON_ONCE(!cm->disabled) || --cm->disabled)
		goto out;
	if (cm->owned && !cm->active) {
		/* the last event ended: give the block back, stopped */
		cm->ctl = 0;
		cm->reset = 0;
		cm->owned = false;
		cm_write(cm, MIPS_CM_PC_CTL, 0);
		cm_write(cm, MIPS_CM_PC_OV, CM_PC_OV_ALL);
		cm_line(cm, false);
	} else if (cm->owned && cm->reset) {
		cm_commit(cm);
	}
	/*
	 * The fold timer runs on the CPU whose events started it, as a
	 * hard-irq timer (it takes only raw spinlocks); never started from
	 * the interrupt handler. Events on other CPUs may start and stop
	 * meanwhile: it is only tried to cancel here, without waiting; a
	 * callback that runs already finds no event and stops by itself.
	 */
	if (cm->active && !cm->timer_on && !cm->shut) {
		cm->timer_on = true;
		cm->tick_ov = 0;
		cm->ov_stuck_since = 0;
		hrtimer_start(&cm->timer, cm->period,
			      HRTIMER_MODE_REL_PINNED_HARD);
	} else if (!cm->active && cm->timer_on &&
		   hrtimer_try_to_cancel(&cm->timer) >= 0) {
		cm->timer_on = false;
	}
out:
	raw_spin_unlock_irqrestore(&cm->lock, flags);
}

static void cm_start(struct perf_event *event, int flags)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	cm_program(cm, event);
	local64_set(&hwc->prev_count, 0);
	cm->ctl |= CM_PC_CTL_COUNTON(hwc->idx);
	cm->reset |= CM_PC_CTL_RESET(hwc->idx);
	hwc->state = 0;
	if (!cm->disabled)
		cm_commit(cm);
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

static void cm_stop(struct perf_event *event, int flags)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	bool readable;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	if (cm->reset & CM_PC_CTL_RESET(hwc->idx)) {
		/* started and stopped within one bracket: it never ran */
		cm->reset &= ~CM_PC_CTL_RESET(hwc->idx);
		cm->ctl &= ~CM_PC_CTL_COUNTON(hwc->idx);
	} else {
		readable = cm_check_state(cm);
		cm->ctl &= ~CM_PC_CTL_COUNTON(hwc->idx);
		cm_write(cm, MIPS_CM_PC_CTL, cm_ctl_now(cm));
		/* the counter is frozen now: this read is final */
		if (readable)
			cm_fold(cm, event);
	}
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

static int cm_add(struct perf_event *event, int flags)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	int idx, first, last;

	if (hwc->config & MIPS_CM_HW_CYCLES) {
		first = CM_CYCLE_IDX;
		last = CM_CYCLE_IDX;
	} else {
		first = 1;
		last = CM_NR_CNT;
	}

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	for (idx = first; idx <= last; idx++)
		if (!cm->events[idx])
			break;
	if (idx > last) {
		/* perf core multiplexes the events that do not fit */
		raw_spin_unlock_irqrestore(&cm->lock, irqflags);
		return -EAGAIN;
	}
	if (!cm->owned) {
		/*
		 * Take the block: stop whatever another agent left counting
		 * and clear its stale status; from here until the last event
		 * ends the registers are ours.
		 */
		cm->owned = true;
		cm->ctl = cm->polling ? 0 : CM_GCR_DB_PC_CTL_PERF_INT_EN;
		cm->evsel = 0;
		cm->reset = 0;
		cm->tick_ov = 0;
		cm->ov_stuck_since = 0;
		cm_write(cm, MIPS_CM_PC_CTL, 0);
		cm_write(cm, MIPS_CM_PC_OV, CM_PC_OV_ALL);
		/*
		 * Only now can the line not be left asserted by someone else;
		 * an interrupt given up stays off.
		 */
		cm_line(cm, !cm->polling);
	}
	cm->events[idx] = event;
	cm->active++;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);

	if (flags & PERF_EF_START)
		cm_start(event, PERF_EF_RELOAD);
	return 0;
}

static void cm_del(struct perf_event *event, int flags)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	cm_stop(event, PERF_EF_UPDATE);

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	cm->events[hwc->idx] = NULL;
	cm->active--;
	hwc->idx = -1;
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

/*
 * A read checks the block (one control read), reads the counter and, when
 * polling, the overflow status: three accesses. The members of a group
 * are read in one read transaction, in which the block is checked once
 * and the status cleared once, at the commit: 2 + n accesses for n
 * members.
 */
static void cm_pmu_read(struct perf_event *event)
{
	struct mips_cm_pmu *cm = to_cm(event->pmu);
	struct mips_cm_txn *txn;
	unsigned long irqflags;
	int idx;

	/*
	 * Any CPU may read (the scope's reads, and perf_event_read_local()
	 * without the context lock): the event may be deleted on its CPU
	 * meanwhile, so its counter is looked up under the lock.
	 */
	raw_spin_lock_irqsave(&cm->lock, irqflags);
	idx = event->hw.idx;
	if (idx < 0 || cm->events[idx] != event || !cm_counting(cm, idx))
		goto out;
	txn = this_cpu_ptr(cm->txn);
	if (!(txn->flags & PERF_PMU_TXN_READ)) {
		if (cm_check_state(cm)) {
			cm_fold(cm, event);
			cm_poll_ov(cm);
		}
		goto out;
	}
	if (!txn->checked) {
		txn->readable = cm_check_state(cm);
		txn->checked = true;
	}
	if (txn->readable)
		cm_fold(cm, event);
out:
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

/*
 * Transactions: an add transaction is the bracket perf core makes for a
 * PMU without them (its perf_pmu_disable() and perf_pmu_enable(), so that
 * a group starts in one control write; cm->disabled nests); a read
 * transaction shares one check of the block among the members of a
 * group.
 */
static void cm_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct mips_cm_pmu *cm = to_cm(pmu);
	struct mips_cm_txn *txn = this_cpu_ptr(cm->txn);

	txn->flags = flags;
	txn->checked = false;
	if (flags & PERF_PMU_TXN_ADD)
		cm_pmu_disable(pmu);
}

static void cm_end_txn(struct mips_cm_pmu *cm)
{
	struct mips_cm_txn *txn = this_cpu_ptr(cm->txn);
	unsigned int flags = txn->flags;
	unsigned long irqflags;

	txn->flags = 0;
	if (flags & PERF_PMU_TXN_ADD) {
		cm_pmu_enable(&cm->pmu);
	} else if (txn->checked && txn->readable) {
		raw_spin_lock_irqsave(&cm->lock, irqflags);
		cm_poll_ov(cm);
		raw_spin_unlock_irqrestore(&cm->lock, irqflags);
	}
}

static int cm_commit_txn(struct pmu *pmu)
{
	cm_end_txn(to_cm(pmu));
	return 0;
}

static void cm_cancel_txn(struct pmu *pmu)
{
	cm_end_txn(to_cm(pmu));
}

/*
 * The overflow interrupt goes to one CPU, cm->cpu, which follows CPU
 * hotplug as the CPU of the PMU's cpumask does. The handler takes cm->lock,
 * so any CPU would be correct; this one keeps it where perf opens the
 * events and where their fold timer runs. Called from CPU hotplug,
 * registration and the KUnit suite only, never with cm->lock held nor from
 * a perf callback: it prints directly.
 */
static void cm_irq_affinity(struct mips_cm_pmu *cm)
{
	int ret;

	if (cm->irq <= 0)
		return;
	ret = irq_set_affinity(cm->irq, cpumask_of(cm->cpu));
	if (ret)
		pr_warn_ratelimited("cannot move IRQ %d to CPU %u (%d); it is still handled where it arrives\n",
				    cm->irq, cm->cpu, ret);
}

static enum cpuhp_state cm_cpuhp_state;

static int cm_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct mips_cm_pmu *cm = hlist_entry_safe(node, struct mips_cm_pmu,
						  node);
	unsigned int target;

	if (cpu != cm->cpu)
		return 0;
	/*
	 * The dying CPU is still in cpu_online_mask at this state; this is
	 * the choice of perf_event_clear_cpumask() for the system scope.
	 */
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	WRITE_ONCE(cm->cpu, target);
	cm_irq_affinity(cm);
	return 0;
}

/*
 * Follow CPU hotplug with no CPU chosen yet, and choose one only with
 * hotplug held off; none again before unregistering, so that an offline
 * callback that runs meanwhile leaves the PMU alone.
 */
static int cm_register(struct mips_cm_pmu *cm, const char *name)
{
	int ret;

	cm->cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance_nocalls(cm_cpuhp_state, &cm->node);
	if (ret)
		return ret;
	ret = perf_pmu_register(&cm->pmu, name, -1);
	if (ret) {
		cpuhp_state_remove_instance_nocalls(cm_cpuhp_state, &cm->node);
		return ret;
	}
	cpus_read_lock();
	WRITE_ONCE(cm->cpu, cpumask_first(cpu_online_mask));
	cm_irq_affinity(cm);
	cpus_read_unlock();
	return 0;
}

static void cm_unregister(struct mips_cm_pmu *cm)
{
	cpus_read_lock();
	WRITE_ONCE(cm->cpu, nr_cpu_ids);
	cpus_read_unlock();
	perf_pmu_unregister(&cm->pmu);
	cpuhp_state_remove_instance_nocalls(cm_cpuhp_state, &cm->node);
}

/*
 * Only Perf_Num_Cnt == 2 is the layout of the specification; anything else
 * is another block, or none. Undefined bits that read set are reported,
 * not refused: a debugger (or the previous kernel) may have left them, and
 * the first event's write of the control register clears them.
 */
static int cm_detect(struct mips_cm_pmu *cm, u32 cm_rev)
{
	u32 ctl = cm_read(cm, MIPS_CM_PC_CTL);
	u32 ov = cm_read(cm, MIPS_CM_PC_OV);
	unsigned int major = cm_rev >> 8;

	if (ctl == U32_MAX) {
		pr_info("the CM debug block reads all ones; no PMU\n");
		return -ENODEV;
	}
	if (!FIELD_GET(CM_GCR_DB_PC_CTL_PERF_NUM_CNT, ctl)) {
		pr_info("CM has no performance counters (Perf_Num_Cnt is 0); no PMU\n");
		return -ENODEV;
	}
	if (FIELD_GET(CM_GCR_DB_PC_CTL_PERF_NUM_CNT, ctl) != CM_NR_CNT) {
		pr_info("not the CM2 counter layout (control 0x%08x, status 0x%08x); no PMU\n",
			ctl, ov);
		return -ENODEV;
	}
	if ((ctl & CM_PC_CTL_RESERVED) || (ov & ~CM_PC_OV_ALL))
		pr_warn("undefined bits set in the debug block (control 0x%08x, status 0x%08x), left by a debugger?\n",
			ctl, ov);
	/* vendor register headers confirm the layout for CM2 and CM2.5 */
	if (major != 6 && major != 7)
		pr_warn("CM revision 0x%04x: the debug block layout is verified for CM2 and CM2.5 only\n",
			cm_rev);
	return 0;
}

/**
 * mips_cm_pmu_probe() - find the counters and register a CM PMU
 * @pd: interrupt, CPS topology and fold period
 * @ops: how the block is reached: &mips_cm_pmu_gdb_ops, or (with the KUnit
 *	suites) a model; it must stay valid until mips_cm_pmu_remove()
 * @name: the PMU's name ("mips_cm" on real hardware)
 *
 * Only reads the block: a debugger may be using the counters, so the
 * registers are written only while an event counts. A CPS with more than
 * one cluster, no counters (as on QEMU's CM), a block that reads all ones
 * or a counter count other than the specification's (Perf_Num_Cnt 2)
 * means no PMU, with one log line; undefined bits that read set are only
 * reported. Requests the interrupt if
 * there is one (polling alone if that fails), disabled while the block is
 * not ours, and registers the PMU.
 *
 * Return: the PMU, or ERR_PTR(-ENODEV) when there is no usable block,
 * -EINVAL for bad platform data, -ENOMEM, or the error of registration;
 * on error nothing stays registered.
 */
VISIBLE_IF_KUNIT struct mips_cm_pmu *
mips_cm_pmu_probe(const struct mips_cm_pmu_platdata *pd,
		  const struct mips_cm_pmu_ops *ops, const char *name)
{
	unsigned int period_ms;
	struct mips_cm_pmu *cm;
	int ret;

	if (!pd || !ops || !ops->read || !ops->write || !name)
		return ERR_PTR(-EINVAL);
	/* the module's CPU hotplug state is set up: mips_cm_pmu_init() */
	if (!cm_cpuhp_state)
		return ERR_PTR(-ENODEV);
	/* cm_ops(): only the KUnit suites bring another instance */
	if (!IS_ENABLED(CONFIG_MIPS_CM_PMU_KUNIT_TEST) &&
	    ops != &mips_cm_pmu_gdb_ops)
		return ERR_PTR(-EINVAL);
	/*
	 * GCR accesses reach the CM of the accessing CPU's cluster; one PMU
	 * for several clusters would count whichever cluster its CPU is in.
	 */
	if (pd->nr_clusters > 1) {
		pr_info("%u clusters, each with its own CM; only single-cluster systems are supported, no PMU\n",
			pd->nr_clusters);
		return ERR_PTR(-ENODEV);
	}

	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return ERR_PTR(-ENOMEM);
	cm->ops = ops;
	ret = cm_detect(cm, pd->cm_rev);
	if (ret)
		goto free_cm;
	cm->txn = alloc_percpu(struct mips_cm_txn);
	if (!cm->txn) {
		ret = -ENOMEM;
		goto free_cm;
	}
	cm->valid_events = MIPS_CM_EVENTS_LISTED | MIPS_CM_EVENT_IOCU0 |
			   MIPS_CM_EVENT_IOCU1;
	cm->variants = MIPS_CM_HAS_IOCU0 | MIPS_CM_HAS_IOCU1;
	if (pd->nr_iocu >= 0 && pd->nr_iocu < 2) {
		cm->variants &= ~MIPS_CM_HAS_IOCU1;
		cm->valid_events &= ~MIPS_CM_EVENT_IOCU1;
	}
	if (pd->nr_iocu == 0) {
		cm->variants &= ~MIPS_CM_HAS_IOCU0;
		cm->valid_events &= ~MIPS_CM_EVENT_IOCU0;
	}
	raw_spin_lock_init(&cm->lock);
	period_ms = pd->poll_period_ms ?: poll_period_ms;
	period_ms = clamp_t(unsigned int, period_ms, 1, MIPS_CM_POLL_MAX_MS);
	cm->period = ms_to_ktime(period_ms);
	hrtimer_init(&cm->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	cm->timer.function = cm_tick;
	init_irq_work(&cm->log_work, cm_log_work);

	cm->pmu = (struct pmu) {
		.module = pd->owner ?: THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.pmu_enable = cm_pmu_enable,
		.pmu_disable = cm_pmu_disable,
		.start_txn = cm_start_txn,
		.commit_txn = cm_commit_txn,
		.cancel_txn = cm_cancel_txn,
		.event_init = cm_event_init,
		.add = cm_add,
		.del = cm_del,
		.start = cm_start,
		.stop = cm_stop,
		.read = cm_pmu_read,
		.attr_groups = mips_cm_attr_groups,
		/*
		 * The GCRs are global: every CPU reaches the same block, and
		 * all events count on the CPU of the scope's cpumask, in one
		 * context that shares out the block's counters.
		 */
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_SCOPE_BIND,
		.scope = PERF_PMU_SCOPE_SYS_WIDE,
	};

	/*
	 * Off until the first event takes the block: a previous kernel (kexec,
	 * kdump) or the firmware may have left Perf_Int_En and an overflow
	 * status set, a level the handler may not clear while the block is
	 * not ours, and the line would storm until it is shut off.
	 */
	cm->polling = true;
	if (pd->irq > 0) {
		ret = request_irq(pd->irq, cm_irq,
				  IRQF_NOBALANCING | IRQF_NO_THREAD |
				  IRQF_NO_AUTOEN, name, cm);
		if (ret) {
			pr_warn("cannot request IRQ %d (%d); using the fold timer alone\n",
				pd->irq, ret);
		} else {
			cm->irq = pd->irq;
			cm->polling = false;
		}
	}

	ret = cm_register(cm, name);
	if (ret)
		goto free_irq;

	if (cm->polling)
		pr_info("CM rev 0x%04x, 2 event counters and a cycle counter, folded every %u ms\n",
			pd->cm_rev, period_ms);
	else
		pr_info("CM rev 0x%04x, 2 event counters and a cycle counter, folded every %u ms and on overflow IRQ %d\n",
			pd->cm_rev, period_ms, cm->irq);
	return cm;

free_irq:
	if (cm->irq > 0)
		free_irq(cm->irq, cm);
	free_percpu(cm->txn);
free_cm:
	kfree(cm);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_probe);

/**
 * mips_cm_pmu_remove() - unregister a CM PMU
 * @cm: the PMU from mips_cm_pmu_probe(); no event may remain open
 *
 * With no event open the block was given back already: nothing is written.
 */
VISIBLE_IF_KUNIT void mips_cm_pmu_remove(struct mips_cm_pmu *cm)
{
	cm_unregister(cm);
	if (cm->irq > 0)
		free_irq(cm->irq, cm);
	hrtimer_cancel(&cm->timer);
	/* nothing records a message any more: print what is left */
	irq_work_sync(&cm->log_work);
	free_percpu(cm->txn);
	kfree(cm);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_remove);

/**
 * mips_cm_pmu_shutdown() - leave the block stopped for the next kernel
 * @cm: the PMU from mips_cm_pmu_probe()
 *
 * A kernel started by kexec, or the firmware after a reboot, finds the
 * block as this one leaves it, and this driver writes it only from its
 * first event on: counters left running with Perf_Int_En set would raise
 * CM_PCInt there at their next overflow, before anything handles it.
 * Fold what the counters hold, then stop them, clear the overflow status
 * and disable the line. Events still open keep their counts; the block is
 * not written again.
 */
VISIBLE_IF_KUNIT void mips_cm_pmu_shutdown(struct mips_cm_pmu *cm)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cm->lock, flags);
	if (cm->owned) {
		if (cm_check_state(cm))
			cm_fold_all(cm);
		cm_write(cm, MIPS_CM_PC_CTL, 0);
		cm_write(cm, MIPS_CM_PC_OV, CM_PC_OV_ALL);
	}
	cm_line(cm, false);
	cm->shut = true;
	raw_spin_unlock_irqrestore(&cm->lock, flags);

	/*
	 * Nothing to fold any more; cm_pmu_enable() does not start it again
	 * (a stale timer_on only makes its later cancel a no-op).
	 */
	hrtimer_cancel(&cm->timer);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_shutdown);

/**
 * mips_cm_pmu_to_pmu() - the perf PMU of a CM PMU
 * @cm: the PMU from mips_cm_pmu_probe()
 *
 * Return: the &struct pmu (its type is what perf_event_attr.type takes).
 */
VISIBLE_IF_KUNIT __maybe_unused struct pmu *
mips_cm_pmu_to_pmu(struct mips_cm_pmu *cm)
{
	return &cm->pmu;
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_to_pmu);

/**
 * mips_cm_pmu_polling() - whether the overflow interrupt is unused
 * @cm: the PMU from mips_cm_pmu_probe()
 *
 * Return: true without a usable overflow interrupt: none described, or it
 * could not be requested, or it was given up at run time (it never came,
 * its status could not be cleared, or it came while the block did not
 * answer). The fold timer runs in both cases.
 */
VISIBLE_IF_KUNIT __maybe_unused bool
mips_cm_pmu_polling(struct mips_cm_pmu *cm)
{
	return READ_ONCE(cm->polling);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_polling);

/**
 * mips_cm_pmu_ov_stuck() - how often the overflow status stopped clearing
 * @cm: the PMU from mips_cm_pmu_probe()
 *
 * Return: the number of episodes in which writing ones to the overflow
 * status left bits set, as the log reports them.
 */
VISIBLE_IF_KUNIT __maybe_unused unsigned long
mips_cm_pmu_ov_stuck(struct mips_cm_pmu *cm)
{
	return READ_ONCE(cm->nr_ov_stuck);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_ov_stuck);

/**
 * mips_cm_pmu_cpu() - the PMU's own CPU (struct mips_cm_pmu)
 * @cm: the PMU from mips_cm_pmu_probe()
 *
 * Return: the CPU, whether or not the PMU has an interrupt.
 */
VISIBLE_IF_KUNIT __maybe_unused unsigned int
mips_cm_pmu_cpu(struct mips_cm_pmu *cm)
{
	return READ_ONCE(cm->cpu);
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_cpu);

/**
 * mips_cm_pmu_set_cpu() - move the PMU's own CPU (struct mips_cm_pmu) away
 * @cm: the PMU from mips_cm_pmu_probe(), with no event open
 * @cpu: an online CPU
 *
 * For the KUnit suite: CPU 0 cannot go offline on MIPS (nor on some x86),
 * so a test of CPU hotplug starts from another one.
 *
 * Return: 0, or -EINVAL if @cpu is not online.
 */
VISIBLE_IF_KUNIT __maybe_unused int
mips_cm_pmu_set_cpu(struct mips_cm_pmu *cm, unsigned int cpu)
{
	int ret = -EINVAL;

	cpus_read_lock();
	if (cpu < nr_cpu_ids && cpu_online(cpu)) {
		WRITE_ONCE(cm->cpu, cpu);
		cm_irq_affinity(cm);
		ret = 0;
	}
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(mips_cm_pmu_set_cpu);

/*
 * The CM's device tree node, where the board describes the CM; the kernel
 * itself finds the CM through CP0 CMGCRBase. The binding
 * (Documentation/devicetree/bindings/mips/mti,mips-cm.yaml) names the
 * overflow interrupt "perf", since the CM has an error interrupt too and
 * an entry is only known by its name.
 */
static const struct of_device_id mips_cm_pmu_of_match[] = {
	{ .compatible = "mti,mips-cm" },
	{ .compatible = "mobileye,eyeq6-cm" },
	{ }
};

/*
 * The interrupt the platform wired CM_PCInt to, if any. No mainline device
 * tree wires it: without it the driver relies on its fold timer alone, as
 * it does once deferred probing gives up on the interrupt's controller.
 *
 * Return: the interrupt, 0 for none, or -EPROBE_DEFER while its controller
 * may still come.
 */
static int mips_cm_pmu_dev_irq(struct device *dev)
{
	struct device_node *np;
	int irq = 0;

	np = of_find_matching_node(NULL, mips_cm_pmu_of_match);
	if (!np || !of_device_is_available(np))
		goto out;
	irq = of_irq_get_byname(np, "perf");
	if (irq == -EPROBE_DEFER) {
		irq = driver_deferred_probe_check_state(dev);
		if (irq == -EPROBE_DEFER)
			goto out;
	} else if (irq < 0 && of_property_present(np, "interrupts") &&
		   !of_property_present(np, "interrupt-names")) {
		/* Not silently: it may as well be the error interrupt. */
		dev_warn(dev, "%pOF: interrupts without interrupt-names; the overflow interrupt must be named \"perf\", folding by the timer alone\n",
			 np);
	}
	irq = max(irq, 0);
out:
	of_node_put(np);
	return irq;
}

/*
 * The device is registered by arch code wherever there is a CM
 * (arch/mips/kernel/mips-cm.c); whether its debug block has counters is
 * found here.
 */
static int mips_cm_pmu_dev_probe(struct platform_device *pdev)
{
	struct mips_cm_pmu_platdata pd = {
		.owner = THIS_MODULE,
	};
	struct mips_cm_pmu *cm;
	int irq;

	if (!mips_cm_present())
		return -ENODEV;
	irq = mips_cm_pmu_dev_irq(&pdev->dev);
	if (irq < 0)
		return irq;
	pd.irq = irq;
	pd.cm_rev = mips_cm_revision();
	pd.nr_clusters = mips_cps_numclusters();
	/* this cluster's IOCUs: its CM's counters see those */
	pd.nr_iocu = FIELD_GET(CM_GCR_CONFIG_NUMIOCU, read_gcr_config());
	cm = mips_cm_pmu_probe(&pd, &mips_cm_pmu_gdb_ops, "mips_cm");
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	platform_set_drvdata(pdev, cm);
	return 0;
}

static void mips_cm_pmu_dev_remove(struct platform_device *pdev)
{
	mips_cm_pmu_remove(platform_get_drvdata(pdev));
}

static void mips_cm_pmu_dev_shutdown(struct platform_device *pdev)
{
	mips_cm_pmu_shutdown(platform_get_drvdata(pdev));
}

static const struct platform_device_id mips_cm_pmu_ids[] = {
	{ "mips_cm_pmu" },
	{ }
};
MODULE_DEVICE_TABLE(platform, mips_cm_pmu_ids);

static struct platform_driver mips_cm_pmu_driver = {
	.driver = {
		.name = "mips_cm_pmu",
		.suppress_bind_attrs = true,
	},
	.probe = mips_cm_pmu_dev_probe,
	.remove = mips_cm_pmu_dev_remove,
	.shutdown = mips_cm_pmu_dev_shutdown,
	.id_table = mips_cm_pmu_ids,
};

/*
 * The hotplug state serves every PMU of the driver, the KUnit suite's on
 * its model included, so it is set up before the device can bind and
 * outlives it.
 */
static int __init mips_cm_pmu_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/mips_cm:online",
				      NULL, cm_cpu_offline);
	if (ret < 0)
		return ret;
	cm_cpuhp_state = ret;

	ret = platform_driver_register(&mips_cm_pmu_driver);
	if (ret)
		cpuhp_remove_multi_state(cm_cpuhp_state);
	return ret;
}
module_init(mips_cm_pmu_init);

static void __exit mips_cm_pmu_exit(void)
{
	platform_driver_unregister(&mips_cm_pmu_driver);
	cpuhp_remove_multi_state(cm_cpuhp_state);
}
module_exit(mips_cm_pmu_exit);

MODULE_DESCRIPTION("MIPS Coherence Manager performance counter PMU");
MODULE_LICENSE("GPL");
