// SPDX-License-Identifier: GPL-2.0
/*
 * MIPS Coherence Manager performance counters: perf PMU "mips_cm".
 *
 * The CM's Global Debug Block has a 32-bit cycle counter and two 32-bit
 * event counters with an event select and a qualifier each. They count
 * system-wide traffic, so this is an uncore PMU served by one designated CPU.
 * Counts are extended to 64 bits in software: by the overflow interrupt
 * (Perf_Int_En) where the platform wires CM_PCInt to an interrupt it
 * describes, by an hrtimer that runs only while events are active otherwise.
 *
 * The driver is arch-neutral: it touches the registers only through
 * &struct hvpmu_mips_cm_ops, given by the MIPS glue (the real GCRs) or by
 * the register-level model (KUnit tests, simulated platform).
 */

#define pr_fmt(fmt) "mips_cm: " fmt

#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_mips_cm.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/spinlock.h>


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

/*
 * Without an interrupt, a counter must be read before it can wrap twice.
 * At one event per CM clock and a CM clock of up to 4 GHz, 2^32 events take
 * at least about 1 s; the overflow status covers one wrap between two polls,
 * so the default leaves a factor of two.
 */
#define MIPS_CM_POLL_DEFAULT_MS	1000
#define MIPS_CM_POLL_MAX_MS	2000

static unsigned int poll_period_ms = MIPS_CM_POLL_DEFAULT_MS;
module_param(poll_period_ms, uint, 0444);
MODULE_PARM_DESC(poll_period_ms,
		 "Counter polling period in ms when the CM has no usable overflow interrupt (1-2000, default 1000)");

enum {
	MIPS_CM_F_EVENT,
	MIPS_CM_F_CYCLES,
	MIPS_CM_F_QUALIFIER,
};

static const struct hvpmu_field mips_cm_fields[] = {
	[MIPS_CM_F_EVENT] = HVPMU_FIELD("event", HVPMU_CONFIG, 0, 8),
	[MIPS_CM_F_CYCLES] = HVPMU_FIELD("cycle_counter", HVPMU_CONFIG, 8, 1),
	[MIPS_CM_F_QUALIFIER] = HVPMU_FIELD("qualifier", HVPMU_CONFIG1, 0, 32),
};

/*
 * Event numbers from GCR_DB_PC_EVENT. Every event is narrowed by its
 * qualifier, whose encoding is in the core's CPS manual and is not known
 * here, so perf asks the user for it.
 */
static const struct hvpmu_event mips_cm_events[] = {
	{ .name = "cycles", .terms = "cycle_counter=1" },
	{ .name = "request_count", .terms = "event=0x0,qualifier=?" },
	{ .name = "coherent_req_resp", .terms = "event=0x1,qualifier=?" },
	{ .name = "write_data_usage", .terms = "event=0x2,qualifier=?" },
	{ .name = "command_bus_usage", .terms = "event=0x3,qualifier=?" },
	{ .name = "read_data_usage", .terms = "event=0x4,qualifier=?" },
	{ .name = "sharing_miss", .terms = "event=0x5,qualifier=?" },
	{ .name = "response_unit_usage", .terms = "event=0x6,qualifier=?" },
	{ .name = "l2_pipeline_utilization", .terms = "event=0x8,qualifier=?" },
	{ .name = "l2_hits_misses", .terms = "event=0x9,qualifier=?" },
	{ .name = "iocu0_requests", .terms = "event=0x10,qualifier=?" },
	{ .name = "iocu1_requests", .terms = "event=0x11,qualifier=?" },
};

static const struct hvpmu_encoding mips_cm_enc =
	HVPMU_ENCODING(mips_cm_fields, mips_cm_events);

/* hw.config of an event on the cycle counter */
#define MIPS_CM_HW_CYCLES	BIT(8)

/* The CTL bits the driver owns and expects to read back */
#define MIPS_CM_CTL_OWNED	(MIPS_CM_PC_CTL_INT_EN |		\
				 MIPS_CM_PC_CTL_OVF_STOP |		\
				 MIPS_CM_PC_CTL_COUNTON(0) |		\
				 MIPS_CM_PC_CTL_COUNTON(1) |		\
				 MIPS_CM_PC_CTL_COUNTON(2))

/**
 * struct hvpmu_mips_cm - one CM PMU
 * @uncore: the perf PMU and its designated CPU
 * @ops: register access
 * @ctx: argument of @ops
 * @lock: serialises every register access and the fields below; the
 *	registers are shared by the whole system
 * @events: the event on each counter index (0 = cycle counter)
 * @ctl: the value GCR_DB_PC_CTL should have (CountOn and Perf_Int_En bits)
 * @evsel: shadow of GCR_DB_PC_EVENT
 * @nr_cnt: event counters in use (Perf_Num_Cnt, at most two)
 * @num_cnt: Perf_Num_Cnt as read at probe
 * @active: number of counters allocated to events
 * @irq: the overflow interrupt, or 0
 * @polling: counters are extended by @timer, not by the interrupt
 * @ov_broken: the overflow status cannot be cleared, so it is ignored
 * @period: polling period
 * @timer: polling timer, running only while @active and @polling
 * @attrs: sysfs format/ and events/
 * @groups: the PMU's attribute groups
 */
struct hvpmu_mips_cm {
	struct hvpmu_uncore uncore;
	const struct hvpmu_mips_cm_ops *ops;
	void *ctx;
	raw_spinlock_t lock;
	struct perf_event *events[MIPS_CM_PC_NR_IDX];
	u32 ctl;
	u32 evsel;
	unsigned int nr_cnt;
	unsigned int num_cnt;
	unsigned int active;
	int irq;
	bool polling;
	bool ov_broken;
	ktime_t period;
	struct hrtimer timer;
	struct hvpmu_attrs attrs;
	const struct attribute_group *groups[4];
};

static struct hvpmu_mips_cm *to_cm(struct pmu *pmu)
{
	return container_of(hvpmu_uncore_from_pmu(pmu), struct hvpmu_mips_cm,
			    uncore);
}

static u32 cm_read(struct hvpmu_mips_cm *cm, unsigned int off)
{
	return cm->ops->read(cm->ctx, off);
}

static void cm_write(struct hvpmu_mips_cm *cm, unsigned int off, u32 val)
{
	cm->ops->write(cm->ctx, off, val);
}

static unsigned int cm_cnt_off(int idx)
{
	return idx == MIPS_CM_PC_CYCLE_IDX ? MIPS_CM_PC_CYCLE :
					     MIPS_CM_PC_CNT(idx - 1);
}

static void cm_start_polling(struct hvpmu_mips_cm *cm)
{
	cm->polling = true;
	if (cm->active)
		hrtimer_start(&cm->timer, cm->period, HRTIMER_MODE_REL_PINNED);
}

/*
 * Write-one-to-clear exactly the bits we have accounted for, so a wrap of
 * another counter that arrives meanwhile stays pending. A bit that does not
 * clear would assert the interrupt forever and would look like a new wrap
 * at every read: stop trusting the status and fall back to polling.
 */
static void cm_ov_clear(struct hvpmu_mips_cm *cm, u32 bits)
{
	cm_write(cm, MIPS_CM_PC_OV, bits);
	if (!(cm_read(cm, MIPS_CM_PC_OV) & bits))
		return;
	pr_warn_ratelimited("overflow status 0x%x does not clear; ignoring it and polling every %lld ms\n",
			    bits, ktime_to_ms(cm->period));
	cm->ov_broken = true;
	if (cm->ctl & MIPS_CM_PC_CTL_INT_EN) {
		cm->ctl &= ~MIPS_CM_PC_CTL_INT_EN;
		cm_write(cm, MIPS_CM_PC_CTL, cm->ctl);
	}
	if (!cm->polling)
		cm_start_polling(cm);
}

/*
 * Fold the progress of a running counter into its event. Called with the
 * lock held, at least once per wrap (interrupt) or per poll period.
 *
 * The masked 32-bit difference covers a wrap that shows in the value (now <
 * prev). The overflow status adds the one case the value cannot show: a
 * whole wrap and more since the last fold (now >= prev), which happens when
 * only the interrupt folds. The status is read before the value, so every
 * wrap it reports happened before the value was sampled; a wrap that comes
 * after the status read is either visible in the value (and its status bit
 * is cleared here so it is not counted again) or left pending for the next
 * fold.
 */
static void cm_fold(struct hvpmu_mips_cm *cm, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u32 bit = MIPS_CM_PC_OV_BIT(hwc->idx);
	u32 prev = local64_read(&hwc->prev_count);
	u32 ov = 0, now;
	u64 delta;

	if (!cm->ov_broken)
		ov = cm_read(cm, MIPS_CM_PC_OV) & bit;
	now = cm_read(cm, cm_cnt_off(hwc->idx));
	if (ov)
		cm_ov_clear(cm, bit);
	else if (now < prev && !cm->ov_broken &&
		 (cm_read(cm, MIPS_CM_PC_OV) & bit))
		cm_ov_clear(cm, bit);

	delta = (u32)(now - prev);
	if (ov && now >= prev)
		delta += BIT_ULL(32);
	local64_set(&hwc->prev_count, now);
	local64_add(delta, &event->count);
}

/* Program the event select and qualifier of a general counter. */
static void cm_program(struct hvpmu_mips_cm *cm, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int n = hwc->idx - 1;

	if (hwc->idx == MIPS_CM_PC_CYCLE_IDX)
		return;
	/* qualifier before event select, as the vendor code does */
	cm_write(cm, MIPS_CM_PC_QUAL(n), hwc->config_base);
	cm->evsel &= ~MIPS_CM_PC_EVENT_SEL(n);
	cm->evsel |= (u32)hwc->config << (8 * n);
	cm_write(cm, MIPS_CM_PC_EVENT, cm->evsel);
}

/*
 * Reset and start counters: each Reset bit goes out only in the write that
 * starts its counter and is dropped by the write after it, so neither a
 * self-clearing nor a level-sensitive Reset bit can ever reset a counter
 * that is running.
 */
static void cm_reset_start(struct hvpmu_mips_cm *cm, u32 counton)
{
	u32 reset = counton << 1;

	cm->ctl |= counton;
	cm_write(cm, MIPS_CM_PC_CTL, cm->ctl | reset);
	cm_write(cm, MIPS_CM_PC_CTL, cm->ctl);
}

/*
 * Check that the block still holds what we programmed, before counters are
 * read. A CM or cluster power-down resets it (counts in between are lost;
 * folding the reset values would invent counts), and another agent may have
 * set Perf_Ovf_Stop, which the driver never uses because a wrap would stop
 * every counter. A block that stops answering (reads all ones, or a
 * read-only Perf_Num_Cnt that changed) is not read at all.
 *
 * Return: true if the counters can be read.
 */
static bool cm_check_state(struct hvpmu_mips_cm *cm)
{
	u32 raw = cm_read(cm, MIPS_CM_PC_CTL);
	u32 ctl = raw & MIPS_CM_CTL_OWNED;
	u32 counton = 0;
	int idx;

	if (raw == U32_MAX ||
	    FIELD_GET(MIPS_CM_PC_CTL_NUM_CNT, raw) != cm->num_cnt) {
		pr_warn_ratelimited("debug block not answering (control 0x%08x); counters not read\n",
				    raw);
		return false;
	}
	if (ctl == cm->ctl)
		return true;

	if ((ctl ^ cm->ctl) & ~(MIPS_CM_PC_CTL_OVF_STOP |
				MIPS_CM_PC_CTL_INT_EN)) {
		pr_warn_ratelimited("counter state lost (control 0x%08x, expected 0x%08x); reprogramming, counts since the last read are lost\n",
				    ctl, cm->ctl);
		for (idx = 0; idx < MIPS_CM_PC_NR_IDX; idx++) {
			struct perf_event *event = cm->events[idx];

			if (!event)
				continue;
			cm_program(cm, event);
			if (cm->ctl & MIPS_CM_PC_CTL_COUNTON(idx)) {
				local64_set(&event->hw.prev_count, 0);
				counton |= MIPS_CM_PC_CTL_COUNTON(idx);
			}
		}
		cm_reset_start(cm, counton);
		return true;
	}
	if (ctl & MIPS_CM_PC_CTL_OVF_STOP)
		pr_warn_ratelimited("Perf_Ovf_Stop was set by someone else; clearing it\n");
	cm_write(cm, MIPS_CM_PC_CTL, cm->ctl);
	return true;
}

static void cm_fold_all(struct hvpmu_mips_cm *cm)
{
	int idx;

	if (!cm_check_state(cm))
		return;
	for (idx = 0; idx < MIPS_CM_PC_NR_IDX; idx++) {
		struct perf_event *event = cm->events[idx];

		if (event && !(event->hw.state & PERF_HES_STOPPED))
			cm_fold(cm, event);
	}
}

static enum hrtimer_restart cm_poll(struct hrtimer *timer)
{
	struct hvpmu_mips_cm *cm = container_of(timer, struct hvpmu_mips_cm,
						 timer);
	unsigned long flags;

	raw_spin_lock_irqsave(&cm->lock, flags);
	if (!cm->active || !cm->polling) {
		raw_spin_unlock_irqrestore(&cm->lock, flags);
		return HRTIMER_NORESTART;
	}
	cm_fold_all(cm);
	raw_spin_unlock_irqrestore(&cm->lock, flags);

	hrtimer_forward_now(timer, cm->period);
	return HRTIMER_RESTART;
}

static irqreturn_t cm_irq(int irq, void *data)
{
	struct hvpmu_mips_cm *cm = data;
	irqreturn_t ret = IRQ_NONE;
	u32 ov;
	int idx;

	raw_spin_lock(&cm->lock);
	if (cm->ov_broken)
		goto out;
	ov = cm_read(cm, MIPS_CM_PC_OV) & MIPS_CM_PC_OV_ALL;
	if (!ov)
		goto out;
	ret = IRQ_HANDLED;
	if (!cm_check_state(cm))
		goto out;
	for (idx = 0; idx < MIPS_CM_PC_NR_IDX && !cm->ov_broken; idx++) {
		struct perf_event *event = cm->events[idx];

		if (!(ov & MIPS_CM_PC_OV_BIT(idx)))
			continue;
		if (event && !(event->hw.state & PERF_HES_STOPPED))
			cm_fold(cm, event);
		else	/* a stopped or unused counter: nothing to account */
			cm_ov_clear(cm, MIPS_CM_PC_OV_BIT(idx));
	}
out:
	raw_spin_unlock(&cm->lock);
	return ret;
}

static bool cm_is_cycles(struct perf_event *event)
{
	return hvpmu_field_get(&mips_cm_fields[MIPS_CM_F_CYCLES], &event->attr);
}

static int cm_event_init(struct perf_event *event)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int cycles = 0, general = 0;
	u64 code, qual;
	int ret;

	ret = hvpmu_uncore_event_init(&cm->uncore, event);
	if (ret)
		return ret;
	ret = hvpmu_config_check(&mips_cm_enc, &event->attr);
	if (ret)
		return ret;

	code = hvpmu_field_get(&mips_cm_fields[MIPS_CM_F_EVENT], &event->attr);
	qual = hvpmu_field_get(&mips_cm_fields[MIPS_CM_F_QUALIFIER],
			       &event->attr);
	/* the cycle counter has neither event select nor qualifier */
	if (cm_is_cycles(event) && (code || qual))
		return -EINVAL;

	/* a group must fit the counters at once, or it could never run */
	if (cm_is_cycles(event))
		cycles++;
	else
		general++;
	if (leader != event && leader->pmu == event->pmu) {
		if (cm_is_cycles(leader))
			cycles++;
		else
			general++;
	}
	for_each_sibling_event(sibling, leader) {
		if (sibling == event || sibling->pmu != event->pmu)
			continue;
		if (cm_is_cycles(sibling))
			cycles++;
		else
			general++;
	}
	if (cycles > 1 || general > cm->nr_cnt)
		return -EINVAL;

	event->hw.config = cm_is_cycles(event) ? MIPS_CM_HW_CYCLES : code;
	event->hw.config_base = qual;
	event->hw.idx = -1;
	return 0;
}

static void cm_start(struct perf_event *event, int flags)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	cm_program(cm, event);
	local64_set(&hwc->prev_count, 0);
	if (!cm->polling)
		cm->ctl |= MIPS_CM_PC_CTL_INT_EN;
	/* the Reset also clears the counter's stale overflow status */
	cm_reset_start(cm, MIPS_CM_PC_CTL_COUNTON(hwc->idx));
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

static void cm_stop(struct perf_event *event, int flags)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	bool readable;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	readable = cm_check_state(cm);
	cm->ctl &= ~MIPS_CM_PC_CTL_COUNTON(hwc->idx);
	cm_write(cm, MIPS_CM_PC_CTL, cm->ctl);
	/* the counter is frozen now: this read is final */
	if (readable)
		cm_fold(cm, event);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

static int cm_add(struct perf_event *event, int flags)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	int idx, first, last;

	if (hwc->config & MIPS_CM_HW_CYCLES) {
		first = MIPS_CM_PC_CYCLE_IDX;
		last = MIPS_CM_PC_CYCLE_IDX;
	} else {
		first = 1;
		last = cm->nr_cnt;
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
	cm->events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (!cm->active++ && cm->polling)
		hrtimer_start(&cm->timer, cm->period, HRTIMER_MODE_REL_PINNED);
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);

	if (flags & PERF_EF_START)
		cm_start(event, PERF_EF_RELOAD);
	return 0;
}

static void cm_del(struct perf_event *event, int flags)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	cm_stop(event, PERF_EF_UPDATE);

	raw_spin_lock_irqsave(&cm->lock, irqflags);
	cm->events[hwc->idx] = NULL;
	hwc->idx = -1;
	/* a callback already running sees !active and does not restart */
	if (!--cm->active)
		hrtimer_try_to_cancel(&cm->timer);
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

static void cm_pmu_read(struct perf_event *event)
{
	struct hvpmu_mips_cm *cm = to_cm(event->pmu);
	unsigned long irqflags;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	raw_spin_lock_irqsave(&cm->lock, irqflags);
	if (cm_check_state(cm))
		cm_fold(cm, event);
	raw_spin_unlock_irqrestore(&cm->lock, irqflags);
}

/* The overflow interrupt follows the designated CPU. */
static void cm_migrate(struct hvpmu_uncore *uncore, unsigned int from,
		       unsigned int to)
{
	struct hvpmu_mips_cm *cm = container_of(uncore, struct hvpmu_mips_cm,
						 uncore);
	int ret;

	if (cm->irq <= 0)
		return;
	ret = irq_set_affinity(cm->irq, cpumask_of(to));
	if (ret)
		pr_warn_ratelimited("cannot move IRQ %d to CPU %u (%d); it is still handled where it arrives\n",
				    cm->irq, to, ret);
}

/**
 * hvpmu_mips_cm_probe() - find the counters and register a CM PMU
 * @pd: register access, interrupt and polling period
 * @name: the PMU's name ("mips_cm" on real hardware)
 *
 * Reads Perf_Num_Cnt: no counters (as on QEMU's CM) or a block that reads
 * all ones means no PMU, with one log line. Stops the counters, clears
 * stale overflow status and Perf_Ovf_Stop, requests the interrupt if there
 * is one (polling if that fails) and registers the PMU.
 *
 * Return: the PMU, or ERR_PTR(-ENODEV) when there are no counters,
 * -EINVAL for bad platform data, -ENOMEM, or the error of registration;
 * on error nothing stays registered.
 */
struct hvpmu_mips_cm *hvpmu_mips_cm_probe(const struct hvpmu_mips_cm_platdata *pd,
					  const char *name)
{
	unsigned int num, period_ms;
	struct hvpmu_mips_cm *cm;
	u32 ctl;
	int ret;

	if (!pd || !pd->ops || !pd->ops->read || !pd->ops->write || !name)
		return ERR_PTR(-EINVAL);

	ctl = pd->ops->read(pd->ctx, MIPS_CM_PC_CTL);
	if (ctl == U32_MAX) {
		pr_info("%s: the CM debug block reads all ones; no PMU\n", name);
		return ERR_PTR(-ENODEV);
	}
	num = FIELD_GET(MIPS_CM_PC_CTL_NUM_CNT, ctl);
	if (!num) {
		pr_info("%s: CM has no performance counters (Perf_Num_Cnt is 0); no PMU\n",
			name);
		return ERR_PTR(-ENODEV);
	}

	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return ERR_PTR(-ENOMEM);
	cm->ops = pd->ops;
	cm->ctx = pd->ctx;
	cm->num_cnt = num;
	cm->nr_cnt = min_t(unsigned int, num, MIPS_CM_PC_MAX_CNT);
	raw_spin_lock_init(&cm->lock);
	period_ms = pd->poll_period_ms ?: poll_period_ms;
	period_ms = clamp_t(unsigned int, period_ms, 1, MIPS_CM_POLL_MAX_MS);
	cm->period = ms_to_ktime(period_ms);
	hrtimer_init(&cm->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	cm->timer.function = cm_poll;

	/* Take the block over: nothing counting, no stale status. */
	cm_write(cm, MIPS_CM_PC_CTL, 0);
	cm_write(cm, MIPS_CM_PC_OV, MIPS_CM_PC_OV_ALL);

	ret = hvpmu_attrs_build(&cm->attrs, &mips_cm_enc, 0);
	if (ret)
		goto free;
	cm->groups[0] = &cm->attrs.format;
	cm->groups[1] = &cm->attrs.events;
	cm->groups[2] = &hvpmu_uncore_cpumask_group;

	cm->uncore.pmu = (struct pmu) {
		.module = pd->owner ?: THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.event_init = cm_event_init,
		.add = cm_add,
		.del = cm_del,
		.start = cm_start,
		.stop = cm_stop,
		.read = cm_pmu_read,
		.attr_groups = cm->groups,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE,
	};
	cm->uncore.migrate = cm_migrate;

	cm->polling = true;
	if (pd->irq > 0) {
		ret = request_irq(pd->irq, cm_irq,
				  IRQF_NOBALANCING | IRQF_NO_THREAD, name, cm);
		if (ret) {
			pr_warn("%s: cannot request IRQ %d (%d); polling instead\n",
				name, pd->irq, ret);
		} else {
			cm->irq = pd->irq;
			cm->polling = false;
		}
	}

	ret = hvpmu_uncore_register(&cm->uncore, name);
	if (ret)
		goto free_irq;
	if (cm->irq > 0)
		cm_migrate(&cm->uncore, cm->uncore.cpu, cm->uncore.cpu);

	if (num > MIPS_CM_PC_MAX_CNT)
		pr_info("%s: Perf_Num_Cnt is %u; using the first %u\n", name,
			num, MIPS_CM_PC_MAX_CNT);
	if (cm->polling)
		pr_info("%s: CM rev 0x%04x, %u event counters and a cycle counter, polled every %u ms\n",
			name, pd->cm_rev, cm->nr_cnt, period_ms);
	else
		pr_info("%s: CM rev 0x%04x, %u event counters and a cycle counter, overflow IRQ %d\n",
			name, pd->cm_rev, cm->nr_cnt, cm->irq);
	return cm;

free_irq:
	if (cm->irq > 0)
		free_irq(cm->irq, cm);
	hvpmu_attrs_free(&cm->attrs);
free:
	kfree(cm);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_probe);

/**
 * hvpmu_mips_cm_remove() - unregister a CM PMU and stop its counters
 * @cm: the PMU from hvpmu_mips_cm_probe(); no event may remain open
 */
void hvpmu_mips_cm_remove(struct hvpmu_mips_cm *cm)
{
	hvpmu_uncore_unregister(&cm->uncore);
	if (cm->irq > 0)
		free_irq(cm->irq, cm);
	hrtimer_cancel(&cm->timer);
	cm_write(cm, MIPS_CM_PC_CTL, 0);
	cm_write(cm, MIPS_CM_PC_OV, MIPS_CM_PC_OV_ALL);
	hvpmu_attrs_free(&cm->attrs);
	kfree(cm);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_remove);

/**
 * hvpmu_mips_cm_pmu() - the perf PMU of a CM PMU
 * @cm: the PMU from hvpmu_mips_cm_probe()
 *
 * Return: the &struct pmu (its type is what perf_event_attr.type takes).
 */
struct pmu *hvpmu_mips_cm_pmu(struct hvpmu_mips_cm *cm)
{
	return &cm->uncore.pmu;
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_pmu);

/**
 * hvpmu_mips_cm_polling() - whether counters are extended by polling
 * @cm: the PMU from hvpmu_mips_cm_probe()
 *
 * Return: true without a usable overflow interrupt.
 */
bool hvpmu_mips_cm_polling(struct hvpmu_mips_cm *cm)
{
	return READ_ONCE(cm->polling);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_polling);

MODULE_DESCRIPTION("MIPS Coherence Manager performance counter PMU");
MODULE_LICENSE("GPL");
