// SPDX-License-Identifier: GPL-2.0
/*
 * niagara2_dram and vfalls_dram: the DRAM controller performance counters
 * of the UltraSPARC T2 and T2+, reached through the sun4v perfreg
 * hypercalls (see include/linux/perf/hvpmu_sun4v.h).
 *
 * Each channel (an N2 DRAM channel, a VF node's MCU) has one control
 * register selecting two events and one counter register holding two
 * 31-bit counters without an overflow interrupt. Both halves are read with
 * one hypercall; an hrtimer that runs only while events are counting folds
 * them into 64-bit counts often enough that they never wrap unseen.
 */

#define pr_fmt(fmt) "hvpmu_sun4v: " fmt

#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_sun4v.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <kunit/visibility.h>

/* Default poll period; see Documentation/admin-guide/perf/sun4v-dram.rst. */
#define DRAM_POLL_MS_DEFAULT	100
#define DRAM_POLL_MS_MAX	1000

/* Field indices: same order in both tables. */
enum { DRAM_F_EVENT, DRAM_F_CHAN, DRAM_F_MCU };

/* 0xf is illumos' "clear_pic" select pattern, not an event (ref 1.3). */
#define DRAM_EVENT_MAX		0xe

static const struct hvpmu_field n2_fields[] = {
	[DRAM_F_EVENT] = HVPMU_FIELD("event", HVPMU_CONFIG, 0, 4,
				     .max = DRAM_EVENT_MAX),
	[DRAM_F_CHAN] = HVPMU_FIELD("channel", HVPMU_CONFIG, 8, 2),
};

static const struct hvpmu_field vf_fields[] = {
	[DRAM_F_EVENT] = HVPMU_FIELD("event", HVPMU_CONFIG, 0, 4,
				     .max = DRAM_EVENT_MAX),
	[DRAM_F_CHAN] = HVPMU_FIELD("node", HVPMU_CONFIG, 8, 2),
	[DRAM_F_MCU] = HVPMU_FIELD("mcu", HVPMU_CONFIG, 10, 1),
};

#define N2_EVENT(_name, _code) { .name = #_name, .terms = "event=" #_code ",channel=?" }
#define VF_EVENT(_name, _code) { .name = #_name, .terms = "event=" #_code ",node=?,mcu=?" }

/* Event codes exported by illumos for N2 and VF (ref 1.3). */
static const struct hvpmu_event n2_events[] = {
	N2_EVENT(mem_reads, 0x0),
	N2_EVENT(mem_writes, 0x1),
	N2_EVENT(mem_read_write, 0x2),
	N2_EVENT(rd_queue_latency, 0x4),
	N2_EVENT(wr_queue_latency, 0x5),
	N2_EVENT(rw_queue_latency, 0x6),
	N2_EVENT(wb_buf_hits, 0x7),
};

static const struct hvpmu_event vf_events[] = {
	VF_EVENT(mem_reads, 0x0),
	VF_EVENT(mem_writes, 0x1),
	VF_EVENT(mem_read_write, 0x2),
	VF_EVENT(rd_queue_latency, 0x4),
	VF_EVENT(wr_queue_latency, 0x5),
	VF_EVENT(rw_queue_latency, 0x6),
	VF_EVENT(wb_buf_hits, 0x7),
};

static const struct hvpmu_encoding n2_enc = HVPMU_ENCODING(n2_fields, n2_events);
static const struct hvpmu_encoding vf_enc = HVPMU_ENCODING(vf_fields, vf_events);

/* What the hypervisor said to the last PCR write with HT set. */
enum { DRAM_HT_UNUSED, DRAM_HT_ALLOWED, DRAM_HT_REFUSED };

/* PCR.HT: count hyperprivileged events; writable only by the hypervisor. */
#define DRAM_PCR_HT		BIT_ULL(3)

/* Slot 0 is PIC0 (counter bits 62:32), slot 1 is PIC1 (bits 30:0). */
static const unsigned int dram_sel_shift[2] = { HVPMU_SUN4V_SEL0_SHIFT,
						HVPMU_SUN4V_SEL1_SHIFT };
static const unsigned int dram_pic_shift[2] = { HVPMU_SUN4V_PIC0_SHIFT,
						HVPMU_SUN4V_PIC1_SHIFT };

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
 * struct hvpmu_sun4v_dram - one DRAM PMU
 * @uncore: the PMU and its designated CPU
 * @desc: chip and backend
 * @name: "niagara2_dram" or "vfalls_dram"
 * @enc: the config ABI
 * @attrs: sysfs format/ and events/
 * @groups: attribute groups of the PMU device
 * @lock: serialises the channel state, the poll timer and the backend
 * @timer: polls the counters while at least one event counts
 * @poll_ms: poll period, from sysfs poll_period_ms
 * @nr_active: events started
 * @nr_chans: channels the chip can have
 * @present: bit per channel found at probe
 * @ht: hyperprivileged counting: DRAM_HT_UNUSED, _ALLOWED or _REFUSED
 * @l2_lock: serialises @l2_mode and @l2_users
 * @l2_mode: VF PERF_CONFIG setting per node while it has users
 * @l2_users: users of each node's PERF_CONFIG setting
 * @cpu_node: the node of each possible CPU, -1 if unknown
 * @txn_flags: current perf transaction
 * @txn_pending: channels read inside the current read transaction
 * @chan: per-channel state
 */
struct hvpmu_sun4v_dram {
	struct hvpmu_uncore uncore;
	struct hvpmu_sun4v_desc desc;
	const char *name;
	const struct hvpmu_encoding *enc;
	struct hvpmu_attrs attrs;
	const struct attribute_group *groups[5];
	raw_spinlock_t lock;
	struct hrtimer timer;
	unsigned int poll_ms;
	unsigned int nr_active;
	unsigned int nr_chans;
	u32 present;
	int ht;
	struct mutex l2_lock;	/* l2_mode, l2_users */
	unsigned int l2_mode[HVPMU_SUN4V_VF_NODES];
	unsigned int l2_users[HVPMU_SUN4V_VF_NODES];
	s8 *cpu_node;
	unsigned int txn_flags;
	u32 txn_pending;
	struct dram_chan chan[HVPMU_SUN4V_MAX_CHANNELS];
};

static struct hvpmu_sun4v_dram *to_dram(struct pmu *pmu)
{
	return container_of(hvpmu_uncore_from_pmu(pmu), struct hvpmu_sun4v_dram,
			    uncore);
}

/**
 * hvpmu_sun4v_status_name() - name of a sun4v hypervisor status
 * @hv_status: the status
 *
 * Return: e.g. "ENOACCESS", or "unknown status".
 */
const char *hvpmu_sun4v_status_name(unsigned long hv_status)
{
	switch (hv_status) {
	case HVPMU_SUN4V_EOK:
		return "EOK";
	case HVPMU_SUN4V_EINVAL:
		return "EINVAL";
	case HVPMU_SUN4V_EBADTRAP:
		return "EBADTRAP";
	case HVPMU_SUN4V_EWOULDBLOCK:
		return "EWOULDBLOCK";
	case HVPMU_SUN4V_ENOACCESS:
		return "ENOACCESS";
	case HVPMU_SUN4V_ENOTSUPPORTED:
		return "ENOTSUPPORTED";
	default:
		return "unknown status";
	}
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_status_name);

/**
 * hvpmu_sun4v_errno() - errno for a sun4v hypervisor status
 * @hv_status: the status
 *
 * Return: 0 for EOK, -EACCES for ENOACCESS (the domain has no perf-counter
 * access), -ENODEV for EINVAL and ENOTSUPPORTED (no such register),
 * -EBUSY for EWOULDBLOCK, -EOPNOTSUPP for EBADTRAP (API group not
 * negotiated), -EIO otherwise.
 */
int hvpmu_sun4v_errno(unsigned long hv_status)
{
	switch (hv_status) {
	case HVPMU_SUN4V_EOK:
		return 0;
	case HVPMU_SUN4V_ENOACCESS:
		return -EACCES;
	case HVPMU_SUN4V_EINVAL:
	case HVPMU_SUN4V_ENOTSUPPORTED:
		return -ENODEV;
	case HVPMU_SUN4V_EWOULDBLOCK:
		return -EBUSY;
	case HVPMU_SUN4V_EBADTRAP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_errno);

static int dram_get(struct hvpmu_sun4v_dram *d, unsigned long reg, u64 *val,
		    const char *why)
{
	unsigned long st = d->desc.ops->get_perfreg(d->desc.ctx, reg, val);

	if (st != HVPMU_SUN4V_EOK)
		pr_warn_ratelimited("%s: reading PerfReg %lu (%s) failed: %s\n",
				    d->name, reg, why,
				    hvpmu_sun4v_status_name(st));
	return hvpmu_sun4v_errno(st);
}

static int dram_set(struct hvpmu_sun4v_dram *d, unsigned long reg, u64 val,
		    const char *why)
{
	unsigned long st = d->desc.ops->set_perfreg(d->desc.ctx, reg, val);

	if (st != HVPMU_SUN4V_EOK)
		pr_warn_ratelimited("%s: writing PerfReg %lu (%s) failed: %s\n",
				    d->name, reg, why,
				    hvpmu_sun4v_status_name(st));
	return hvpmu_sun4v_errno(st);
}

static unsigned int dram_event_chan(struct hvpmu_sun4v_dram *d,
				    struct perf_event *event)
{
	const struct hvpmu_field *f = d->enc->fields;
	unsigned int c = hvpmu_field_get(&f[DRAM_F_CHAN], &event->attr);

	if (d->desc.chip == HVPMU_SUN4V_VF)
		c = c * HVPMU_SUN4V_VF_MCUS +
		    hvpmu_field_get(&f[DRAM_F_MCU], &event->attr);
	return c;
}

/*
 * Read a channel's counter register once and fold both halves into their
 * events. On failure nothing changes: the next successful read accounts
 * for the whole interval. Called with the lock held.
 */
static int dram_update_chan(struct hvpmu_sun4v_dram *d, unsigned int c)
{
	const u64 mask = GENMASK_ULL(HVPMU_SUN4V_PIC_WIDTH - 1, 0);
	struct dram_chan *ch = &d->chan[c];
	u64 val;
	int s, ret;

	ret = dram_get(d, hvpmu_sun4v_pic_reg(d->desc.chip, c), &val, "counter");
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
			hvpmu_counter_fold(event, raw, HVPMU_SUN4V_PIC_WIDTH);
		}
	}
	return 0;
}

static enum hrtimer_restart dram_poll(struct hrtimer *timer)
{
	struct hvpmu_sun4v_dram *d = container_of(timer, struct hvpmu_sun4v_dram,
						  timer);
	unsigned long flags;
	unsigned int c, period;

	raw_spin_lock_irqsave(&d->lock, flags);
	if (!d->nr_active) {
		raw_spin_unlock_irqrestore(&d->lock, flags);
		return HRTIMER_NORESTART;
	}
	for (c = 0; c < d->nr_chans; c++) {
		struct dram_chan *ch = &d->chan[c];

		if (ch->slot[0] || ch->slot[1])
			dram_update_chan(d, c);
	}
	period = READ_ONCE(d->poll_ms);
	raw_spin_unlock_irqrestore(&d->lock, flags);

	hrtimer_forward_now(timer, ms_to_ktime(period));
	return HRTIMER_RESTART;
}

static int dram_validate_group(struct hvpmu_sun4v_dram *d,
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

static int dram_event_init(struct perf_event *event)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	int ret;

	ret = hvpmu_uncore_event_init(&d->uncore, event);
	if (ret)
		return ret;
	ret = hvpmu_config_check(d->enc, &event->attr);
	if (ret)
		return ret;
	if (!(d->present & BIT(dram_event_chan(d, event))))
		return -ENODEV;
	return dram_validate_group(d, event);
}

static void dram_start(struct perf_event *event, int flags)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	struct dram_chan *ch = &d->chan[hw->config_base];
	unsigned long irqflags;
	u64 val;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	if (dram_get(d, hvpmu_sun4v_pic_reg(d->desc.chip, hw->config_base),
		     &val, "counter")) {
		ch->stale[hw->idx] = true;
	} else {
		local64_set(&hw->prev_count,
			    (val >> dram_pic_shift[hw->idx]) &
			    GENMASK_ULL(HVPMU_SUN4V_PIC_WIDTH - 1, 0));
		ch->stale[hw->idx] = false;
	}
	hw->state = 0;
	if (d->nr_active++ == 0)
		hrtimer_start(&d->timer, ms_to_ktime(READ_ONCE(d->poll_ms)),
			      HRTIMER_MODE_REL_PINNED_HARD);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static void dram_stop(struct perf_event *event, int flags)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	unsigned long irqflags;

	if (hw->state & PERF_HES_STOPPED)
		return;
	raw_spin_lock_irqsave(&d->lock, irqflags);
	if (flags & PERF_EF_UPDATE)
		dram_update_chan(d, hw->config_base);
	hw->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* A running callback sees nr_active == 0 and does not restart. */
	if (--d->nr_active == 0)
		hrtimer_try_to_cancel(&d->timer);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static int dram_add(struct perf_event *event, int flags)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	struct hw_perf_event *hw = &event->hw;
	unsigned int c = dram_event_chan(d, event);
	struct dram_chan *ch = &d->chan[c];
	u64 code = hvpmu_field_get(&d->enc->fields[DRAM_F_EVENT], &event->attr);
	unsigned long irqflags;
	int s, ret = 0;
	u64 ctl;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	/* Prefer a half that already selects this event: no write needed. */
	for (s = 0; s < 2; s++)
		if (!ch->slot[s] &&
		    ((ch->ctl >> dram_sel_shift[s]) & HVPMU_SUN4V_SEL_MASK) == code)
			break;
	if (s == 2)
		s = !ch->slot[0] ? 0 : !ch->slot[1] ? 1 : -1;
	if (s < 0) {
		ret = -EAGAIN;	/* both halves busy: perf multiplexes */
		goto out;
	}
	ctl = (ch->ctl & ~(HVPMU_SUN4V_SEL_MASK << dram_sel_shift[s])) |
	      code << dram_sel_shift[s];
	if (ctl != ch->ctl) {
		ret = dram_set(d, hvpmu_sun4v_ctl_reg(d->desc.chip, c), ctl,
			       "control");
		if (ret)
			goto out;
		ch->ctl = ctl;
	}
	ch->slot[s] = event;
	hw->idx = s;
	hw->config_base = c;
	hw->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
out:
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
	if (!ret && (flags & PERF_EF_START))
		dram_start(event, PERF_EF_RELOAD);
	return ret;
}

static void dram_del(struct perf_event *event, int flags)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	unsigned long irqflags;

	dram_stop(event, PERF_EF_UPDATE);
	raw_spin_lock_irqsave(&d->lock, irqflags);
	d->chan[event->hw.config_base].slot[event->hw.idx] = NULL;
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static void dram_read(struct perf_event *event)
{
	struct hvpmu_sun4v_dram *d = to_dram(event->pmu);
	unsigned long irqflags;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	raw_spin_lock_irqsave(&d->lock, irqflags);
	/* In a group read, one counter-register read per channel at commit. */
	if (d->txn_flags & PERF_PMU_TXN_READ)
		d->txn_pending |= BIT(event->hw.config_base);
	else
		dram_update_chan(d, event->hw.config_base);
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
}

static void dram_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct hvpmu_sun4v_dram *d = to_dram(pmu);

	d->txn_flags = txn_flags;
	d->txn_pending = 0;
}

static int dram_commit_txn(struct pmu *pmu)
{
	struct hvpmu_sun4v_dram *d = to_dram(pmu);
	unsigned long irqflags;
	unsigned int c;

	raw_spin_lock_irqsave(&d->lock, irqflags);
	if (d->txn_flags & PERF_PMU_TXN_READ)
		for (c = 0; c < d->nr_chans; c++)
			if (d->txn_pending & BIT(c))
				dram_update_chan(d, c);
	d->txn_flags = 0;
	d->txn_pending = 0;
	raw_spin_unlock_irqrestore(&d->lock, irqflags);
	return 0;
}

static void dram_cancel_txn(struct pmu *pmu)
{
	struct hvpmu_sun4v_dram *d = to_dram(pmu);

	d->txn_flags = 0;
	d->txn_pending = 0;
}

static ssize_t poll_period_ms_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct hvpmu_sun4v_dram *d = to_dram(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%u\n", READ_ONCE(d->poll_ms));
}

static ssize_t poll_period_ms_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct hvpmu_sun4v_dram *d = to_dram(dev_get_drvdata(dev));
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 0, &ms);
	if (ret)
		return ret;
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
	struct hvpmu_sun4v_dram *d = to_dram(dev_get_drvdata(dev));
	unsigned int c;
	int n = 0;

	for (c = 0; c < d->nr_chans; c++) {
		if (!(d->present & BIT(c)))
			continue;
		if (d->desc.chip == HVPMU_SUN4V_VF)
			n += sysfs_emit_at(buf, n, "node=%u,mcu=%u\n",
					   c / HVPMU_SUN4V_VF_MCUS,
					   c % HVPMU_SUN4V_VF_MCUS);
		else
			n += sysfs_emit_at(buf, n, "channel=%u\n", c);
	}
	return n;
}
static DEVICE_ATTR_RO(channels);

static ssize_t hyperprivileged_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	static const char *const state[] = {
		[DRAM_HT_UNUSED] = "unused",
		[DRAM_HT_ALLOWED] = "allowed",
		[DRAM_HT_REFUSED] = "refused",
	};
	struct hvpmu_sun4v_dram *d = to_dram(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%s\n", state[READ_ONCE(d->ht)]);
}
static DEVICE_ATTR_RO(hyperprivileged);

static struct attribute *dram_attrs[] = {
	&dev_attr_poll_period_ms.attr,
	&dev_attr_channels.attr,
	&dev_attr_hyperprivileged.attr,
	NULL
};

static const struct attribute_group dram_group = {
	.attrs = dram_attrs,
};

/*
 * Find the channel's control register's reset value and whether the
 * channel exists. A VF hypervisor answers EINVAL or ENOTSUPPORTED for an
 * absent node; an N2 hypervisor answers EOK, reads 0 and drops writes for
 * a disabled channel (ref 1.5), so a select pattern is written and read
 * back, then the old value restored.
 * Return: 1 if present, 0 if absent, a negative errno if probing failed.
 */
static int dram_detect(struct hvpmu_sun4v_dram *d, unsigned int c)
{
	unsigned long reg = hvpmu_sun4v_ctl_reg(d->desc.chip, c);
	const u64 probe = 0x01;
	unsigned long st;
	u64 old, back;
	int ret;

	st = d->desc.ops->get_perfreg(d->desc.ctx, reg, &old);
	if (st == HVPMU_SUN4V_EINVAL || st == HVPMU_SUN4V_ENOTSUPPORTED)
		return 0;
	ret = hvpmu_sun4v_errno(st);
	if (ret) {
		pr_warn("%s: probing PerfReg %lu failed: %s\n", d->name, reg,
			hvpmu_sun4v_status_name(st));
		return ret;
	}
	d->chan[c].ctl = old & HVPMU_SUN4V_CTL_MASK;
	if (old)
		return 1;	/* a disabled channel reads 0 */

	ret = dram_set(d, reg, probe, "probe");
	if (!ret)
		ret = dram_get(d, reg, &back, "probe");
	if (!ret && back == probe)
		ret = dram_set(d, reg, old, "probe");
	else if (!ret)
		return 0;
	return ret ? ret : 1;
}

/**
 * hvpmu_sun4v_dram_probe() - find the DRAM channels and register the PMU
 * @desc: chip and backend; copied
 *
 * Registers "niagara2_dram" or "vfalls_dram" with the channels that answer.
 * The backend must be usable (API group negotiated) for the whole lifetime
 * of the PMU.
 *
 * Return: the PMU, or an ERR_PTR(): -EACCES if the domain has no
 * perf-counter access, -ENODEV if no channel exists, -ENOMEM, or the errno
 * of a failed hypercall. Nothing is left registered on error.
 */
struct hvpmu_sun4v_dram *hvpmu_sun4v_dram_probe(const struct hvpmu_sun4v_desc *desc)
{
	struct hvpmu_sun4v_dram *d;
	unsigned int c;
	int ret;

	if (!desc || !desc->ops || !desc->ops->get_perfreg ||
	    !desc->ops->set_perfreg)
		return ERR_PTR(-EINVAL);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->desc = *desc;
	if (desc->chip == HVPMU_SUN4V_VF) {
		d->name = "vfalls_dram";
		d->enc = &vf_enc;
		d->nr_chans = HVPMU_SUN4V_VF_NODES * HVPMU_SUN4V_VF_MCUS;
	} else {
		d->name = "niagara2_dram";
		d->enc = &n2_enc;
		d->nr_chans = HVPMU_SUN4V_N2_CHANNELS;
	}
	d->poll_ms = DRAM_POLL_MS_DEFAULT;
	raw_spin_lock_init(&d->lock);
	mutex_init(&d->l2_lock);
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
	if (desc->chip == HVPMU_SUN4V_VF && desc->ops->cpu_socket) {
		int *sock = kcalloc(nr_cpu_ids, sizeof(*sock), GFP_KERNEL);

		d->cpu_node = kcalloc(nr_cpu_ids, sizeof(*d->cpu_node),
				      GFP_KERNEL);
		if (!sock || !d->cpu_node) {
			kfree(sock);
			ret = -ENOMEM;
			goto err_free;
		}
		for (c = 0; c < nr_cpu_ids; c++)
			sock[c] = cpu_possible(c) ?
				  desc->ops->cpu_socket(desc->ctx, c) : -1;
		hvpmu_sun4v_l2_nodes(sock, nr_cpu_ids, d->cpu_node);
		kfree(sock);
	}

	ret = hvpmu_attrs_build(&d->attrs, d->enc, 0);
	if (ret)
		goto err_free;
	d->groups[0] = &d->attrs.format;
	d->groups[1] = &d->attrs.events;
	d->groups[2] = &hvpmu_uncore_cpumask_group;
	d->groups[3] = &dram_group;

	d->uncore.pmu = (struct pmu) {
		.module		= desc->owner ?: THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups	= d->groups,
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
	ret = hvpmu_uncore_register(&d->uncore, d->name);
	if (ret) {
		pr_warn("%s: registering the PMU failed: %d\n", d->name, ret);
		goto err_attrs;
	}
	pr_info("%s: %u DRAM channel(s), counters polled every %u ms\n",
		d->name, hweight32(d->present), d->poll_ms);
	return d;

err_attrs:
	hvpmu_attrs_free(&d->attrs);
err_free:
	kfree(d->cpu_node);
	kfree(d);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_dram_probe);

/**
 * hvpmu_sun4v_dram_remove() - unregister a PMU made by hvpmu_sun4v_dram_probe()
 * @d: the PMU, or NULL
 */
void hvpmu_sun4v_dram_remove(struct hvpmu_sun4v_dram *d)
{
	if (IS_ERR_OR_NULL(d))
		return;
	hvpmu_uncore_unregister(&d->uncore);
	hrtimer_cancel(&d->timer);
	hvpmu_attrs_free(&d->attrs);
	kfree(d->cpu_node);
	kfree(d);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_dram_remove);

/**
 * hvpmu_sun4v_pcr_write() - set the calling strand's PCR with HT through
 *	the hypervisor
 * @d: the instance whose backend to use (PerfReg 0 of the chip's API:
 *	0x105 on a T2, 0x107 on a T2+)
 * @pcr: the whole PCR value, HT (bit 3) set
 * @live: the last write on this strand set HT (not used yet)
 * @cur: the PCR as read just now (not used yet)
 *
 * The HT bit can be written only by the hypervisor, which may refuse
 * (ENOACCESS without the domain's perfctrhtaccess). A refusal is logged
 * once and shown as "refused" in the PMU's sysfs file hyperprivileged.
 * Must be called on the strand whose PCR is meant, with interrupts off.
 *
 * Return: true if the hypervisor wrote @pcr; false if the caller must
 * write @pcr without HT itself, so that counting continues.
 */
bool hvpmu_sun4v_pcr_write(struct hvpmu_sun4v_dram *d, u64 pcr, bool live,
			   u64 cur)
{
	unsigned long st;

	st = d->desc.ops->set_perfreg(d->desc.ctx, HVPMU_SUN4V_REG_PCR, pcr);
	if (st == HVPMU_SUN4V_EOK) {
		WRITE_ONCE(d->ht, DRAM_HT_ALLOWED);
		return true;
	}
	if (xchg(&d->ht, DRAM_HT_REFUSED) != DRAM_HT_REFUSED)
		pr_warn("%s: hypervisor refused hyperprivileged counting (PCR.HT): %s; counting without it\n",
			d->name, hvpmu_sun4v_status_name(st));
	return false;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_pcr_write);

struct dram_l2_call {
	struct hvpmu_sun4v_dram *d;
	u64 val;
	unsigned long status;
};

static void dram_l2_here(void *info)
{
	struct dram_l2_call *a = info;

	a->status = a->d->desc.ops->set_perfreg(a->d->desc.ctx,
						HVPMU_SUN4V_VF_REG_L2CTL,
						a->val);
}

/*
 * Write a node's PerfReg 1. It acts on the calling strand's node
 * (vf_perf_api 3.1), so the call is made on a CPU of @node.
 */
static int dram_set_l2ctl(struct hvpmu_sun4v_dram *d, unsigned int node,
			  unsigned int mode)
{
	struct dram_l2_call a = { .d = d, .val = mode };
	unsigned int cpu;

	if (!d->cpu_node)
		return dram_set(d, HVPMU_SUN4V_VF_REG_L2CTL, mode,
				"L2 PERF_CONFIG");
	for_each_online_cpu(cpu) {
		if (d->cpu_node[cpu] != node)
			continue;
		if (smp_call_function_single(cpu, dram_l2_here, &a, 1))
			continue;
		if (a.status != HVPMU_SUN4V_EOK)
			pr_warn_ratelimited("%s: writing PerfReg %u (L2 PERF_CONFIG) of node %u failed: %s\n",
					    d->name, HVPMU_SUN4V_VF_REG_L2CTL,
					    node, hvpmu_sun4v_status_name(a.status));
		return hvpmu_sun4v_errno(a.status);
	}
	return -ENODEV;
}

/**
 * hvpmu_sun4v_l2ctl_get() - take a node's L2 miss-source setting (T2+)
 * @d: a vfalls_dram instance
 * @node: the node (hvpmu_sun4v_l2_nodes())
 * @mode: PERF_CONFIG, HVPMU_SUN4V_L2_ALL to HVPMU_SUN4V_L2_C2C
 *
 * The setting is node-wide and shared: users asking for the same @mode
 * share it, a user asking for another one while it is taken gets -EBUSY.
 * The register is written only when the first user sets a mode other than
 * "all". Each successful call must be paired with hvpmu_sun4v_l2ctl_put().
 * May sleep.
 *
 * Return: 0; -EOPNOTSUPP on a T2; -EINVAL for a bad @node or @mode;
 * -EBUSY; or the errno of a failed hypercall (nothing is taken then).
 */
int hvpmu_sun4v_l2ctl_get(struct hvpmu_sun4v_dram *d, unsigned int node,
			  unsigned int mode)
{
	int ret = 0;

	if (d->desc.chip != HVPMU_SUN4V_VF)
		return -EOPNOTSUPP;
	if (node >= HVPMU_SUN4V_VF_NODES || mode > HVPMU_SUN4V_L2_C2C)
		return -EINVAL;
	mutex_lock(&d->l2_lock);
	if (d->l2_users[node] && d->l2_mode[node] != mode)
		ret = -EBUSY;
	else if (!d->l2_users[node] && mode != HVPMU_SUN4V_L2_ALL)
		ret = dram_set_l2ctl(d, node, mode);
	if (!ret) {
		d->l2_mode[node] = mode;
		d->l2_users[node]++;
	}
	mutex_unlock(&d->l2_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_l2ctl_get);

/**
 * hvpmu_sun4v_l2ctl_put() - release a node's L2 miss-source setting
 * @d: the instance given to hvpmu_sun4v_l2ctl_get()
 * @node: the node
 *
 * The last user puts the node back to "all L2 misses", the default.
 * May sleep.
 */
void hvpmu_sun4v_l2ctl_put(struct hvpmu_sun4v_dram *d, unsigned int node)
{
	if (node >= HVPMU_SUN4V_VF_NODES)
		return;
	mutex_lock(&d->l2_lock);
	if (!WARN_ON_ONCE(!d->l2_users[node]) && !--d->l2_users[node] &&
	    d->l2_mode[node] != HVPMU_SUN4V_L2_ALL) {
		/* On failure the node keeps counting a subset; it is logged. */
		dram_set_l2ctl(d, node, HVPMU_SUN4V_L2_ALL);
		d->l2_mode[node] = HVPMU_SUN4V_L2_ALL;
	}
	mutex_unlock(&d->l2_lock);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_l2ctl_put);

/*
 * The nodes whose setting a CPU PMU event depends on: its CPU's node, or
 * for a per-task event (@cpu < 0), which may run anywhere, every node with
 * a DRAM channel.
 */
static int dram_l2ctl_nodes(struct hvpmu_sun4v_dram *d, int cpu,
			    unsigned long *nodes)
{
	unsigned int c;
	int node;

	*nodes = 0;
	if (cpu < 0) {
		for (c = 0; c < d->nr_chans; c++)
			if (d->present & BIT(c))
				*nodes |= BIT(c / HVPMU_SUN4V_VF_MCUS);
		return 0;
	}
	if (!d->cpu_node)
		return -EOPNOTSUPP;
	node = cpu < nr_cpu_ids ? d->cpu_node[cpu] : -1;
	if (node < 0)
		return -ENODEV;
	*nodes = BIT(node);
	return 0;
}

/**
 * hvpmu_sun4v_l2ctl_event_get() - take the L2 setting a CPU PMU event needs
 * @d: the DRAM PMU instance
 * @cpu: the event's CPU, or -1 for a per-task event (every node is taken)
 * @enc: the event's PCR encoding, SL << 8 | mask
 * @config1: the event's config1, whose bits 1:0 are its l2ctl
 *
 * Events of select group SL 3 count what the node's PERF_CONFIG selects,
 * so each takes the node's setting with hvpmu_sun4v_l2ctl_get(), @mode 0
 * ("all") included: a plain miss event must not silently count a subset
 * that another user chose. On a T2 and for other events only @mode 0 is
 * accepted, and nothing is taken. May sleep.
 *
 * Return: 1 if a setting was taken (release it with
 * hvpmu_sun4v_l2ctl_event_put() and the same arguments), 0 if the event
 * needs none, -EOPNOTSUPP for a nonzero @mode on a T2, -EINVAL for a bad
 * @mode or a nonzero one on an event outside SL 3, -EBUSY if a node
 * holds another setting, or another errno of hvpmu_sun4v_l2ctl_get().
 * Nothing is taken on error.
 */
int hvpmu_sun4v_l2ctl_event_get(struct hvpmu_sun4v_dram *d, int cpu, u32 enc,
				u64 config1)
{
	unsigned int mode = config1 & 3, node;
	unsigned long nodes, done = 0;
	int ret;

	if (config1 & ~3ULL)
		return -EINVAL;
	if (d->desc.chip != HVPMU_SUN4V_VF)
		return mode ? -EOPNOTSUPP : 0;
	if (HVPMU_SUN4V_PCR_SL(enc) != HVPMU_SUN4V_PCR_SL_MISSES)
		return mode ? -EINVAL : 0;
	ret = dram_l2ctl_nodes(d, cpu, &nodes);
	if (ret)
		return ret;
	for_each_set_bit(node, &nodes, HVPMU_SUN4V_VF_NODES) {
		ret = hvpmu_sun4v_l2ctl_get(d, node, mode);
		if (ret)
			goto undo;
		done |= BIT(node);
	}
	return 1;

undo:
	for_each_set_bit(node, &done, HVPMU_SUN4V_VF_NODES)
		hvpmu_sun4v_l2ctl_put(d, node);
	return ret;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_l2ctl_event_get);

/**
 * hvpmu_sun4v_l2ctl_event_put() - release what hvpmu_sun4v_l2ctl_event_get()
 *	took
 * @d: the DRAM PMU instance
 * @cpu: as given to hvpmu_sun4v_l2ctl_event_get()
 * @enc: as given to hvpmu_sun4v_l2ctl_event_get()
 * @config1: as given to hvpmu_sun4v_l2ctl_event_get()
 *
 * Call only if that returned 1. May sleep.
 */
void hvpmu_sun4v_l2ctl_event_put(struct hvpmu_sun4v_dram *d, int cpu, u32 enc,
				 u64 config1)
{
	unsigned long nodes;
	unsigned int node;

	if (d->desc.chip != HVPMU_SUN4V_VF ||
	    HVPMU_SUN4V_PCR_SL(enc) != HVPMU_SUN4V_PCR_SL_MISSES ||
	    WARN_ON_ONCE(dram_l2ctl_nodes(d, cpu, &nodes)))
		return;
	for_each_set_bit(node, &nodes, HVPMU_SUN4V_VF_NODES)
		hvpmu_sun4v_l2ctl_put(d, node);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_l2ctl_event_put);

/**
 * hvpmu_sun4v_l2_nodes() - the T2+ node of each CPU from its socket id
 * @sock: socket id of each CPU, negative if unknown
 * @nr: number of entries of @sock and @node
 * @node: filled with each CPU's node, -1 if none
 *
 * As the glue's sock_node table did: node = socket id, 0-3.
 *
 * Return: the number of node numbers.
 */
int hvpmu_sun4v_l2_nodes(const int *sock, unsigned int nr, s8 *node)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		node[i] = sock[i] >= 0 && sock[i] < HVPMU_SUN4V_VF_NODES ?
			  sock[i] : -1;
	return HVPMU_SUN4V_VF_NODES;
}
EXPORT_SYMBOL_IF_KUNIT(hvpmu_sun4v_l2_nodes);

/**
 * hvpmu_sun4v_chip_detect() - tell an UltraSPARC T2 from a T2+
 * @compat: the OBP "compatible" property of a cpu node: NUL-terminated
 *	strings one after another
 * @len: its length in bytes
 *
 * Return: HVPMU_SUN4V_VF for "SUNW,UltraSPARC-T2+", HVPMU_SUN4V_N2 for
 * "SUNW,UltraSPARC-T2", -ENODEV for any other CPU.
 */
int hvpmu_sun4v_chip_detect(const char *compat, int len)
{
	size_t left = compat && len > 0 ? len : 0, n;
	int ret = -ENODEV;

	for (; left; compat += n + 1, left -= n + 1) {
		n = strnlen(compat, left);
		if (n == left)
			break;		/* not terminated: not a string */
		if (!strcmp(compat, "SUNW,UltraSPARC-T2+"))
			return HVPMU_SUN4V_VF;
		if (!strcmp(compat, "SUNW,UltraSPARC-T2"))
			ret = HVPMU_SUN4V_N2;
	}
	return ret;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_chip_detect);

/**
 * hvpmu_sun4v_dram_pmu() - the perf PMU of a DRAM PMU instance
 * @d: the instance
 *
 * Return: the registered &struct pmu (its type, device and sysfs groups).
 */
struct pmu *hvpmu_sun4v_dram_pmu(struct hvpmu_sun4v_dram *d)
{
	return &d->uncore.pmu;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_dram_pmu);

MODULE_DESCRIPTION("sun4v Niagara2 / Victoria Falls DRAM performance counters");
MODULE_LICENSE("GPL");
