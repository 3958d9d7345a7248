// SPDX-License-Identifier: GPL-2.0
/*
 * niagara2_dram and vfalls_dram: the DRAM controller performance counters
 * of the UltraSPARC T2 and T2+, reached through the sun4v perfreg
 * hypercalls (see sun4v_dram_pmu.h). The end of this file is the platform
 * driver of the devices the arch code registers on a T2 or T2+; the KUnit
 * suite runs the same driver on a model of the hypercalls (&struct
 * sun4v_dram_hv_ops).
 *
 * Each channel (an N2 DRAM channel, a VF node's MCU) has one control
 * register selecting two events and one counter register holding two
 * 31-bit counters without an overflow interrupt. Both halves are read with
 * one hypercall; an hrtimer that runs only while events are counting folds
 * them into 64-bit counts often enough that they never wrap unseen.
 */

#define pr_fmt(fmt) "sun4v_pmu: " fmt

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/perf/pmu_format.h>
#include <linux/platform_device.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/hypervisor.h>

#include "sun4v_dram_pmu.h"

/*
 * Polling. The 31-bit counters raise no interrupt, so the poll must come
 * before a counter can advance by 2^31. The fastest clock of a T2 or T2+
 * is its core clock, at most 1.6 GHz; the MCUs run slower, so at most
 * "rate" counts per cycle of that clock (dram_events[]) is a safe bound.
 * An event of rate 1 then needs a poll every 2^31 / 1.6 GHz = 1342 ms;
 * with a margin of 2, every 671 ms (DRAM_POLL_MS_MAX), and an event of
 * rate r every 671 / r ms. The period in use is the shortest of
 * poll_period_ms and the ceilings of the events counting.
 */
#define DRAM_CLOCK_HZ		1600000000ULL
#define DRAM_POLL_MARGIN	2
#define DRAM_POLL_MS_MAX						\
	((unsigned int)((1000ULL << SUN4V_PMU_PIC_WIDTH) /		\
			(DRAM_CLOCK_HZ * DRAM_POLL_MARGIN)))
#define DRAM_POLL_MS_DEFAULT	100
/* The queues' depth is not documented either: a generous guess. */
#define DRAM_QUEUE_MAX		32

/*
 * The events, with codes as illumos exports them for the N2 and VF MCUs
 * (niagara_perfctr.c): 0x3, bank_busy_stalls, exists only on the T1 and 0xf
 * is illumos' "clear_pic" pattern, so the other select values are refused.
 * Rate: the most an event adds to its counter per clock (inferred bounds,
 * see above): one request per clock and direction for the transaction
 * events, the occupancy of the queue(s) per clock for the latency ones,
 * whose exact semantics are not documented either.
 */
static const struct dram_event {
	u8 code;
	u8 rate;
} dram_events[] = {
	{ 0x0, 1 },			/* mem_reads */
	{ 0x1, 1 },			/* mem_writes */
	{ 0x2, 2 },			/* mem_read_write */
	{ 0x4, DRAM_QUEUE_MAX },	/* rd_queue_latency */
	{ 0x5, DRAM_QUEUE_MAX },	/* wr_queue_latency */
	{ 0x6, 2 * DRAM_QUEUE_MAX },	/* rw_queue_latency */
	{ 0x7, 1 },			/* wb_buf_hits */
};

#define DRAM_EVENT_MAX		0x7

/*
 * The config ABI: an event select and the channel, which a T2+ names by
 * node and MCU. One mask per field for its format file and FIELD_GET().
 */
#define DRAM_CFG_EVENT		GENMASK_ULL(3, 0)
#define DRAM_CFG_CHANNEL	GENMASK_ULL(9, 8)	/* N2 */
#define DRAM_CFG_NODE		GENMASK_ULL(9, 8)	/* VF */
#define DRAM_CFG_MCU		GENMASK_ULL(10, 10)	/* VF */

static struct attribute *dram_n2_format[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, DRAM_CFG_EVENT),
	PMU_FORMAT_FIELD(channel, PMU_FORMAT_CONFIG, DRAM_CFG_CHANNEL),
	NULL,
};

static struct attribute *dram_vf_format[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, DRAM_CFG_EVENT),
	PMU_FORMAT_FIELD(node, PMU_FORMAT_CONFIG, DRAM_CFG_NODE),
	PMU_FORMAT_FIELD(mcu, PMU_FORMAT_CONFIG, DRAM_CFG_MCU),
	NULL,
};

/* The bits of each list's fields, per config word: what event_init accepts. */
VISIBLE_IF_KUNIT const u64 dram_n2_format_mask[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = DRAM_CFG_EVENT | DRAM_CFG_CHANNEL,
};
EXPORT_SYMBOL_IF_KUNIT(dram_n2_format_mask);

VISIBLE_IF_KUNIT const u64 dram_vf_format_mask[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = DRAM_CFG_EVENT | DRAM_CFG_NODE | DRAM_CFG_MCU,
};
EXPORT_SYMBOL_IF_KUNIT(dram_vf_format_mask);

/* The events of dram_events[], with the chip's channel terms. */
static struct attribute *dram_n2_events[] = {
	PMU_EVENT(mem_reads, "event=0x0,channel=?"),
	PMU_EVENT(mem_writes, "event=0x1,channel=?"),
	PMU_EVENT(mem_read_write, "event=0x2,channel=?"),
	PMU_EVENT(rd_queue_latency, "event=0x4,channel=?"),
	PMU_EVENT(wr_queue_latency, "event=0x5,channel=?"),
	PMU_EVENT(rw_queue_latency, "event=0x6,channel=?"),
	PMU_EVENT(wb_buf_hits, "event=0x7,channel=?"),
	NULL,
};

static struct attribute *dram_vf_events[] = {
	PMU_EVENT(mem_reads, "event=0x0,node=?,mcu=?"),
	PMU_EVENT(mem_writes, "event=0x1,node=?,mcu=?"),
	PMU_EVENT(mem_read_write, "event=0x2,node=?,mcu=?"),
	PMU_EVENT(rd_queue_latency, "event=0x4,node=?,mcu=?"),
	PMU_EVENT(wr_queue_latency, "event=0x5,node=?,mcu=?"),
	PMU_EVENT(rw_queue_latency, "event=0x6,node=?,mcu=?"),
	PMU_EVENT(wb_buf_hits, "event=0x7,node=?,mcu=?"),
	NULL,
};

/* Slot 0 is PIC0 (counter bits 62:32), slot 1 is PIC1 (bits 30:0). */
static const unsigned int dram_sel_shift[2] = { SUN4V_PMU_SEL0_SHIFT,
						SUN4V_PMU_SEL1_SHIFT };
static const unsigned int dram_pic_shift[2] = { SUN4V_PMU_PIC0_SHIFT,
						SUN4V_PMU_PIC1_SHIFT };

/**
 * struct dram_chan - one DRAM channel
 * @ctl: what the control register holds (the hypervisor drops bits 63:8)
 * @slot: the event on each half of the counter register
 * @stale: the slot's baseline could not be read; the next successful read
 *	sets it instead of adding a delta, so nothing is invented
 */
struct dram_chan {
	u64 ctl;
	struct perf_event *slot[2];
	bool stale[2];
};

/**
 * struct dram_txn - a perf read transaction on one CPU
 * @flags: the transaction's PERF_PMU_TXN_* flags, 0 outside one
 * @pending: channels read inside it, read from the hypervisor at commit
 *
 * Per CPU: with a system-wide scope, any CPU may read the PMU's events,
 * so two CPUs can be inside a transaction at once, and a read outside a
 * transaction on one CPU must not be deferred by another CPU's.
 */
struct dram_txn {
	unsigned int flags;
	u32 pending;
};

/* A failed hypercall: the operation, its PerfReg, why, and the status. */
struct dram_fail {
	const char *op;
	const char *why;
	unsigned long reg;
	unsigned long status;
};

/**
 * struct sun4v_dram_pmu - one DRAM PMU
 * @pmu: the perf PMU
 * @desc: chip and backend
 * @name: "niagara2_dram" or "vfalls_dram"
 * @format_mask: the bits of the chip's format/ fields (dram_n2_format_mask
 *	or dram_vf_format_mask), the config bits event_init accepts
 * @valid: bit per event code that is an event
 * @ceil_ms: per event code, the longest poll period its rate allows
 * @lock: serialises the channel state, the poll timer and the backend
 * @timer: polls the counters while at least one event counts
 * @poll_ms: poll period, from sysfs poll_period_ms
 * @nr_active: events started
 * @nr_code: events started, per event code (for the poll ceiling)
 * @nr_chans: channels the chip can have
 * @present: bit per channel found at probe
 * @txn: the read transaction of each CPU
 * @log_work: prints @fail outside every lock (see dram_log())
 * @fail: the last failed hypercall not yet printed
 * @nr_fail: failed hypercalls since @log_work last ran
 * @chan: per-channel state
 */
struct sun4v_dram_pmu {
	struct pmu pmu;
	struct sun4v_pmu_desc desc;
	const char *name;
	const u64 *format_mask;
	u16 valid;
	u16 ceil_ms[SUN4V_PMU_SEL_MASK + 1];
	raw_spinlock_t lock;
	struct hrtimer timer;
	unsigned int poll_ms;
	unsigned int nr_active;
	unsigned int nr_code[SUN4V_PMU_SEL_MASK + 1];
	unsigned int nr_chans;
	u32 present;
	struct dram_txn __percpu *txn;
	struct irq_work log_work;
	struct dram_fail fail;
	unsigned int nr_fail;
	struct dram_chan chan[SUN4V_PMU_MAX_CHANNELS];
};

static struct sun4v_dram_pmu *to_dram(struct pmu *pmu)
{
	return container_of(pmu, struct sun4v_dram_pmu, pmu);
}

/*
 * The hardware: the chip's perfreg hypercalls through the kernel's
 * hvcalls.S wrappers (sun4v Hypervisor API, niagara2_perf_api and
 * vf_perf_api): 0x104/0x105 on a T2, 0x106/0x107 on a T2+.
 */
static unsigned long dram_n2_get(void *ctx, unsigned long reg, u64 *val)
{
	unsigned long v, st = sun4v_niagara2_getperf(reg, &v);

	if (st == HV_EOK)
		*val = v;
	return st;
}

static unsigned long dram_n2_set(void *ctx, unsigned long reg, u64 val)
{
	return sun4v_niagara2_setperf(reg, val);
}

static unsigned long dram_vf_get(void *ctx, unsigned long reg, u64 *val)
{
	unsigned long v, st = sun4v_vfalls_getperf(reg, &v);

	if (st == HV_EOK)
		*val = v;
	return st;
}

static unsigned long dram_vf_set(void *ctx, unsigned long reg, u64 val)
{
	return sun4v_vfalls_setperf(reg, val);
}

static const struct sun4v_dram_hv_ops dram_hv[] = {
	[SUN4V_PMU_N2] = { .get_perfreg = dram_n2_get,
			   .set_perfreg = dram_n2_set },
	[SUN4V_PMU_VF] = { .get_perfreg = dram_vf_get,
			   .set_perfreg = dram_vf_set },
};

/* PerfReg# @reg into *@val, written only on success; the HV status */
static unsigned long dram_hv_get(struct sun4v_dram_pmu *d, unsigned long reg,
				 u64 *val)
{
	return d->desc.hv->get_perfreg(d->desc.hv->ctx, reg, val);
}

static unsigned long dram_hv_set(struct sun4v_dram_pmu *d, unsigned long reg,
				 u64 val)
{
	return d->desc.hv->set_perfreg(d->desc.hv->ctx, reg, val);
}

/**
 * sun4v_pmu_status_name() - name of a sun4v hypervisor status
 * @hv_status: the status
 *
 * Return: e.g. "ENOACCESS", or "unknown status".
 */
VISIBLE_IF_KUNIT const char *sun4v_pmu_status_name(unsigned long hv_status)
{
	switch (hv_status) {
	case HV_EOK:
		return "EOK";
	case HV_EINVAL:
		return "EINVAL";
	case HV_EBADTRAP:
		return "EBADTRAP";
	case HV_EWOULDBLOCK:
		return "EWOULDBLOCK";
	case HV_ENOACCESS:
		return "ENOACCESS";
	case HV_ENOTSUPPORTED:
		return "ENOTSUPPORTED";
	default:
		return "unknown status";
	}
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_pmu_status_name);

/**
 * sun4v_pmu_errno() - errno for a sun4v hypervisor status
 * @hv_status: the status
 *
 * Return: 0 for EOK, -EACCES for ENOACCESS (the domain has no perf-counter
 * access), -ENODEV for EINVAL and ENOTSUPPORTED (no such register),
 * -EBUSY for EWOULDBLOCK, -EOPNOTSUPP for EBADTRAP (API group not
 * negotiated), -EIO otherwise.
 */
VISIBLE_IF_KUNIT int sun4v_pmu_errno(unsigned long hv_status)
{
	switch (hv_status) {
	case HV_EOK:
		return 0;
	case HV_ENOACCESS:
		return -EACCES;
	case HV_EINVAL:
	case HV_ENOTSUPPORTED:
		return -ENODEV;
	case HV_EWOULDBLOCK:
		return -EBUSY;
	case HV_EBADTRAP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_pmu_errno);

/*
 * A failed hypercall, reported by log_work. The callers hold d->lock, which
 * perf core's callbacks take under the context lock, and that nests inside
 * the runqueue lock at a context switch: printk() there could wake a
 * console waiter and deadlock on the runqueue. The irq_work prints from
 * hard-irq context with no lock held. Rate-limited: a domain that loses
 * access fails every poll. Called with d->lock held, or from probe before
 * the PMU is registered.
 */
static void dram_log(struct sun4v_dram_pmu *d, const char *op,
		     unsigned long reg, const char *why, unsigned long st)
{
	d->fail = (struct dram_fail) { .op = op, .why = why, .reg = reg,
				       .status = st };
	d->nr_fail++;
	irq_work_queue(&d->log_work);
}

static void dram_log_work(struct irq_work *work)
{
	struct sun4v_dram_pmu *d = container_of(work, struct sun4v_dram_pmu,
						  log_work);
	struct dram_fail f;
	unsigned long flags;
	unsigned int n;

	raw_spin_lock_irqsave(&d->lock, flags);
	f = d->fail;
	n = d->nr_fail;
	d->nr_fail = 0;
	raw_spin_unlock_irqrestore(&d->lock, flags);
	if (n == 1)
		pr_warn_ratelimited("%s: %s PerfReg %lu (%s) failed: %s\n",
				    d->name, f.op, f.reg, f.why,
				    sun4v_pmu_status_name(f.status));
	else if (n)
		pr_warn_ratelimited("%s: %s PerfReg %lu (%s) failed: %s (the last of %u failures)\n",
				    d->name, f.op, f.reg, f.why,
				    sun4v_pmu_status_name(f.status), n);
}

static int dram_get(struct sun4v_dram_pmu *d, unsigned long reg, u64 *val,
		    const char *why)
{
	unsigned long st = dram_hv_get(d, reg, val);

	if (st != HV_EOK)
		dram_log(d, "reading", reg, why, st);
	return sun4v_pmu_errno(st);
}

static int dram_set(struct sun4v_dram_pmu *d, unsigned long reg, u64 val,
		    const char *why)
{
	unsigned long st = dram_hv_set(d, reg, val);

	if (st != HV_EOK)
		dram_log(d, "writing", reg, why, st);
	return sun4v_pmu_errno(st);
}

static unsigned int dram_event_chan(struct sun4v_dram_pmu *d,
				    struct perf_event *event)
{
	u64 config = event->attr.config;

	if (d->desc.chip == SUN4V_PMU_VF)
		return FIELD_GET(DRAM_CFG_NODE, config) * SUN4V_PMU_VF_MCUS +
		       FIELD_GET(DRAM_CFG_MCU, config);
	return FIELD_GET(DRAM_CFG_CHANNEL, config);
}

/*
 * Add a half's progress since its last reading, modulo 2^31: one wrap
 * between two readings is harmless, and the poll comes sooner than two.
 * Called with the lock held, from whichever CPU reads.
 */
static void dram_fold(struct perf_event *event, u64 raw)
{
	u64 prev = local64_xchg(&event->hw.prev_count, raw);

	local64_add((raw - prev) & GENMASK_ULL(SUN4V_PMU_PIC_WIDTH - 1, 0),
		    &event->count);
}

/*
 * Read a channel's counter register once and fold both halves into their
 * events. On failure nothing changes: the next successful read accounts
 * for the whole interval. Called with the lock held.
 */
static int dram_update_chan(struct sun4v_dram_pmu *d, unsigned int c)
{
	const u64 mask = GENMASK_ULL(SUN4V_PMU_PIC_WIDTH - 1, 0);
	struct dram_chan *ch = &d->chan[c];
	u64 val;
	int s, ret;

	ret = dram_get(d, sun4v_pmu_pic_reg(d->desc.chip, c), &val, "counter");
	if (ret)
		return ret;
	for (s = 0; s < 2; s++) {
		struct perf_event *event = ch->slot[s];
		u64 raw = (val >> dram_pic_shift[s]) & mask;

		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		if (ch->stale[s]) {
			local64_set(&event->hw.prev_count, raw);
			ch->stale[s] = false;
		} else {
			dram_fold(event, raw);
		}
	}
	return 0;
}

/*
 * The poll period: poll_period_ms, or less if a counting event can reach
 * 2^31 sooner (DRAM_EVENTS' rates). Called with the lock held.
 */
static unsigned int dram_period_ms(struct sun4v_dram_pmu *d)
{
	unsigned int ms = READ_ONCE(d->poll_ms), code;

	for (code = 0; code < ARRAY_SIZE(d->nr_code); code++)
		if (d->nr_code[code])
			ms = min_t(unsigned int, ms, d->ceil_ms[code]);
	return ms;
}

static enum hrtimer_restart dram_poll(struct hrtimer *timer)
{
	struct sun4v_dram_pmu *d = container_of(timer, struct sun4v_dram_pmu,
						  timer);
	enum hrtimer_restart restart = HRTIMER_NORESTART;
	unsigned long flags;
	unsigned int c;

	raw_spin_lock_irqsave(&d->lock, flags);
	/*
	 * Nothing counts, or dram_start() re-armed the timer meanwhile (after
	 * a hotplug move the callback can run on another CPU): do not touch
	 * a queued timer.
	 */
	if (!d->nr_active || hrtimer_is_queued(timer))
		goto out;
	for (c = 0; c < d->nr_chans; c++) {
		struct dram_chan *ch = &d->chan[c];

		if (ch->slot[0] || ch->slot[1])
			dram_update_chan(d, c);
	}
	hrtimer_forward_now(timer, ms_to_ktime(dram_period_ms(d)));
	restart = HRTIMER_RESTART;
out:
	raw_spin_unlock_irqrestore(&d->lock, flags);
	return restart;
}

static int dram_validate_group(struct sun4v_dram_pmu *d,
			       struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	unsigned int c = dram_event_chan(d, event);
	unsigned int n = 1;

	/* A new leader has no siblings (and no ctx->mutex held for them). */
	if (leader == event)
		return 0;
	if (leader->pmu == event->pmu && dram_event_chan(d, leader) == c)
		n++;
	for_each_sibling_event(sibling, leader)
		if (sibling != event && sibling->pmu == event->pmu &&
		    dram_event_chan(d, sibling) == c)
			n++;
	/* Two counters per channel; perf cannot multiplex within a group. */
	return n > 2 ? -EINVAL : 0;
}

static bool dram_same_pmu_or_sw(struct perf_event *a, struct perf_event *b)
{
	return a->pmu == b->pmu || is_software_event(a);
}

static int dram_event_init(struct perf_event *event)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	u64 code;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* No interrupt to sample with, and no per-task counting. */
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	/*
	 * No other hardware PMU in the group: it could not be scheduled
	 * with ours. A software leader (a timer reading the group) may be.
	 * A new leader has no siblings, and perf core holds the leader's
	 * ctx->mutex, which for_each_sibling_event() asserts, only while a
	 * sibling is initialised.
	 */
	if (leader != event) {
		if (!dram_same_pmu_or_sw(leader, event))
			return -EINVAL;
		for_each_sibling_event(sibling, leader)
			if (!dram_same_pmu_or_sw(sibling, event))
				return -EINVAL;
	}
	ret = pmu_format_check(d->format_mask, &event->attr);
	if (ret)
		return ret;
	/* Only the listed events: another select value counts who knows what. */
	code = FIELD_GET(DRAM_CFG_EVENT, event->attr.config);
	if (code > DRAM_EVENT_MAX || !(d->valid & BIT(code)))
		return -EINVAL;
	if (!(d->present & BIT(dram_event_chan(d, event))))
		return -ENODEV;
	return dram_validate_group(d, event);
}

/*
 * Take a slot's baseline from the counter register now; if that read
 * fails, the next good read takes it. Called with the lock held.
 */
static void dram_rebase(struct sun4v_dram_pmu *d, unsigned int c, int s)
{
	struct perf_event *event = d->chan[c].slot[s];
	u64 val;

	if (dram_get(d, sun4v_pmu_pic_reg(d->desc.chip, c), &val, "counter")) {
		d->chan[c].stale[s] = true;
		return;
	}
	local64_set(&event->hw.prev_count,
		    (val >> dram_pic_shift[s]) &
		    GENMASK_ULL(SUN4V_PMU_PIC_WIDTH - 1, 0));
	d->chan[c].stale[s] = false;
}

static void dram_start(struct perf_event *event, int flags)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	unsigned int code = hw->event_base;
	unsigned long irqflags;
	ktime_t period;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	dram_rebase(d, hw->config_base, hw->idx);
	hw->state = 0;
	d->nr_code[code]++;
	period = ms_to_ktime(dram_period_ms(d));
	/* First event, or one that needs a shorter period than armed. */
	if (d->nr_active++ == 0 ||
	    ktime_compare(hrtimer_get_remaining(&d->timer), period) > 0)
		hrtimer_start(&d->timer, period, HRTIMER_MODE_REL_PINNED_HARD);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static void dram_stop(struct perf_event *event, int flags)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	unsigned long irqflags;

	if (hw->state & PERF_HES_STOPPED)
		return;
	raw_spin_lock_irqsave(&d->lock, irqflags);
	if (flags & PERF_EF_UPDATE)
		dram_update_chan(d, hw->config_base);
	hw->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	d->nr_code[hw->event_base]--;
	/* A running callback sees nr_active == 0 and does not restart. */
	if (--d->nr_active == 0)
		hrtimer_try_to_cancel(&d->timer);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static int dram_add(struct perf_event *event, int flags)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	unsigned int c = dram_event_chan(d, event);
	struct dram_chan *ch = &d->chan[c];
	u64 code = FIELD_GET(DRAM_CFG_EVENT, event->attr.config);
	struct perf_event *other;
	unsigned long irqflags;
	int s, ret = 0;
	u64 ctl;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	/* Prefer a half that already selects this event: no write needed. */
	for (s = 0; s < 2; s++)
		if (!ch->slot[s] &&
		    ((ch->ctl >> dram_sel_shift[s]) & SUN4V_PMU_SEL_MASK) == code)
			break;
	if (s == 2)
		s = !ch->slot[0] ? 0 : !ch->slot[1] ? 1 : -1;
	if (s < 0) {
		ret = -EAGAIN;	/* both halves busy: perf multiplexes */
		goto out;
	}
	ctl = (ch->ctl & ~(SUN4V_PMU_SEL_MASK << dram_sel_shift[s])) |
	      code << dram_sel_shift[s];
	if (ctl != ch->ctl) {
		/*
		 * Nothing says a control write leaves the counter register
		 * alone: fold the other half's count first and take its
		 * baseline again after the write, whatever the write did. If
		 * that fold fails, the new baseline would drop the other
		 * event's count since its last read: leave the register alone
		 * and let perf try this event again.
		 */
		other = ch->slot[!s];
		if (other && !(other->hw.state & PERF_HES_STOPPED)) {
			if (dram_update_chan(d, c)) {
				ret = -EAGAIN;
				goto out;
			}
		} else {
			other = NULL;
		}
		ret = dram_set(d, sun4v_pmu_ctl_reg(d->desc.chip, c), ctl,
			       "control");
		if (!ret)
			ch->ctl = ctl;
		if (other)
			dram_rebase(d, c, !s);
		if (ret)
			goto out;
	}
	ch->slot[s] = event;
	hw->idx = s;
	hw->config_base = c;
	hw->event_base = code;
	hw->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
out:
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
	if (!ret && (flags & PERF_EF_START))
		dram_start(event, PERF_EF_RELOAD);
	return ret;
}

static void dram_del(struct perf_event *event, int flags)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	unsigned long irqflags;

	dram_stop(event, PERF_EF_UPDATE);
	raw_spin_lock_irqsave(&d->lock, irqflags);
	d->chan[event->hw.config_base].slot[event->hw.idx] = NULL;
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static void dram_read(struct perf_event *event)
{
	struct sun4v_dram_pmu *d = to_dram(event->pmu);
	struct dram_txn *txn;
	unsigned long irqflags;

	/*
	 * perf_event_read_local() may call this from a BPF program in NMI
	 * context, which local_irq_save() does not keep out on sparc64: the
	 * lock may be held on this CPU. The count stays as last folded.
	 */
	if (in_nmi() || (event->hw.state & PERF_HES_STOPPED))
		return;
	raw_spin_lock_irqsave(&d->lock, irqflags);
	txn = this_cpu_ptr(d->txn);
	/* In a group read, one counter-register read per channel at commit. */
	if (txn->flags & PERF_PMU_TXN_READ)
		txn->pending |= BIT(event->hw.config_base);
	else
		dram_update_chan(d, event->hw.config_base);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

/*
 * perf core calls the transaction callbacks and the reads between them on
 * one CPU with interrupts disabled, so this CPU's state is theirs alone.
 */
static void dram_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct dram_txn *txn = this_cpu_ptr(to_dram(pmu)->txn);

	txn->flags = txn_flags;
	txn->pending = 0;
}

static int dram_commit_txn(struct pmu *pmu)
{
	struct sun4v_dram_pmu *d = to_dram(pmu);
	struct dram_txn *txn;
	unsigned long irqflags;
	unsigned int c;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	txn = this_cpu_ptr(d->txn);
	if (txn->flags & PERF_PMU_TXN_READ)
		for (c = 0; c < d->nr_chans; c++)
			if (txn->pending & BIT(c))
				dram_update_chan(d, c);
	txn->flags = 0;
	txn->pending = 0;
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
	return 0;
}

static void dram_cancel_txn(struct pmu *pmu)
{
	struct dram_txn *txn = this_cpu_ptr(to_dram(pmu)->txn);

	txn->flags = 0;
	txn->pending = 0;
}

static ssize_t poll_period_ms_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct sun4v_dram_pmu *d = to_dram(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%u\n", READ_ONCE(d->poll_ms));
}

static ssize_t poll_period_ms_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct sun4v_dram_pmu *d = to_dram(dev_get_drvdata(dev));
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 0, &ms);
	if (ret)
		return ret;
	/* Longer could let a counter wrap twice unseen (DRAM_CEIL_MS). */
	if (!ms || ms > DRAM_POLL_MS_MAX)
		return -EINVAL;
	/* Takes effect at the next expiry. */
	WRITE_ONCE(d->poll_ms, ms);
	return count;
}
static DEVICE_ATTR_RW(poll_period_ms);

static ssize_t channels_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct sun4v_dram_pmu *d = to_dram(dev_get_drvdata(dev));
	unsigned int c;
	int n = 0;

	for (c = 0; c < d->nr_chans; c++) {
		if (!(d->present & BIT(c)))
			continue;
		if (d->desc.chip == SUN4V_PMU_VF)
			n += sysfs_emit_at(buf, n, "node=%u,mcu=%u\n",
					   c / SUN4V_PMU_VF_MCUS,
					   c % SUN4V_PMU_VF_MCUS);
		else
			n += sysfs_emit_at(buf, n, "channel=%u\n", c);
	}
	return n;
}
static DEVICE_ATTR_RO(channels);

static struct attribute *dram_attrs[] = {
	&dev_attr_poll_period_ms.attr,
	&dev_attr_channels.attr,
	NULL
};

static const struct attribute_group dram_group = {
	.attrs = dram_attrs,
};

static const struct attribute_group dram_n2_format_group = {
	.name = "format",
	.attrs = dram_n2_format,
};

static const struct attribute_group dram_n2_events_group = {
	.name = "events",
	.attrs = dram_n2_events,
};

static const struct attribute_group *dram_n2_groups[] = {
	&dram_n2_format_group,
	&dram_n2_events_group,
	&dram_group,
	NULL
};

static const struct attribute_group dram_vf_format_group = {
	.name = "format",
	.attrs = dram_vf_format,
};

static const struct attribute_group dram_vf_events_group = {
	.name = "events",
	.attrs = dram_vf_events,
};

static const struct attribute_group *dram_vf_groups[] = {
	&dram_vf_format_group,
	&dram_vf_events_group,
	&dram_group,
	NULL
};

/*
 * Find the channel's control register's reset value and whether the
 * channel exists. A VF hypervisor answers EINVAL or ENOTSUPPORTED for an
 * absent node; an N2 hypervisor answers EOK, reads 0 and drops writes for
 * a disabled channel (the released sun4v hypervisor's hcall_niagara2.s),
 * so a select pattern is written and read back, then the old value
 * restored. Only bits 7:4 and 3:0 are the control register's; what the
 * hypervisor returns above them is unknown and ignored.
 * Return: 1 if present, 0 if absent, a negative errno if probing failed.
 */
static int dram_detect(struct sun4v_dram_pmu *d, unsigned int c)
{
	unsigned long reg = sun4v_pmu_ctl_reg(d->desc.chip, c);
	const u64 probe = 0x01;
	unsigned long st;
	u64 old, back;
	int ret, err;

	st = dram_hv_get(d, reg, &old);
	if (st == HV_EINVAL || st == HV_ENOTSUPPORTED)
		return 0;
	ret = sun4v_pmu_errno(st);
	if (ret) {
		pr_warn("%s: probing PerfReg %lu failed: %s\n", d->name, reg,
			sun4v_pmu_status_name(st));
		return ret;
	}
	old &= SUN4V_PMU_CTL_MASK;
	d->chan[c].ctl = old;
	if (old)
		return 1;	/* a disabled channel reads 0 */

	ret = dram_set(d, reg, probe, "probe");
	if (ret)
		return ret;
	ret = dram_get(d, reg, &back, "probe");
	/* Put the old value back, whatever the read said. */
	err = dram_set(d, reg, old, "probe");
	if (ret || err)
		return ret ?: err;
	return (back & SUN4V_PMU_CTL_MASK) == probe;
}

/* The valid select values and their poll ceilings. */
static void dram_init_events(struct sun4v_dram_pmu *d)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dram_events); i++) {
		const struct dram_event *e = &dram_events[i];

		d->valid |= BIT(e->code);
		d->ceil_ms[e->code] = DRAM_POLL_MS_MAX / e->rate;
	}
}

/**
 * sun4v_dram_pmu_probe() - find the DRAM channels and register the PMU
 * @desc: chip and backend; copied
 *
 * Registers "niagara2_dram" or "vfalls_dram" with the channels that answer.
 * The API group must stay negotiated for the whole lifetime of the PMU.
 *
 * Return: the PMU, or an ERR_PTR(): -EACCES if the domain has no
 * perf-counter access, -ENODEV if no channel exists, -ENOMEM, or the errno
 * of a failed hypercall. Nothing is left registered on error, and every
 * control register holds what it held before.
 */
VISIBLE_IF_KUNIT struct sun4v_dram_pmu *
sun4v_dram_pmu_probe(const struct sun4v_pmu_desc *desc)
{
	const struct attribute_group **groups;
	struct sun4v_dram_pmu *d;
	unsigned int c;
	int ret;

	if (!desc || !desc->hv || !desc->hv->get_perfreg ||
	    !desc->hv->set_perfreg)
		return ERR_PTR(-EINVAL);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->desc = *desc;
	if (desc->chip == SUN4V_PMU_VF) {
		d->name = desc->name ?: "vfalls_dram";
		d->format_mask = dram_vf_format_mask;
		groups = dram_vf_groups;
		d->nr_chans = SUN4V_PMU_VF_NODES * SUN4V_PMU_VF_MCUS;
	} else {
		d->name = desc->name ?: "niagara2_dram";
		d->format_mask = dram_n2_format_mask;
		groups = dram_n2_groups;
		d->nr_chans = SUN4V_PMU_N2_CHANNELS;
	}
	dram_init_events(d);
	d->poll_ms = DRAM_POLL_MS_DEFAULT;
	raw_spin_lock_init(&d->lock);
	init_irq_work(&d->log_work, dram_log_work);
	hrtimer_init(&d->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	d->timer.function = dram_poll;

	for (c = 0; c < d->nr_chans; c++) {
		ret = dram_detect(d, c);
		if (ret < 0)
			goto err_free;
		if (ret)
			d->present |= BIT(c);
	}
	if (!d->present) {
		pr_info("%s: no DRAM channel present\n", d->name);
		ret = -ENODEV;
		goto err_free;
	}
	d->txn = alloc_percpu(struct dram_txn);
	if (!d->txn) {
		ret = -ENOMEM;
		goto err_free;
	}
	/*
	 * Every strand reaches every channel through the hypercall (the VF
	 * API numbers all nodes' registers globally), so any CPU reads the
	 * events without an IPI. A channel's two counters are shared by the
	 * system: perf core counts every event on the CPU of the scope's
	 * cpumask, in one context that schedules them all.
	 */
	d->pmu = (struct pmu) {
		.module		= desc->owner ?: THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE |
				  PERF_PMU_CAP_SCOPE_BIND,
		.scope		= PERF_PMU_SCOPE_SYS_WIDE,
		.attr_groups	= groups,
		.event_init	= dram_event_init,
		.add		= dram_add,
		.del		= dram_del,
		.start		= dram_start,
		.stop		= dram_stop,
		.read		= dram_read,
		.start_txn	= dram_start_txn,
		.commit_txn	= dram_commit_txn,
		.cancel_txn	= dram_cancel_txn,
	};
	ret = perf_pmu_register(&d->pmu, d->name, -1);
	if (ret) {
		pr_warn("%s: registering the PMU failed: %d\n", d->name, ret);
		goto err_free;
	}
	pr_info("%s: %u DRAM channel(s), counters polled every %u ms\n",
		d->name, hweight32(d->present), d->poll_ms);
	return d;

err_free:
	irq_work_sync(&d->log_work);
	free_percpu(d->txn);
	kfree(d);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_pmu_probe);

/**
 * sun4v_dram_pmu_remove() - unregister a PMU made by sun4v_dram_pmu_probe()
 * @d: the PMU, or NULL
 */
VISIBLE_IF_KUNIT void sun4v_dram_pmu_remove(struct sun4v_dram_pmu *d)
{
	if (IS_ERR_OR_NULL(d))
		return;
	perf_pmu_unregister(&d->pmu);
	hrtimer_cancel(&d->timer);
	irq_work_sync(&d->log_work);
	free_percpu(d->txn);
	kfree(d);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_pmu_remove);

/**
 * sun4v_dram_pmu_to_pmu() - the perf PMU of a DRAM PMU instance
 * @d: the instance
 *
 * Return: the registered &struct pmu (its type, device and sysfs groups).
 */
#if IS_ENABLED(CONFIG_KUNIT)
struct pmu *sun4v_dram_pmu_to_pmu(struct sun4v_dram_pmu *d)
{
	return &d->pmu;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_pmu_to_pmu);
#endif

/*
 * The device: registered by the sparc64 arch code on a T2 ("niagara2_dram")
 * or a T2+ ("vfalls_dram"); the API group is negotiated here, and held for
 * the lifetime of the PMU.
 */
static unsigned long sun4v_dram_group(enum sun4v_pmu_chip chip)
{
	return chip == SUN4V_PMU_VF ? HV_GRP_VF_CPU : HV_GRP_N2_CPU;
}

static int sun4v_dram_platform_probe(struct platform_device *pdev)
{
	struct sun4v_pmu_desc desc = {
		.chip = platform_get_device_id(pdev)->driver_data,
		.owner = THIS_MODULE,
	};
	unsigned long group = sun4v_dram_group(desc.chip);
	struct sun4v_dram_pmu *d;
	unsigned long minor = 0;
	int err;

	desc.hv = &dram_hv[desc.chip];
	/* Refcounted: this shares pcr.c's registration of the group. */
	err = sun4v_hvapi_register(group, 1, &minor);
	if (err) {
		dev_info(&pdev->dev, "hypervisor API group %#lx v1.0 not available (%d), no DRAM PMU\n",
			 group, err);
		return -ENODEV;
	}
	d = sun4v_dram_pmu_probe(&desc);
	if (IS_ERR(d)) {
		sun4v_hvapi_unregister(group);
		return PTR_ERR(d);
	}
	platform_set_drvdata(pdev, d);
	return 0;
}

static void sun4v_dram_platform_remove(struct platform_device *pdev)
{
	struct sun4v_dram_pmu *d = platform_get_drvdata(pdev);
	enum sun4v_pmu_chip chip = d->desc.chip;

	sun4v_dram_pmu_remove(d);	/* frees d */
	sun4v_hvapi_unregister(sun4v_dram_group(chip));
}

static const struct platform_device_id sun4v_dram_pmu_ids[] = {
	{ "niagara2_dram", SUN4V_PMU_N2 },
	{ "vfalls_dram", SUN4V_PMU_VF },
	{ }
};
MODULE_DEVICE_TABLE(platform, sun4v_dram_pmu_ids);

static struct platform_driver sun4v_dram_pmu_driver = {
	.driver = {
		.name = "sun4v_dram_pmu",
		.suppress_bind_attrs = true,
	},
	.probe = sun4v_dram_platform_probe,
	.remove = sun4v_dram_platform_remove,
	.id_table = sun4v_dram_pmu_ids,
};
module_platform_driver(sun4v_dram_pmu_driver);

MODULE_DESCRIPTION("sun4v Niagara2 / Victoria Falls DRAM performance counters");
MODULE_LICENSE("GPL");
